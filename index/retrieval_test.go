package index

import (
	"context"
	"testing"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
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

// docFreq is the largest number of documents of kind holding term in one
// text field, as bleve's term readers count them.
func docFreq(tb testing.TB, x *Index, kind ext.Kind, term string) int {
	tb.Helper()
	r, err := x.reader()
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	most := 0
	for _, f := range schema.TextFields {
		tfr, err := r.TermFieldReader(context.Background(), []byte(term), schema.KindField(kind, f), false, false, false)
		if err != nil {
			tb.Fatal(err)
		}
		most = max(most, int(tfr.Count()))
		tfr.Close()
	}
	return most
}

// isWordOfLetters reports whether w is made of letters, ASCII ones when
// ascii is set, at least minRunes of them.
func isWordOfLetters(w string, minRunes int, ascii bool) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) || ascii && r > unicode.MaxASCII {
			return false
		}
		n++
	}
	return n >= minRunes
}
