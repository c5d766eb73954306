package index

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// benchQueries are the benchmarks' mix of tool requests.
var benchQueries = retrievaltest.BenchQueries

// BenchmarkSearch measures one tools/search over the default catalog.
func BenchmarkSearch(b *testing.B) {
	x := defaultIndex(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := ext.Query{Kind: ext.KindTool, Text: benchQueries[i%len(benchQueries)], Limit: 10}
		if _, err := x.Search(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVisibility measures search and a list page over the default
// catalog with each server restricted to one of four groups: a caller who
// sees everything (no filter clause), and one who sees a quarter.
func BenchmarkVisibility(b *testing.B) {
	x := restrictedDefaultIndex(b)
	callers := []struct {
		name string
		ctx  context.Context
	}{
		{"all", ext.WithAccess(context.Background(), ext.Access{All: true})},
		{"quarter", ext.WithAccess(context.Background(), ext.Access{Groups: []string{"team0"}})},
	}
	for _, c := range callers {
		b.Run("search/"+c.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				q := ext.Query{Kind: ext.KindTool, Text: benchQueries[i%len(benchQueries)], Limit: 10}
				if _, err := x.Search(c.ctx, q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("list-last-page/"+c.name, func(b *testing.B) {
			offset := visibleCount(b, x, callers[1].ctx) - 100 // the last full page a quarter sees
			for b.Loop() {
				if _, err := x.List(c.ctx, ext.KindTool, offset, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// visibleCount is the number of tools the caller in ctx sees.
func visibleCount(tb testing.TB, x *Index, ctx context.Context) int {
	page, err := x.List(ctx, ext.KindTool, 0, x.manifest.Counts[ext.KindTool])
	if err != nil {
		tb.Fatal(err)
	}
	return len(page.Items)
}

// writeRestrictedCatalog writes a copy of the catalog at dir into out,
// giving server file i the visibility {"groups": ["team<i mod groups>"]}.
func writeRestrictedCatalog(dir, out string, groups int) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("catalog %s: no server files (%v)", dir, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for i, f := range files {
		var m map[string]json.RawMessage
		data, err := os.ReadFile(f)
		if err == nil {
			err = json.Unmarshal(data, &m)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		m["visibility"] = json.RawMessage(fmt.Sprintf(`{"groups":["team%d"]}`, i%groups))
		data, _ = json.Marshal(m)
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkSearchExplain is BenchmarkSearch with the explain option: the
// extra cost of explaining a page of ten.
func BenchmarkSearchExplain(b *testing.B) {
	x := defaultIndex(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := ext.Query{Kind: ext.KindTool, Text: benchQueries[i%len(benchQueries)], Limit: 10, Explain: true}
		if _, err := x.Search(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// nothingFitsQueries are BenchmarkNothingFits' requests: errands no tool
// of the default catalog answers ("order a pizza" was one until a local
// business search began to take it).
var nothingFitsQueries = []string{"iron my shirts", "knit a wool scarf", "soothe a sunburn", "water the plants"}

// TestNothingFitsQueriesGetNothing keeps BenchmarkNothingFits measuring
// what it says, which benchmarks are not run to see: each of its requests
// gets no items.
func TestNothingFitsQueriesGetNothing(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, q := range nothingFitsQueries {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 10})
		if err != nil || len(page.Items) > 0 {
			t.Errorf("%q: %d items, %v; BenchmarkNothingFits wants none", q, len(page.Items), err)
		}
	}
}

// BenchmarkNothingFits measures short requests no tool answers: the
// no-match test reads which of the query's words each of the first
// nomatch.FitWindow items holds before it empties the page.
func BenchmarkNothingFits(b *testing.B) {
	x := defaultIndex(b)
	ctx := context.Background()
	queries := nothingFitsQueries
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		page, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: queries[i%len(queries)], Limit: 10})
		if err != nil || len(page.Items) > 0 {
			b.Fatalf("%q: %d items, %v", queries[i%len(queries)], len(page.Items), err)
		}
	}
}
