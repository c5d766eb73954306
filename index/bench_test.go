package index

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

var benchQueries = []string{
	"open a merge request", "take a screenshot of the page", "list kubernetes pods",
	"send a slack message to a channel", "create a calendar event", "query a database table",
	"refund a payment", "search the web for news", "deploy a site", "read a file",
}

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
