package retrieval

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/typotest"
)

// DefaultSource opens the bundle of the default catalog for a caller who
// sees everything; set by bundles_test.go (package retrieval_test), which
// may import package index.
var DefaultSource func(tb testing.TB) Source

// defaultSearcher is a searcher over DefaultSource.
func defaultSearcher(tb testing.TB) searcher {
	tb.Helper()
	if DefaultSource == nil {
		tb.Fatal("no DefaultSource: bundles_test.go sets it")
	}
	return searcher{DefaultSource(tb)}
}

// mustTermDicts opens the tool dictionaries of x; the reader is closed
// when the test ends.
func mustTermDicts(tb testing.TB, x searcher) *termDicts {
	tb.Helper()
	r := x.Reader()
	tb.Cleanup(func() { r.Close() })
	d, err := newTermDicts(r, ext.KindTool, nil, x.Count(ext.KindTool))
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// vocabulary returns the terms of a field of kind, with their counts.
func vocabulary(tb testing.TB, x searcher, kind ext.Kind, field string) map[string]int {
	tb.Helper()
	r := x.Reader()
	defer r.Close()
	return typotest.Vocabulary(tb, r, schema.KindField(kind, field))
}
