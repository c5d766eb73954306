package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
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
//
// The items without requests of their own get those the library of public
// servers' requests holds for them (library.Attach), in binaries that
// carry the library (not those tagged nocatalog): the library's version is
// part of the key, and a cached bundle whose manifest names another
// library is rebuilt.
func cachedBundle(catalogDir, cacheDir string, progress io.Writer) (string, error) {
	lib, err := libraryOf(true)
	if err != nil {
		return "", err
	}
	return cachedBundleWith(catalogDir, cacheDir, lib, progress)
}

// libraryOf is the library this binary carries when on (nil if it carries
// none), nil when off.
func libraryOf(on bool) (*library.Library, error) {
	if !on || defaultLibrary == nil {
		return nil, nil
	}
	return defaultLibrary()
}

// cachedBundleWith is cachedBundle with the library lib (nil: none).
func cachedBundleWith(catalogDir, cacheDir string, lib *library.Library, progress io.Writer) (string, error) {
	cat, err := loadCatalog(catalogDir)
	if err != nil {
		return "", err
	}
	cov := library.Attach(cat, lib)
	if cacheDir == "" {
		if cacheDir, err = os.UserCacheDir(); err != nil {
			cacheDir = os.TempDir()
		}
		cacheDir = filepath.Join(cacheDir, "mcpsearch")
	}
	dir := filepath.Join(cacheDir, cachedBundlePrefix+library.CacheKey(index.VersionOf(cat), cov.Library))
	m, err := index.Verify(dir)
	if err == nil && m.Library != cov.Library {
		err = fmt.Errorf("%w %q, this start attaches %q", errOtherLibrary, m.Library, cov.Library)
	}
	if err == nil {
		markUsed(dir)
		pruneCachedBundles(cacheDir, dir, progress)
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) && fileExists(dir) {
		fmt.Fprintf(progress, "mcpsearch: cached index %s %s (%v); rebuilding\n", dir, unusable(err), err)
		os.RemoveAll(dir)
	}
	fmt.Fprintf(progress, "mcpsearch: building the index of %s (%s, %s, %s, %s) into %s, once...\n",
		count(len(cat.Servers), "server"), count(cat.Count(ext.KindTool), "tool"), count(cat.Count(ext.KindPrompt), "prompt"),
		count(cat.Count(ext.KindResource), "resource"), count(cat.Count(ext.KindResourceTemplate), "template"), dir)
	start := time.Now()
	if _, err := index.Build(cat, dir, &index.BuildOptions{Library: cov.Library}); err != nil {
		return "", err
	}
	fmt.Fprintf(progress, "mcpsearch: index built in %.1fs\n", time.Since(start).Seconds())
	writeCoverage(progress, cov)
	pruneCachedBundles(cacheDir, dir, progress)
	note, err := index.ErrandServersNote(cat)
	if err != nil {
		return "", err
	}
	if note != "" {
		fmt.Fprintf(progress, "mcpsearch: %s\n", note)
	}
	return dir, nil
}

// errOtherLibrary: a cached bundle's manifest names another library
// version than the one attached now.
var errOtherLibrary = errors.New("built with library")

// writeCoverage says where the items' requests come from.
func writeCoverage(w io.Writer, cov *library.Coverage) {
	fmt.Fprintln(w, "mcpsearch: "+cov.String())
}

// unusable says why a cached bundle that does not verify is rebuilt.
func unusable(err error) string {
	if errors.Is(err, index.ErrOtherBuild) {
		return "was built with other build-time tables, constants or writers"
	}
	if errors.Is(err, errOtherLibrary) {
		return "was built with another library of requests"
	}
	return "is damaged"
}

// count is n and the noun, plural unless n is 1 ("1 server", "2 tools").
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// cachedBundlePrefix starts the name of every bundle cachedBundle makes,
// followed by 16 hex digits of its index version.
const cachedBundlePrefix = "index-"

// unusedBundleAge is how long a cached bundle of another index version
// (an older catalog or binary) stays unused before cachedBundle removes
// it: long enough for a checkout of another branch to find its own.
var unusedBundleAge = 14 * 24 * time.Hour

// markUsed sets dir's modification time to now: pruneCachedBundles keeps
// what was used lately.
func markUsed(dir string) {
	now := time.Now()
	os.Chtimes(dir, now, now)
}

// pruneCachedBundles removes, from cacheDir, the bundles cachedBundle made
// (index-<16 hex>, holding a manifest) other than keep that no start has
// used for unusedBundleAge, and says so. It touches nothing else: not a
// directory of another name, not one without a manifest, not a bundle used
// lately (another version of mcpsearch may be serving it).
func pruneCachedBundles(cacheDir, keep string, progress io.Writer) {
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		dir := filepath.Join(cacheDir, e.Name())
		if !e.IsDir() || dir == keep || !isCachedBundleName(e.Name()) || !fileExists(filepath.Join(dir, index.ManifestFile)) {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < unusedBundleAge {
			continue
		}
		if err := os.RemoveAll(dir); err == nil {
			fmt.Fprintf(progress, "mcpsearch: removed %s, a cached index unused for %d days\n", dir, int(time.Since(fi.ModTime()).Hours()/24))
		}
	}
}

func isCachedBundleName(name string) bool {
	digits, ok := strings.CutPrefix(name, cachedBundlePrefix)
	if !ok || len(digits) != 16 {
		return false
	}
	for _, r := range digits {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

func loadCatalog(dir string) (*catalog.Catalog, error) {
	if dir != "" {
		cat, err := catalog.LoadDir(dir, nil)
		if err != nil {
			return nil, fmt.Errorf("MCPSEARCH_CATALOG=%s: %w", dir, err)
		}
		return cat, nil
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
