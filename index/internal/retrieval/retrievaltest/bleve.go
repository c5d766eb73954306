package retrievaltest

import (
	"context"
	"math"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

// CompareWithBleve ranks q for the caller with access a (sourceOf(a)),
// then runs the BM25 query the pipeline searched through the
// term-at-a-time scorer (BM25Top, with every item's statistics:
// sourceOf(ext.Access{All: true})) and through bleve's own engine over bi
// (bundletest.Bleve of the same catalog), and requires the same n best
// items, in the same order, with the same scores (to rounding).
func CompareWithBleve(t *testing.T, sourceOf func(ext.Access) retrieval.Source, bi bleve.Index, q ext.Query, a ext.Access, n int) {
	t.Helper()
	pipeline := Ranked(t, sourceOf(a), q, a, 0)
	if pipeline == nil {
		return
	}
	all := sourceOf(ext.Access{All: true})
	bq := pipeline.Query
	bq.Scope, bq.MaxPostings, bq.Bonus = nil, 0, nil // what bleve's engine does not do: idf over what the caller sees, the postings bound, the written requests
	ours, err := BM25Top(context.Background(), all, q.Kind, bq, n)
	if err != nil {
		t.Fatalf("%q: %v", q.Text, err)
	}
	req := bleve.NewSearchRequestOptions(bq.Bleve(), n, 0, false)
	req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: all.Stats(q.Kind)}
	res, err := bi.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != len(res.Hits) {
		t.Fatalf("%s %q: %d hits, bleve %d", q.Kind, q.Text, len(ours), len(res.Hits))
	}
	for i, h := range res.Hits {
		if !SameScore(ours[i].BM25, h.Score) {
			t.Fatalf("%s %q: hit %d scores %v, bleve %v", q.Kind, q.Text, i, ours[i].BM25, h.Score)
		}
		// the last hit may tie with items past the cut, which either engine
		// may have ranked first
		tied := i > 0 && SameScore(h.Score, res.Hits[i-1].Score) || i+1 < len(res.Hits) && SameScore(h.Score, res.Hits[i+1].Score) || i == len(res.Hits)-1
		if ours[i].ID != h.ID && !tied {
			t.Fatalf("%s %q: hit %d is %s, bleve %s", q.Kind, q.Text, i, ours[i].ID, h.ID)
		}
	}
}

// SameScore reports whether a and b are equal to rounding (a relative 1e-12).
func SameScore(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }
