package catalog

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// defaultCatalog is the catalog the search function bundles.
const defaultCatalog = "../../functions/search/catalog"

// writeCatalog writes files (name → content) into a new catalog directory.
func writeCatalog(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
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
