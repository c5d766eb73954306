package retrieval_test

import (
	"os"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// The pipeline's tests read real bundles, which package retrievaltest
// builds and opens; it imports this package, so the tests of this
// package's internals (package retrieval) cannot import it. This external
// test file can: it gives them the bundles through
// retrieval.DefaultSource.

const defaultCatalog = "../../../functions/search/catalog"

func init() { retrieval.DefaultSource = defaultSource }

var defaultBundle struct {
	sync.Once
	b   *retrievaltest.Bundle
	err error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if defaultBundle.b != nil {
		defaultBundle.b.Close()
	}
	os.Exit(code)
}

// sharedDefault is the bundle of the default catalog, built once per test
// binary run and shared: a test only reads it.
func sharedDefault(tb testing.TB) *retrievaltest.Bundle {
	tb.Helper()
	defaultBundle.Do(func() {
		cat, err := catalog.LoadDir(defaultCatalog, nil)
		if err != nil {
			defaultBundle.err = err
			return
		}
		defaultBundle.b, defaultBundle.err = retrievaltest.Build(cat)
	})
	if defaultBundle.err != nil {
		tb.Fatalf("building the default bundle: %v", defaultBundle.err)
	}
	return defaultBundle.b
}

// defaultSource is the bundle of the default catalog as a caller who sees
// everything reads it.
func defaultSource(tb testing.TB) retrieval.Source {
	tb.Helper()
	return sharedDefault(tb).Source(ext.Access{All: true})
}
