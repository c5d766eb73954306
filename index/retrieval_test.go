package index

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// The tests of this package see the retrieval pipeline as Search runs it:
// the request it reads (retrieval.Read), the BM25 query it searches and
// the candidates it ranks (retrieval.Rank).

// request reads q as Search does for a caller with access a.
func request(tb testing.TB, x *Index, q ext.Query, a ext.Access) *retrieval.Request {
	tb.Helper()
	return retrievaltest.Request(tb, x.RetrievalSource(a), q, x.rulesOff())
}

// ranked is what the pipeline answers q for a caller with access a (nil
// when q has no searchable words).
func ranked(tb testing.TB, x *Index, q ext.Query, a ext.Access) *retrieval.Result {
	tb.Helper()
	return retrievaltest.Ranked(tb, x.RetrievalSource(a), q, a, x.rulesOff())
}

// bm25Top returns the n best items of kind for bq by BM25 alone, best
// first, ties in catalog order (bm25.Top), as candidates.
func bm25Top(ctx context.Context, x *Index, kind ext.Kind, bq bm25.Query, n int) ([]rank.Candidate, error) {
	return retrievaltest.BM25Top(ctx, x.RetrievalSource(ext.Access{All: true}), kind, bq, n)
}

// isWordOfLetters is retrievaltest.IsWordOfLetters.
func isWordOfLetters(w string, minRunes int, ascii bool) bool {
	return retrievaltest.IsWordOfLetters(w, minRunes, ascii)
}
