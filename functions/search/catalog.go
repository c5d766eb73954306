package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"
)

// cachedBundle returns the directory of a bundle of the catalog at
// catalogDir (the bundled default catalog when empty), building it into
// cacheDir on first use. Bundles are keyed by index version (the catalog's,
// the bundle format's and the build identity of this binary, index.BuildID),
// so a changed catalog, or a binary with other build-time tables, constants
// or writers, gets a new bundle and an unchanged one is reused (query-time
// tables, index.QueryID, change no bundle); a cached bundle that does not
// verify (damaged, or built with another build identity) is rebuilt.
func cachedBundle(catalogDir, cacheDir string, progress io.Writer) (string, error) {
	cat, err := loadCatalog(catalogDir)
	if err != nil {
		return "", err
	}
	if cacheDir == "" {
		if cacheDir, err = os.UserCacheDir(); err != nil {
			cacheDir = os.TempDir()
		}
		cacheDir = filepath.Join(cacheDir, "mcpsearch")
	}
	dir := filepath.Join(cacheDir, "index-"+index.VersionOf(cat)[:16])
	if _, err := index.Verify(dir); err == nil {
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) && fileExists(dir) {
		fmt.Fprintf(progress, "mcpsearch: cached index %s %s (%v); rebuilding\n", dir, unusable(err), err)
		os.RemoveAll(dir)
	}
	fmt.Fprintf(progress, "mcpsearch: building the index of %d servers (%d tools, %d prompts, %d resources, %d templates) into %s, once...\n",
		len(cat.Servers), cat.Count(ext.KindTool), cat.Count(ext.KindPrompt), cat.Count(ext.KindResource), cat.Count(ext.KindResourceTemplate), dir)
	start := time.Now()
	if _, err := index.Build(cat, dir, nil); err != nil {
		return "", err
	}
	fmt.Fprintf(progress, "mcpsearch: index built in %.1fs\n", time.Since(start).Seconds())
	note, err := index.ErrandServersNote(cat)
	if err != nil {
		return "", err
	}
	if note != "" {
		fmt.Fprintf(progress, "mcpsearch: %s\n", note)
	}
	return dir, nil
}

// unusable says why a cached bundle that does not verify is rebuilt.
func unusable(err error) string {
	if errors.Is(err, index.ErrOtherBuild) {
		return "was built with other build-time tables, constants or writers"
	}
	return "is damaged"
}

func loadCatalog(dir string) (*catalog.Catalog, error) {
	if dir != "" {
		return catalog.LoadDir(dir, nil)
	}
	if defaultCatalog == nil {
		return nil, errors.New("this binary has no bundled catalog: set MCPSEARCH_INDEX to a bundle or MCPSEARCH_CATALOG to a catalog directory")
	}
	return catalog.LoadFS(defaultCatalog, "(bundled catalog)", nil)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
