package index

import (
	"encoding/json"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle/bundletest"
	"os"
	"path/filepath"
	"slices"
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
	catalogOf.Store(x.dir, catalogDir)
	return x
}

// catalogOf is the catalog directory of each bundle the tests built from
// one (mustBuild, defaultIndex), by the bundle's directory: bleveOf builds
// bleve's own index of it.
var catalogOf sync.Map

// sharedBundles are the bundles built once per test binary run, by name,
// under sharedTemp (removed by TestMain): a bundle is never written after
// its build, and each test opens its own Index on it, so tests share the
// cost of a build and nothing else.
var sharedBundles struct {
	sync.Mutex
	byName map[string]*sharedBundle
}

type sharedBundle struct {
	once sync.Once
	dir  string
	err  error
}

// sharedIndex opens the bundle named name, which build (given the
// directory to write it to) makes on the first call of the run; the index
// is closed when the test ends.
func sharedIndex(tb testing.TB, name string, build func(dir string) error) *Index {
	tb.Helper()
	sharedBundles.Lock()
	if sharedBundles.byName == nil {
		sharedBundles.byName = map[string]*sharedBundle{}
	}
	b := sharedBundles.byName[name]
	if b == nil {
		b = &sharedBundle{dir: filepath.Join(sharedTemp, name)}
		sharedBundles.byName[name] = b
	}
	sharedBundles.Unlock()
	b.once.Do(func() { b.err = build(b.dir) })
	if b.err != nil {
		tb.Fatalf("building the shared bundle %s: %v", name, b.err)
	}
	x, err := Open(b.dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { x.Close() })
	return x
}

// defaultIndex opens the bundle of the default catalog, built once per
// test binary run.
func defaultIndex(tb testing.TB) *Index {
	tb.Helper()
	x := sharedIndex(tb, "default", func(dir string) error {
		_, err := BuildDir(defaultCatalog, dir, nil)
		return err
	})
	catalogOf.Store(x.dir, defaultCatalog)
	return x
}

// defaultIndexWithout is an Index of its own over the default catalog's
// bundle, with rules switched off: its rules are its own, so the shared
// defaultIndex keeps every rule on.
func defaultIndexWithout(tb testing.TB, rules ...string) *Index {
	tb.Helper()
	x := defaultIndex(tb)
	if err := x.SetRulesOff(rules...); err != nil {
		tb.Fatal(err)
	}
	return x
}

// restrictedDefault is the default catalog with its servers spread over
// four groups (writeRestrictedCatalog), written once per test binary run.
func restrictedDefault(tb testing.TB) string {
	tb.Helper()
	restrictedOnce.Do(func() {
		restrictedOnce.dir = filepath.Join(sharedTemp, "restricted-catalog")
		restrictedOnce.err = writeRestrictedCatalog(defaultCatalog, restrictedOnce.dir, 4)
	})
	if restrictedOnce.err != nil {
		tb.Fatal(restrictedOnce.err)
	}
	return restrictedOnce.dir
}

var restrictedOnce struct {
	sync.Once
	dir string
	err error
}

// restrictedDefaultIndex opens the bundle of restrictedDefault, built once
// per test binary run.
func restrictedDefaultIndex(tb testing.TB) *Index {
	tb.Helper()
	catalogDir := restrictedDefault(tb)
	return sharedIndex(tb, "restricted", func(dir string) error {
		_, err := BuildDir(catalogDir, dir, nil)
		return err
	})
}

var sharedTemp string

func TestMain(m *testing.M) {
	if dir := os.Getenv(openAsChildEnv); dir != "" {
		os.Exit(openAsChild(dir))
	}
	if dir := os.Getenv(damagedSegmentEnv); dir != "" {
		os.Exit(openDamagedSegments(dir))
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

// bleveOf is bleve's own index of the documents of x (which mustBuild or
// defaultIndex built from a catalog), to compare with bleve's own scores
// and explanations; built once per catalog and shared.
func bleveOf(tb testing.TB, x *Index) bleve.Index {
	tb.Helper()
	dir, ok := catalogOf.Load(x.dir)
	if !ok {
		tb.Fatalf("bleveOf: no catalog recorded for the bundle %s", x.dir)
	}
	return bundletest.Bleve(tb, dir.(string))
}

// sortedKeys are the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
