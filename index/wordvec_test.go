package index

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestDensePagesAgree: items that join the window by their cosine rank the
// same on every page, however many BM25 candidates the page asked for.
func TestDensePagesAgree(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	ctx := context.Background()
	for _, q := range []string{"take a screenshot of the page", "create a calendar event", "write notes about the meeting"} {
		whole, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: q, Limit: 40})
		if err != nil {
			t.Fatal(err)
		}
		var paged [][]byte
		for off := 0; off < 40; off += 4 {
			page, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: q, Offset: off, Limit: 4})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range page.Items {
				paged = append(paged, h.Object)
			}
		}
		if len(paged) != len(whole.Items) {
			t.Fatalf("%q: %d items in pages of 4, %d in one page", q, len(paged), len(whole.Items))
		}
		for i := range paged {
			if string(paged[i]) != string(whole.Items[i].Object) {
				t.Errorf("%q: item %d differs between pages of 4 and one page of 40", q, i)
				break
			}
		}
	}
}
