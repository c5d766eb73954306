package artifact

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpsearch/mcpsearch/index"
)

// NoticesFile is the artifact's file of notices: mcpsearch's licence, the
// provenance and licences of the data compiled into bootstrap, the
// catalog's sources, and the licence texts of Go and of every Go module
// bootstrap links. Licences of the data (CC BY-SA 4.0, MIT) and of the
// modules (MIT, BSD, Apache-2.0) ask that copies carry them.
const NoticesFile = "THIRD_PARTY_NOTICES"

// licenceFile matches the names of the licence and notice files of a
// module's root.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice)([-._].*)?$`)

// catalogNotes are the files of a catalog directory that say where its
// definitions come from and under which licences.
var catalogNotes = []string{"SOURCES.md", "NOTICE", "LICENSE"}

// WriteNotices writes the notices of the artifact built from module for
// linux/arch, of catalog, into path.
func WriteNotices(module, arch, catalog, path string) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("writing %s: %w", NoticesFile, err)
		}
	}()
	var b bytes.Buffer
	b.WriteString("Notices of the mcpsearch search function: bootstrap and index/.\n\n")
	if err := section(&b, "mcpsearch", filepath.Join(module, "LICENSE")); err != nil {
		return err
	}
	b.WriteString("\n##### Data compiled into bootstrap #####\n\n" + index.Notices())
	for _, name := range catalogNotes {
		if p := filepath.Join(catalog, name); fileExists(p) {
			if err := section(&b, "the catalog's "+name+" (index/ holds its definitions)", p); err != nil {
				return err
			}
		}
	}
	if err := goLicences(&b, module, arch); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// goLicences appends Go's licence and the licence files of every module
// that bootstrap, built for linux/arch from module, links. A module
// without one is an error: its terms cannot be shipped.
func goLicences(b *bytes.Buffer, module, arch string) error {
	goroot, err := goOutput(module, arch, "env", "GOROOT")
	if err != nil {
		return err
	}
	b.WriteString("\n##### Go and the Go modules linked into bootstrap #####\n")
	if err := section(b, "Go (standard library and runtime)", filepath.Join(strings.TrimSpace(goroot), "LICENSE")); err != nil {
		return err
	}
	list, err := goOutput(module, arch, "list", "-deps", "-tags", buildTags,
		"-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{.Dir}}{{end}}{{end}}", "./functions/search")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for sc := bufio.NewScanner(strings.NewReader(list)); sc.Scan(); {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		if err := moduleLicences(b, f[0]+" "+f[1], f[2]); err != nil {
			return err
		}
	}
	return nil
}

// moduleLicences appends the licence files at the root of the module
// named name, in dir.
func moduleLicences(b *bytes.Buffer, name, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	found := false
	for _, e := range entries {
		if e.Type().IsRegular() && licenceFile.MatchString(e.Name()) {
			found = true
			if err := section(b, name+": "+e.Name(), filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	if !found {
		return fmt.Errorf("module %s has no licence file in %s", name, dir)
	}
	return nil
}

// section appends the file at path under a title.
func section(b *bytes.Buffer, title, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\n=== %s ===\n\n%s\n", title, bytes.TrimSpace(data))
	return nil
}

// goOutput runs the go command in module for linux/arch and returns its
// standard output.
func goOutput(module, arch string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = module
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", args[0], err, stderr.Bytes())
	}
	return string(out), nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
