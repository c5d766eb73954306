package index

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// runTogetherWords returns up to n words of two common words of the
// default catalog's descriptions typed without their space
// (retrievaltest.RunTogetherWords); the bound on the terms they make a
// search read is retrieval's test (internal/retrieval/terms_test.go).
func runTogetherWords(tb testing.TB, x *Index, n int) []string {
	tb.Helper()
	return retrievaltest.RunTogetherWords(tb, x.RetrievalSource(ext.Access{All: true}), n)
}
