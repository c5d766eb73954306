package index

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/errand"
	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

// TestErrandsGetNoItems: on the default catalog, whose items carry written
// requests, everyday errands get no items and the errand hint, requests
// for its tools keep theirs; with errand-model off the errands get items
// again; on a catalog without requests the model is not asked.
func TestErrandsGetNoItems(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	search := func(q string) *ext.Page {
		t.Helper()
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		return page
	}
	// written here, in no training or evaluation set
	errands := []string{"how long should I boil an egg for a soft yolk", "my knee hurts after running, should I ice it", "where can I get my bike tyre fixed"}
	for _, q := range errands {
		if page := search(q); len(page.Items) != 0 || !strings.HasPrefix(page.Hint, retrieval.ErrandHint) {
			t.Errorf("%q: %d items, hint %q, want none and the errand hint", q, len(page.Items), page.Hint)
		}
	}
	for _, q := range []string{"post the release notes in the team channel", "how many rows are in the customers table", "restart my Heroku app"} {
		if page := search(q); len(page.Items) == 0 {
			t.Errorf("%q: no items (hint %q)", q, page.Hint)
		}
	}
	if err := x.SetRulesOff("errand-model"); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, q := range errands {
		if len(search(q).Items) > 0 {
			kept++
		}
	}
	if kept == 0 {
		t.Error("with errand-model off every errand still gets no items: the test shows nothing of the model")
	}
	// a request the model reads as an errand, of words a tool of the test
	// catalog (notes, weather; no written requests) holds
	const errandOfNotes = "what is the weather like for a picnic with the kids, should I pack sunscreen"
	m, err := errand.Default()
	if err != nil {
		t.Fatal(err)
	}
	if m.Score(errandOfNotes) >= nomatch.ErrandThreshold {
		t.Fatalf("%q is no errand to the model (%.2f): choose another", errandOfNotes, m.Score(errandOfNotes))
	}
	plain := mustBuild(t, "testdata/catalog")
	page, err := plain.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: errandOfNotes, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 || strings.HasPrefix(page.Hint, retrieval.ErrandHint) {
		t.Errorf("a catalog without written requests: %d items, hint %q; the errand model was asked", len(page.Items), page.Hint)
	}
}

// TestUnknownWordIsNamed: a near miss — the right action on a product the
// catalog does not hold — keeps its items and its hint names the product,
// a word no item holds; with unknown-words-hint off the hint does not (and
// fit-model off: the fit model keeps the query's items and, its best item
// holding little of the query, names what that item lacks, Zorblax too).
func TestUnknownWordIsNamed(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	const q = "list the open issues of the payments repo on Zorblax"
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 || !strings.Contains(page.Hint, "Zorblax") {
		t.Errorf("%q: %d items, hint %q, want items kept and Zorblax named", q, len(page.Items), page.Hint)
	}
	if err := x.SetRulesOff("unknown-words-hint", "fit-model"); err != nil {
		t.Fatal(err)
	}
	page, err = x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 || strings.Contains(page.Hint, "Zorblax") {
		t.Errorf("with the rule off: %d items, hint %q; want the items and no Zorblax", len(page.Items), page.Hint)
	}
}

// TestNamedServerKeepsItems: a short request that names a server of the
// catalog keeps its items though the fit model alone would empty it
// (named-server-fits); an everyday request that uses a server's word in
// passing — a day that names one (monday), an errand the errand model
// reads as one (linear algebra) — gets none. The requests are written
// here, in no training or evaluation set.
func TestNamedServerKeepsItems(t *testing.T) {
	t.Parallel()
	named := []string{"wie viel Geld liegt gerade auf Stripe", "tell datadog to shut up about db-02 tonight", "qué hay en mi bandeja de gmail del banco"}
	passing := []string{"bake a cake for monday", "walk the dog on monday morning", "help with my linear algebra homework", "pick up a gift for Dana on monday"}
	items := func(x *Index, q string) int {
		t.Helper()
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		return len(page.Items)
	}
	x := defaultIndex(t)
	for _, q := range named {
		if items(x, q) == 0 {
			t.Errorf("%q names a server of the catalog: no items", q)
		}
	}
	for _, q := range passing {
		if n := items(x, q); n != 0 {
			t.Errorf("%q uses a server's word in passing: %d items, want none", q, n)
		}
	}
	off := defaultIndexWithout(t, "named-server-fits")
	emptied := 0
	for _, q := range named {
		if items(off, q) == 0 {
			emptied++
		}
	}
	if emptied == 0 {
		t.Error("with named-server-fits off every named request keeps its items: the test shows nothing of the rule")
	}
}
