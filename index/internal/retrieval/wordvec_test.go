package retrieval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
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
	const catalogDir, query, want = "../../testdata/errands", "will it be sunny or stormy on Saturday when we visit", "errands__get_forecast"
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
	got := retrievaltest.New(t, cat).Names(t, ext.Query{Kind: ext.KindTool, Text: query, Limit: 5}, ext.Access{All: true}, 5)
	if strings.Join(got, " ") != "errands__book_hotel "+want {
		t.Errorf("%q: got %v, want errands__book_hotel (shares visit) and %s", query, got, want)
	}
}
