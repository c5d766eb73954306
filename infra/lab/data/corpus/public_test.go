package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestPublic checks the public servers crawled for the library
// (../public) as the corpus is checked, and that each adds a server: none
// is a server or package of the default catalog or of the corpus, and no
// tool is one of the public evaluation sets'.
func TestPublic(t *testing.T) {
	c, err := Load("../public")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Check() {
		t.Error(p)
	}
	known := map[string]bool{}
	for _, path := range []string{filepath.Join(root, "functions/search/catalog/SOURCES.md"), "SOURCES.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			cells := strings.Split(line, "|")
			for _, cell := range cells {
				cell = strings.TrimSpace(cell)
				if at := strings.LastIndex(cell, "@"); at > 0 {
					known[cell[:at]] = true
				}
			}
		}
	}
	def, err := catalog.LoadDir(filepath.Join(root, "functions/search/catalog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range def.Servers {
		if s.Package != "" {
			known[s.Package[:max(strings.LastIndex(s.Package, "@"), 0)]] = true
		}
	}
	for _, s := range c.Sources {
		if pkg := s.Package[:max(strings.LastIndex(s.Package, "@"), 0)]; known[pkg] {
			t.Errorf("%s (%s) is a package of the default catalog or the corpus", s.File, s.Package)
		}
	}
	evaluated := evaluationTools(t)
	written, requests := 0, 0
	for _, it := range c.Catalog.Items {
		if evaluated[it.Label+"\x00"+it.Description] {
			t.Errorf("%s: %s %q is a tool of a public evaluation set", it.Server, it.Kind, it.Label)
		}
		if len(it.Requests) > 0 {
			written++
			requests += len(it.Requests)
		}
	}
	t.Logf("%d servers, %d items, %d with written requests, %d requests", len(c.Sources), len(c.Catalog.Items), written, requests)
	if len(c.Sources) < 174 || written < 4287 || requests < 26148 {
		t.Errorf("got %d servers, %d written items, %d requests; want at least 174, 4,287 and 26,148 (infra/lab/data/public/README.md)", len(c.Sources), written, requests)
	}
}
