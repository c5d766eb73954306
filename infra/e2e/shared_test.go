package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
)

// sharedTemp holds what the tests build once per run and only read after
// (bundles, the Lambda artifact of the test catalog); TestMain removes it.
var sharedTemp string

func TestMain(m *testing.M) {
	var err error
	if sharedTemp, err = os.MkdirTemp("", "mcpsearch-e2e-"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(sharedTemp)
	os.Exit(code)
}

// builtOnce is a directory under sharedTemp, made by its build on the
// first call of the run.
type builtOnce struct {
	once sync.Once
	dir  string
	path string // what the build returns: the directory, or a file in it
	err  error
}

var shared struct {
	sync.Mutex
	byName map[string]*builtOnce
}

// buildOnce returns what build wrote into a fresh directory, building it
// on the first call for name; a failed build fails every test that needs it.
func buildOnce(t *testing.T, name string, build func(dir string) (string, error)) string {
	t.Helper()
	shared.Lock()
	if shared.byName == nil {
		shared.byName = map[string]*builtOnce{}
	}
	b := shared.byName[name]
	if b == nil {
		b = &builtOnce{dir: filepath.Join(sharedTemp, strconv.Itoa(len(shared.byName)))}
		shared.byName[name] = b
	}
	shared.Unlock()
	b.once.Do(func() { b.path, b.err = build(b.dir) })
	if b.err != nil {
		t.Fatalf("building %s: %v", name, b.err)
	}
	return b.path
}

// sharedBundle is the index bundle of the catalog directory, built once
// per run; tests open it read-only, as the function does.
func sharedBundle(t *testing.T, catalog string) string {
	t.Helper()
	return buildOnce(t, "bundle of "+catalog, func(dir string) (string, error) {
		_, err := index.BuildDir(catalog, dir, nil)
		return dir, err
	})
}

// testArtifact is the Lambda artifact of the test catalog, built once per
// run as `sam build` does, for this machine's architecture so that it runs
// here: its directory and its bootstrap.
func testArtifact(t *testing.T) (root, bootstrap string) {
	t.Helper()
	bootstrap = buildOnce(t, "artifact", func(dir string) (string, error) {
		r, err := artifact.Build(artifact.Options{Catalog: filepath.Join(repoRoot, "index", "testdata", "catalog"), Out: dir, Arch: runtime.GOARCH, Module: repoRoot})
		if err != nil {
			return "", err
		}
		return r.Bootstrap, nil
	})
	return filepath.Dir(bootstrap), bootstrap
}
