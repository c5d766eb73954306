package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	"github.com/mcpsearch/mcpsearch/index"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// writeTestCatalog writes testCatalog into a new directory.
func writeTestCatalog(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "catalog")
	os.Mkdir(dir, 0o755)
	for name, data := range testCatalog {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestServerRefusesBadBundle: run returns (the server never starts) on a
// bundle that Open refuses, naming the problem. It starts from the process
// environment, as main does.
func TestServerRefusesBadBundle(t *testing.T) {
	good := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(writeTestCatalog(t), good, nil); err != nil {
		t.Fatal(err)
	}
	for _, test := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"missing bundle", func(t *testing.T, dir string) { os.RemoveAll(dir) }, "does not exist"},
		{"missing manifest", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, index.ManifestFile)) }, "no manifest.json"},
		{"altered manifest", func(t *testing.T, dir string) {
			path := filepath.Join(dir, index.ManifestFile)
			data, _ := os.ReadFile(path)
			current := []byte(fmt.Sprintf(`"format": %d`, index.FormatVersion))
			if !bytes.Contains(data, current) {
				t.Fatalf("manifest does not hold %s", current)
			}
			os.WriteFile(path, bytes.Replace(data, current, []byte(`"format": 99`), 1), 0o644)
		}, "bundle format 99"},
		{"truncated segment", func(t *testing.T, dir string) {
			segs, _ := filepath.Glob(filepath.Join(dir, "bleve", "*.zap"))
			os.Truncate(segs[0], 10)
		}, "truncated or altered"},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			os.CopyFS(dir, os.DirFS(good))
			test.damage(t, dir)
			wantRefused(t, startWith(t, map[string]string{"MCPSEARCH_ADDR": "127.0.0.1:0", "MCPSEARCH_INDEX": dir}), false, test.want)
		})
	}
}

func mustIndex(t *testing.T) *index.Index { return mustOpenCatalog(t, writeTestCatalog(t)) }

// mustOpenCatalog builds the catalog directory into a bundle and opens it,
// closed when the test ends.
func mustOpenCatalog(t testing.TB, catalogDir string) *index.Index {
	t.Helper()
	return mustOpenBundle(t, mustBuildBundle(t, catalogDir))
}

