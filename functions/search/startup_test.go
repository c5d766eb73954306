package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPortInUseBeforeIndexBuild: locally, a port in use stops the start
// before the index is built (which takes seconds on the default catalog),
// and the error names MCPSEARCH_ADDR.
func TestPortInUseBeforeIndexBuild(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	cache := t.TempDir()
	s := startWith(t, map[string]string{"MCPSEARCH_CATALOG": writeTestCatalog(t), "MCPSEARCH_CACHE_DIR": cache, "MCPSEARCH_ADDR": busy.Addr().String()})
	wantRefused(t, s, false, "MCPSEARCH_ADDR="+busy.Addr().String(), "address already in use")
	if built, _ := os.ReadDir(cache); len(built) > 0 {
		t.Errorf("the index was built (%s) before the port was found in use", built[0].Name())
	}
}

// TestMissingCatalogNamesVariable: a catalog directory that is not there
// is reported with the variable that named it.
func TestMissingCatalogNamesVariable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-catalog")
	s := startWith(t, map[string]string{"MCPSEARCH_CATALOG": missing, "MCPSEARCH_CACHE_DIR": t.TempDir(), "MCPSEARCH_ADDR": "127.0.0.1:0"})
	wantRefused(t, s, false, "MCPSEARCH_CATALOG="+missing)
}

// TestBuildProgressCounts: the progress line counts in words ("1 server",
// "1 tool"), not "1 servers".
func TestBuildProgressCounts(t *testing.T) {
	t.Parallel()
	catalog := filepath.Join(t.TempDir(), "catalog")
	os.Mkdir(catalog, 0o755)
	os.WriteFile(filepath.Join(catalog, "one.json"), []byte(`{"server":"one","tools":[{"name":"x","description":"does x","inputSchema":{}}]}`), 0o644)
	var progress bytes.Buffer
	if _, err := cachedBundle(catalog, t.TempDir(), &progress); err != nil {
		t.Fatal(err)
	}
	if want := "building the index of 1 server (1 tool, 0 prompts, 0 resources, 0 templates)"; !strings.Contains(progress.String(), want) {
		t.Errorf("progress %q, want %q", progress.String(), want)
	}
}

// TestOldCachedBundlesRemoved: a start removes the cached bundles of other
// index versions that no start used for unusedBundleAge, and nothing
// else: not a recent one, not a directory of another name or without a
// manifest, not a file.
func TestOldCachedBundlesRemoved(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	old := time.Now().Add(-unusedBundleAge - time.Hour)
	mk := func(name string, manifest bool, mtime time.Time) string {
		dir := filepath.Join(cache, name)
		os.MkdirAll(dir, 0o755)
		if manifest {
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}"), 0o644)
		}
		os.Chtimes(dir, mtime, mtime)
		return dir
	}
	stale := mk("index-0123456789abcdef", true, old)
	recent := mk("index-fedcba9876543210", true, time.Now().Add(-time.Hour))
	other := mk("index-mine", true, old)
	noManifest := mk("index-00000000000000aa", false, old)
	var progress bytes.Buffer
	catalog := writeTestCatalog(t)
	used, err := cachedBundle(catalog, cache, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s, unused for longer than %v, is still there (%v)", stale, unusedBundleAge, err)
	}
	if !strings.Contains(progress.String(), "removed "+stale) {
		t.Errorf("progress %q does not say it removed %s", progress.String(), stale)
	}
	for _, keep := range []string{recent, other, noManifest, used} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed: %v", keep, err)
		}
	}
	// A reuse marks the bundle used: it is not removed as stale later.
	old2 := time.Now().Add(-unusedBundleAge - time.Hour)
	os.Chtimes(used, old2, old2)
	if again, err := cachedBundle(catalog, cache, &progress); err != nil || again != used {
		t.Fatalf("reuse: %s, %v", again, err)
	}
	if fi, err := os.Stat(used); err != nil || time.Since(fi.ModTime()) > time.Minute {
		t.Errorf("a reused bundle is not marked used: %v, %v", fi.ModTime(), err)
	}
}
