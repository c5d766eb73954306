package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/index"
)

// TestSearchWithoutIndex: without --index, search reads the bundle of
// MCPSEARCH_CATALOG (else the default catalog), built once into
// MCPSEARCH_CACHE_DIR and reused, as go run ./functions/search does.
func TestSearchWithoutIndex(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("MCPSEARCH_CATALOG", testCatalog)
	t.Setenv("MCPSEARCH_CACHE_DIR", cache)
	code, out, errOut := runCLI("search", "weather", "forecast", "--limit", "1")
	if code != 0 || !strings.Contains(out, "weather__get_forecast") || !strings.Contains(errOut, "building the index of MCPSEARCH_CATALOG") {
		t.Fatalf("search without --index: exit %d, %q, %q; want the catalog's bundle built and searched", code, out, errOut)
	}
	built, _ := filepath.Glob(filepath.Join(cache, "index-*"))
	if len(built) != 1 || len(filepath.Base(built[0])) != len("index-")+16 {
		t.Errorf("cache holds %v, want one index-<16 hex>, the name the search function gives it", built)
	}
	code, again, errOut := runCLI("search", "weather", "forecast", "--limit", "1")
	if code != 0 || again != out || errOut != "" {
		t.Errorf("second search: exit %d, %q, %q; want the cached bundle reused silently", code, again, errOut)
	}
}

// TestSearchDefaultCatalog: with neither --index nor MCPSEARCH_CATALOG,
// the catalog is the repository's default one, functions/search/catalog.
func TestSearchDefaultCatalog(t *testing.T) {
	t.Setenv("MCPSEARCH_CATALOG", "")
	t.Setenv("MCPSEARCH_CACHE_DIR", filepath.Join(t.TempDir(), "not-a-dir"))
	// A file where the cache should be makes the build fail after the
	// catalog is chosen and loaded; the error names where it went.
	os.WriteFile(filepath.Join(filepath.Dir(os.Getenv("MCPSEARCH_CACHE_DIR")), "not-a-dir"), []byte("x"), 0o644)
	code, _, errOut := runCLI("search", "take", "a", "screenshot")
	if code == 0 || !strings.Contains(errOut, filepath.Join("functions", "search", "catalog")) || strings.Contains(errOut, "-index") {
		t.Errorf("exit %d, %q; want the default catalog functions/search/catalog chosen, not --index required", code, errOut)
	}
}

// TestSearchWithoutIndexAttachesLibrary: search's cached bundle is the
// local server's: the library attached (a crawl of the Airtable server
// under another key gets its requests), named by library.CacheKey;
// MCPSEARCH_LIBRARY=off builds another without.
func TestSearchWithoutIndexAttachesLibrary(t *testing.T) {
	cache := t.TempDir()
	dir := teamCrawl(t)
	t.Setenv("MCPSEARCH_CATALOG", dir)
	t.Setenv("MCPSEARCH_CACHE_DIR", cache)
	if code, out, errOut := runCLI("search", "airtable", "records"); code != 0 {
		t.Fatalf("exit %d, %s%s", code, out, errOut)
	}
	lib, err := librarydata.Library()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	library.Attach(cat, lib)
	want := filepath.Join(cache, "index-"+library.CacheKey(index.VersionOf(cat), lib.Version()))
	if m, err := index.Verify(want); err != nil || m.Library != lib.Version() {
		t.Fatalf("no bundle %s with the library (%v)", want, err)
	}
	t.Setenv("MCPSEARCH_LIBRARY", "off")
	if code, out, errOut := runCLI("search", "airtable", "records"); code != 0 {
		t.Fatalf("off: exit %d, %s%s", code, out, errOut)
	}
	if built, _ := filepath.Glob(filepath.Join(cache, "index-*")); len(built) != 2 {
		t.Errorf("cache holds %v, want a bundle with the library and one without", built)
	}
}
