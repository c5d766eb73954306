package index

import (
	"context"
	"math"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
)

// bm25Queries cover the query shapes: short and long (more than ten words,
// where bleve switches to its heap disjunction), exact names, typos,
// generic verbs, other scripts, and words no item holds.
var bm25Queries = append([]string{
	"browser_take_screenshot", "kubernets pods", "show me the keys in vault X",
	"who is on call this week", "remove a file", "get",
	"I need to find every open pull request in the repository assigned to me and then post a summary of them to the team channel",
	"预订 会议室", "order a pizza", "zzzz qqqq",
}, benchQueries...)

// TestBM25MatchesBleve runs each query through the term-at-a-time scorer
// and through bleve's own engine and requires the same items, in the same
// order, with the same scores (to rounding).
func TestBM25MatchesBleve(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, kind := range []ext.Kind{ext.KindTool, ext.KindPrompt, ext.KindResource} {
		for _, text := range bm25Queries {
			compareWithBleve(t, x, ext.Query{Kind: kind, Text: text, Limit: 10}, ext.Access{All: true}, 60)
		}
	}
	filtered := []ext.Query{
		{Kind: ext.KindTool, Text: "create an issue", Filter: ext.Filter{Servers: []string{"github", "gitlab"}}},
		{Kind: ext.KindTool, Text: "list files", Filter: ext.Filter{Annotations: map[string]any{"readOnlyHint": true}}},
	}
	for _, q := range filtered {
		compareWithBleve(t, x, q, ext.Access{All: true}, 60)
	}
}

// TestBM25MatchesBleveRestricted compares the scorers where the visibility
// filter applies.
func TestBM25MatchesBleveRestricted(t *testing.T) {
	x := mustBuild(t, restrictedCatalog(t, "testdata/catalog", 2))
	for _, access := range []ext.Access{{Groups: []string{"team0"}}, {Groups: []string{"team1"}}, {}} {
		for _, text := range []string{"delete a note", "weather forecast", "notes"} {
			compareWithBleve(t, x, ext.Query{Kind: ext.KindTool, Text: text}, access, 20)
		}
	}
}

func compareWithBleve(t *testing.T, x *Index, q ext.Query, access ext.Access, n int) {
	t.Helper()
	pipeline := ranked(t, x, q, access)
	if pipeline == nil {
		return
	}
	bq := pipeline.Query
	bq.Scope, bq.MaxPostings, bq.Bonus = nil, 0, nil // what bleve's engine does not do: idf over what the caller sees, the postings bound, the written requests
	ours, err := bm25Top(context.Background(), x, q.Kind, bq, n)
	if err != nil {
		t.Fatalf("%q: %v", q.Text, err)
	}
	req := bleve.NewSearchRequestOptions(bq.Bleve(), n, 0, false)
	req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: x.bm25[q.Kind]}
	res, err := bleveOf(t, x).Search(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != len(res.Hits) {
		t.Fatalf("%s %q: %d hits, bleve %d", q.Kind, q.Text, len(ours), len(res.Hits))
	}
	for i, h := range res.Hits {
		if !close(ours[i].BM25, h.Score) {
			t.Fatalf("%s %q: hit %d scores %v, bleve %v", q.Kind, q.Text, i, ours[i].BM25, h.Score)
		}
		// the last hit may tie with items past the cut, which either engine
		// may have ranked first
		tied := i > 0 && close(h.Score, res.Hits[i-1].Score) || i+1 < len(res.Hits) && close(h.Score, res.Hits[i+1].Score) || i == len(res.Hits)-1
		if ours[i].ID != h.ID && !tied {
			t.Fatalf("%s %q: hit %d is %s, bleve %s", q.Kind, q.Text, i, ours[i].ID, h.ID)
		}
	}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }

// BenchmarkBM25 retrieves the best 21 tools (the re-ranking window and a
// page of 10 past it) for each query of the mix, side by side through
// bleve's query engine and through the term-at-a-time scorer; the ratio of
// the two is what internal/bm25 is for.
func BenchmarkBM25(b *testing.B) {
	x := defaultIndex(b)
	var queries []bm25.Query
	for _, s := range benchQueries {
		if res := ranked(b, x, ext.Query{Kind: ext.KindTool, Text: s}, ext.Access{All: true}); res != nil {
			queries = append(queries, res.Query)
		}
	}
	const n = 21
	bi := bleveOf(b, x)
	b.Run("bleve", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			req := bleve.NewSearchRequestOptions(queries[i%len(queries)].Bleve(), n, 0, false)
			req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: x.bm25[ext.KindTool]}
			if _, err := bi.Search(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("term-at-a-time", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := bm25Top(context.Background(), x, ext.KindTool, queries[i%len(queries)], n); err != nil {
				b.Fatal(err)
			}
		}
	})
}
