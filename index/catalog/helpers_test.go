package catalog

import (
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
)

// defaultCatalog is the catalog the search function bundles.
const defaultCatalog = "../../functions/search/catalog"

// load loads the catalog of files (name → content), labelled "cat".
func load(files map[string]string) (*Catalog, error) {
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	return LoadFS(fsys, "cat", nil)
}

// TestNoSearchEngine: the package links no bleve, so that the crawler,
// which checks what it writes with it, does not either.
func TestNoSearchEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "blevesearch") {
			t.Errorf("index/catalog imports %s", dep)
		}
	}
}
