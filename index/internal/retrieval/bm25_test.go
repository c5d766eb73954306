package retrieval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle/bundletest"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// bm25Queries cover the query shapes: short and long (more than ten words,
// where bleve switches to its heap disjunction), exact names, typos,
// generic verbs, other scripts, and words no item holds.
var bm25Queries = append(slices.Clone(retrievaltest.BM25Shapes), retrievaltest.BenchQueries...)

// TestBM25MatchesBleve runs each query through the term-at-a-time scorer
// and through bleve's own engine and requires the same items, in the same
// order, with the same scores (to rounding).
func TestBM25MatchesBleve(t *testing.T) {
	t.Parallel()
	b := sharedDefault(t)
	bi := bundletest.Bleve(t, defaultCatalog)
	for _, kind := range []ext.Kind{ext.KindTool, ext.KindPrompt, ext.KindResource} {
		for _, text := range bm25Queries {
			retrievaltest.CompareWithBleve(t, b.Source, bi, ext.Query{Kind: kind, Text: text, Limit: 10}, ext.Access{All: true}, 60)
		}
	}
	filtered := []ext.Query{
		{Kind: ext.KindTool, Text: "create an issue", Filter: ext.Filter{Servers: []string{"github", "gitlab"}}},
		{Kind: ext.KindTool, Text: "list files", Filter: ext.Filter{Annotations: map[string]any{"readOnlyHint": true}}},
	}
	for _, q := range filtered {
		retrievaltest.CompareWithBleve(t, b.Source, bi, q, ext.Access{All: true}, 60)
	}
}

// TestBM25MatchesBleveRestricted compares the scorers where the visibility
// filter applies.
func TestBM25MatchesBleveRestricted(t *testing.T) {
	b := retrievaltest.Files(t, restrictedFiles(t, "../../testdata/catalog", 2))
	bi := bundletest.BleveOf(t, b.Catalog)
	for _, access := range []ext.Access{{Groups: []string{"team0"}}, {Groups: []string{"team1"}}, {}} {
		for _, text := range []string{"delete a note", "weather forecast", "notes"} {
			retrievaltest.CompareWithBleve(t, b.Source, bi, ext.Query{Kind: ext.KindTool, Text: text}, access, 20)
		}
	}
}

// restrictedFiles are the server files of the catalog at dir, file i
// given the visibility {"groups": ["team<i mod groups>"]}.
func restrictedFiles(tb testing.TB, dir string, groups int) map[string]string {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("catalog %s: no server files (%v)", dir, err)
	}
	slices.Sort(paths)
	files := map[string]string{}
	for i, p := range paths {
		var m map[string]json.RawMessage
		data, err := os.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(data, &m)
		}
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		m["visibility"] = json.RawMessage(fmt.Sprintf(`{"groups":["team%d"]}`, i%groups))
		data, _ = json.Marshal(m)
		files[filepath.Base(p)] = string(data)
	}
	return files
}

// BenchmarkBM25 retrieves the best 21 tools (the re-ranking window and a
// page of 10 past it) for each query of the mix, side by side through
// bleve's query engine and through the term-at-a-time scorer; the ratio of
// the two is what internal/bm25 is for.
func BenchmarkBM25(b *testing.B) {
	src := defaultSource(b)
	var queries []bm25.Query
	for _, s := range retrievaltest.BenchQueries {
		if res := retrievaltest.Ranked(b, src, ext.Query{Kind: ext.KindTool, Text: s}, ext.Access{All: true}, 0); res != nil {
			queries = append(queries, res.Query)
		}
	}
	const n = 21
	bi := bundletest.Bleve(b, defaultCatalog)
	b.Run("bleve", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			req := bleve.NewSearchRequestOptions(queries[i%len(queries)].Bleve(), n, 0, false)
			req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: src.Stats(ext.KindTool)}
			if _, err := bi.Search(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("term-at-a-time", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := retrievaltest.BM25Top(context.Background(), src, ext.KindTool, queries[i%len(queries)], n); err != nil {
				b.Fatal(err)
			}
		}
	})
}
