package catalog

import (
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
