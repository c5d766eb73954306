package retrievaltest

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// What follows runs the pipeline over any Source, a Bundle's or an open
// index's (index.Index.RetrievalSource), as index.Search runs it.

// Request reads q as index.Search does for the caller of src, with the
// rules off switched off.
func Request(tb testing.TB, src retrieval.Source, q ext.Query, off rules.Set) *retrieval.Request {
	tb.Helper()
	q.Text = retrieval.ReadText(q.Text)
	r, err := retrieval.Read(src, q, off)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// Ranked is what the pipeline ranks for q and the caller of src, who has
// access a: the filter's clauses applied without its checks
// (retrieval.Rank); nil when q has no searchable words.
func Ranked(tb testing.TB, src retrieval.Source, q ext.Query, a ext.Access, off rules.Set) *retrieval.Result {
	tb.Helper()
	r := Request(tb, src, q, off)
	if len(r.Terms) == 0 {
		return nil
	}
	filters, err := retrieval.FilterClauses(q, src.SeesAll(), a)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := retrieval.Rank(context.Background(), src, r, filters)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// BM25Top returns the n best items of kind for bq by BM25 alone, best
// first, ties in catalog order (bm25.Top), as candidates, with the
// statistics of src's caller (every item, for a caller who sees all).
func BM25Top(ctx context.Context, src retrieval.Source, kind ext.Kind, bq bm25.Query, n int) ([]rank.Candidate, error) {
	r := src.Reader()
	defer r.Close()
	docs, err := r.DocCount()
	if err != nil {
		return nil, err
	}
	top, err := bm25.Top(ctx, r, int(docs), src.Stats(kind), bq, n, src.DocOrder())
	if err != nil {
		return nil, err
	}
	return retrieval.CandidatesOf(r, top)
}