// mustBuildBundle builds the catalog directory into a bundle and returns
// its directory.
func mustBuildBundle(t testing.TB, catalogDir string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(catalogDir, dir, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mustOpenBundle opens the bundle at dir, closed when the test ends.
func mustOpenBundle(t testing.TB, dir string) *index.Index {
	t.Helper()
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

// TestCachedBundle: the first run builds with a progress line, the next
// reuses the bundle, a changed catalog gets a new one, a damaged cache is
// rebuilt.
func TestCachedBundle(t *testing.T) {
	t.Parallel()
	catalog, cache := writeTestCatalog(t), t.TempDir()
	var progress bytes.Buffer
	first, err := cachedBundle(catalog, cache, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "building the index of 2 servers (5 tools") {
		t.Errorf("first run printed %q, want a progress line", progress.String())
	}
	progress.Reset()
	again, err := cachedBundle(catalog, cache, &progress)
	if err != nil || again != first || progress.Len() != 0 {
		t.Errorf("second run: got %s, %v, printed %q; want %s reused silently", again, err, progress.String(), first)
	}
	os.WriteFile(filepath.Join(catalog, "more.json"), []byte(`{"server":"more","tools":[{"name":"x","inputSchema":{}}]}`), 0o644)
	changed, err := cachedBundle(catalog, cache, io.Discard)
	if err != nil || changed == first {
		t.Errorf("changed catalog: got %s, %v; want a new bundle", changed, err)
	}
	segs, _ := filepath.Glob(filepath.Join(changed, "bleve", "*.zap"))
	os.Truncate(segs[0], 10)
	progress.Reset()
	if _, err := cachedBundle(catalog, cache, &progress); err != nil || !strings.Contains(progress.String(), "damaged") {
		t.Errorf("damaged cache: got %v, printed %q; want a rebuild", err, progress.String())
	}
	if _, err := index.Verify(changed); err != nil {
		t.Errorf("rebuilt bundle: %v", err)
	}
}

func TestBundledCatalog(t *testing.T) {
	t.Parallel()
	cat, err := loadCatalog("")
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Servers) != 67 || len(cat.Items) != 4584+38+29+6 {
		t.Errorf("got %d servers and %d items, want the 67 servers and 4,657 items of the default catalog", len(cat.Servers), len(cat.Items))
	}
	if _, err := os.Stat("catalog/SOURCES.md"); err != nil {
		t.Errorf("the default catalog ships without its attribution: %v", err)
	}
}

// TestStaleCachedBundleIsRebuilt: a cached bundle whose manifest records
// another build identity than this binary's (built before a pull changed
// its build-time tables) is not served: it is rebuilt, saying why.
func TestStaleCachedBundleIsRebuilt(t *testing.T) {
	t.Parallel()
	catalog, cache := writeTestCatalog(t), t.TempDir()
	dir, err := cachedBundle(catalog, cache, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, index.ManifestFile)
	data, _ := os.ReadFile(manifest)
	var m map[string]any
	json.Unmarshal(data, &m)
	m["build"] = "older-build"
	data, _ = json.Marshal(m)
	os.WriteFile(manifest, data, 0o644)
	var progress bytes.Buffer
	again, err := cachedBundle(catalog, cache, &progress)
	if err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(again, index.ManifestFile))
	if strings.Contains(string(data), "older-build") || !strings.Contains(progress.String(), "build-time tables") {
		t.Errorf("got bundle %s (stale: %v), printed %q; want it rebuilt, saying the build-time tables differ", again, strings.Contains(string(data), "older-build"), progress.String())
	}
}

// TestCachedBundleFollowsLibrary: the library's content is part of a
// cached bundle's key: a library update rebuilds the bundle, which names
// the library it was built with; the same library reuses it; a start
// without the library builds its own.
func TestCachedBundleFollowsLibrary(t *testing.T) {
	t.Parallel()
	dir, cache := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "team-acme.json"), []byte(`{"server":"team-acme","package":"acme-mcp@2.0.0","tools":[
{"name":"spin","description":"Spin a widget","inputSchema":{"type":"object"}}]}`), 0o644)
	libWith := func(req string) *library.Library {
		t.Helper()
		lib, err := library.New([]*library.File{{Identity: "acme-mcp", Items: []library.Item{{Kind: ext.KindTool, Name: "spin", Requests: []string{req}}}}})
		if err != nil {
			t.Fatal(err)
		}
		return lib
	}
	v1, v2 := libWith("make it turn"), libWith("make it go round")
	var progress bytes.Buffer
	first, err := cachedBundleWith(dir, cache, v1, &progress)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := loadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	library.Attach(cat, v1)
	if want := "index-" + library.CacheKey(index.VersionOf(cat), v1.Version()); filepath.Base(first) != want {
		t.Errorf("cached as %s, want %s: the name mcpsearch search gives it too", filepath.Base(first), want)
	}
	if !strings.Contains(progress.String(), "requests (library "+v1.Version()+"): 0 items their own, 1 the library's") {
		t.Errorf("first build printed %q, want the coverage", progress.String())
	}
	progress.Reset()
	if again, err := cachedBundleWith(dir, cache, v1, &progress); err != nil || again != first || progress.Len() != 0 {
		t.Errorf("same library: %s, %v, %q; want %s reused", again, err, progress.String(), first)
	}
	updated, err := cachedBundleWith(dir, cache, v2, io.Discard)
	if err != nil || updated == first {
		t.Fatalf("updated library: %s, %v; want a new bundle", updated, err)
	}
	if m, err := index.Verify(updated); err != nil || m.Library != v2.Version() {
		t.Errorf("updated bundle names library %q (%v), want %q", m.Library, err, v2.Version())
	}
	// a bundle under v1's name whose manifest names another library
	if _, err := index.Build(cat, first, &index.BuildOptions{Library: "0123456789abcdef"}); err != nil {
		t.Fatal(err)
	}
	progress.Reset()
	if again, err := cachedBundleWith(dir, cache, v1, &progress); err != nil || again != first || !strings.Contains(progress.String(), "was built with another library of requests") {
		t.Errorf("manifest of another library: %s, %v, %q; want it rebuilt, saying why", again, err, progress.String())
	}
	if m, err := index.Verify(first); err != nil || m.Library != v1.Version() {
		t.Errorf("rebuilt bundle names library %q (%v), want %q", m.Library, err, v1.Version())
	}
	off, err := cachedBundleWith(dir, cache, nil, io.Discard)
	if err != nil || off == first || off == updated {
		t.Errorf("library off: %s, %v; want a bundle of its own", off, err)
	}
}
