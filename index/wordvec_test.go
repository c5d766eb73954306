package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestWordVectorsBridgeWords: a query that shares no indexed word with a
// tool — not in its name, description, parameters, server or WordNet
// synonyms, so BM25 cannot retrieve it — still finds it, through the cosine
// of the word-vector means: the forecast tool for a question about sun
// and storms. (BM25 alone returns book_hotel only, for "visit"; the tools
// that neither share a word nor mean anything like it stay out.)
func TestWordVectorsBridgeWords(t *testing.T) {
	t.Parallel()
	const catalogDir, query, want = "testdata/errands", "will it be sunny or stormy on Saturday when we visit", "errands__get_forecast"
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cat.Items, func(it catalog.Item) bool { return it.Name == want })
	if i < 0 {
		t.Fatalf("no %s in %s", want, catalogDir)
	}
	it := &cat.Items[i]
	indexed := map[string]bool{}
	texts := []string{it.Label, it.Title, it.Description, it.URI, it.MimeType, bundle.RelatedWords(it), it.Server, strings.Join(text.SplitName(it.Label), " ")}
	for _, p := range it.Params {
		texts = append(texts, p.Name, p.Description)
	}
	for _, s := range texts {
		for _, term := range text.Analyze(s) {
			indexed[term] = true
		}
	}
	for _, term := range text.Analyze(query) {
		if indexed[term] {
			t.Fatalf("%q shares %q with %s: not a test of bridging", query, term, want)
		}
	}
	got := names(searchHits(t, mustBuild(t, catalogDir), ext.KindTool, query, 5, ext.Filter{}))
	if strings.Join(got, " ") != "errands__book_hotel "+want {
		t.Errorf("%q: got %v, want errands__book_hotel (shares visit) and %s", query, got, want)
	}
}

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
