package requests

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// BenchmarkFirstBest measures what a cold start's first search pays for
// the requests: opening the file of the default catalog scaled to 100,000
// tools and matching the bench's cold-start query against every request,
// a fresh mapping each time (its pages are mapped in again, as in a new
// process).
func BenchmarkFirstBest(b *testing.B) {
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		b.Fatal(err)
	}
	var terms []Term
	for _, t := range text.Analyze(text.Normalize("take a screenshot of the page", 1<<10)) {
		terms = append(terms, Term{Text: t, Weight: 1})
	}
	for _, tools := range []int{10_000, 100_000} {
		its := scaledItems(cat.Items, tools)
		dir := writeFile(b, its)
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			matched := 0
			for b.Loop() {
				x, err := Open(dir, len(its))
				if err != nil {
					b.Fatal(err)
				}
				ms, err := x.Search(ext.KindTool, nil, 4*x.ItemCount(ext.KindTool)).Best(context.Background(), terms)
				if err != nil {
					b.Fatal(err)
				}
				matched = len(ms)
				x.Close()
			}
			b.ReportMetric(float64(matched), "matches")
		})
	}
}
