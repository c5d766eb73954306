package requests

import (
	"fmt"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// defaultCatalog is the bundled catalog, whose items carry written requests.
const defaultCatalog = "../../../functions/search/catalog"

// BenchmarkOpen measures Open of the requests file of the default catalog
// scaled to 10,000 and 100,000 tools (its items copied under new server
// names, as infra/lab/bench scales it), at the catalog's own density of
// requests: what opening a bundle pays for the file.
func BenchmarkOpen(b *testing.B) {
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, tools := range []int{10_000, 100_000} {
		its := scaledItems(cat.Items, tools)
		dir := writeFile(b, its)
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			for b.Loop() {
				x, err := Open(dir, len(its))
				if err != nil {
					b.Fatal(err)
				}
				x.Close()
			}
			b.ReportMetric(float64(x0Requests(b, dir, len(its))), "requests")
		})
	}
}

// scaledItems copies the items of each kind, in catalog order, under new
// server names until there are tools tools; the other kinds are copied as
// often as the tools are.
func scaledItems(items []catalog.Item, tools int) []catalog.Item {
	byKind := map[ext.Kind][]catalog.Item{}
	for _, it := range items {
		byKind[it.Kind] = append(byKind[it.Kind], it)
	}
	copies := (tools + len(byKind[ext.KindTool]) - 1) / len(byKind[ext.KindTool])
	var out []catalog.Item
	for _, k := range ext.Kinds {
		n := 0
		for c := range copies {
			for _, it := range byKind[k] {
				if k == ext.KindTool && n == tools {
					break
				}
				it.Server = fmt.Sprintf("%s-%d", it.Server, c+1)
				out = append(out, it)
				n++
			}
		}
	}
	return out
}

// x0Requests is the number of requests in the file at dir.
func x0Requests(b *testing.B, dir string, items int) int {
	x, err := Open(dir, items)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	return len(x.reqLen) / 2
}
