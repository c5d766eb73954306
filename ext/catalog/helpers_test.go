package catalog

import (
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

// wantLoadError fails unless loading the server file a.json holding file
// fails with an error that contains every part of want.
func wantLoadError(t *testing.T, file string, want []string) {
	t.Helper()
	_, err := load(map[string]string{"a.json": file})
	if err == nil {
		t.Fatal("got no error")
	}
	for _, part := range want {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("got %q, want it to contain %q", err, part)
		}
	}
}
