package retrieval_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

// The pipeline's tests read real bundles, which package index builds and
// opens; package index imports this one, so the tests of this package's
// internals (package retrieval) cannot import it. This external test file
// can: it gives them the bundles through retrieval.DefaultSource.

const defaultCatalog = "../../../functions/search/catalog"

func init() { retrieval.DefaultSource = defaultSource }

var defaultBundle struct {
	sync.Once
	dir string
	x   *index.Index
	err error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if defaultBundle.x != nil {
		defaultBundle.x.Close()
	}
	if defaultBundle.dir != "" {
		os.RemoveAll(defaultBundle.dir)
	}
	os.Exit(code)
}

// defaultSource opens the bundle of the default catalog, built once per
// test binary run, as a caller who sees everything reads it.
func defaultSource(tb testing.TB) retrieval.Source {
	tb.Helper()
	defaultBundle.Do(func() {
		dir, err := os.MkdirTemp("", "mcpsearch-retrieval-test-")
		if err != nil {
			defaultBundle.err = err
			return
		}
		defaultBundle.dir = dir
		bundle := filepath.Join(dir, "bundle")
		if _, err := index.BuildDir(defaultCatalog, bundle, nil); err != nil {
			defaultBundle.err = err
			return
		}
		defaultBundle.x, defaultBundle.err = index.Open(bundle)
	})
	if defaultBundle.err != nil {
		tb.Fatalf("building the default bundle: %v", defaultBundle.err)
	}
	return defaultBundle.x.RetrievalSource(ext.Access{All: true})
}
