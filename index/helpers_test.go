package index

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// defaultCatalog is the catalog the search function bundles.
const defaultCatalog = "../functions/search/catalog"

// mustBuild builds the catalog at catalogDir into a fresh directory and
// opens it; the index is closed when the test ends.
func mustBuild(tb testing.TB, catalogDir string) *Index {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "bundle")
	if _, err := BuildDir(catalogDir, dir, nil); err != nil {
		tb.Fatal(err)
	}
	x, err := Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { x.Close() })
	return x
}

var defaultBundle struct {
	once sync.Once
	dir  string
	err  error
}

// defaultIndex opens the bundle of the default catalog, built once per
// test binary run (in a temporary directory removed by TestMain).
func defaultIndex(tb testing.TB) *Index {
	tb.Helper()
	defaultBundle.once.Do(func() {
		defaultBundle.dir = filepath.Join(sharedTemp, "default")
		_, defaultBundle.err = BuildDir(defaultCatalog, defaultBundle.dir, nil)
	})
	if defaultBundle.err != nil {
		tb.Fatal(defaultBundle.err)
	}
	x, err := Open(defaultBundle.dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { x.Close() })
	return x
}

var sharedTemp string

func TestMain(m *testing.M) {
	if dir := os.Getenv(openAsChildEnv); dir != "" {
		os.Exit(openAsChild(dir))
	}
	if dir := os.Getenv(damagedBoltEnv); dir != "" {
		os.Exit(openDamagedBolts(dir))
	}
	if dir := os.Getenv(buildIntoEnv); dir != "" {
		os.Exit(buildAsChild(dir))
	}
	var err error
	if sharedTemp, err = os.MkdirTemp("", "mcpsearch-index-test-"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(sharedTemp)
	os.Exit(code)
}

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

func decode(tb testing.TB, data []byte, v any) {
	tb.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		tb.Fatal(err)
	}
}

// bleveOf opens the bleve index of x through bleve itself, to compare with
// bleve's own scores; it is closed when the test ends.
func bleveOf(tb testing.TB, x *Index) bleve.Index {
	tb.Helper()
	b, err := bleve.OpenUsing(filepath.Join(x.dir, "bleve"), map[string]any{"read_only": true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	return b
}
