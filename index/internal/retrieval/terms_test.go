package retrieval_test

import (
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// TestSearchTermsBounded: whatever correction makes of a query's words (a
// word run together read as two, the everyday words of a corrected word
// added), a search reads at most retrieval.MaxSearchTerms terms (index/doc.go:
// the bound on a query's size).
func TestSearchTermsBounded(t *testing.T) {
	t.Parallel()
	src := defaultSource(t)
	for _, q := range []struct{ name, text string }{
		{"128 words run together", strings.Join(retrievaltest.RunTogetherWords(t, src, ext.MaxQueryTerms), " ")},
	} {
		terms := retrievaltest.Request(t, src, ext.Query{Kind: ext.KindTool, Text: q.text}, 0).Terms
		if len(terms) > retrieval.MaxSearchTerms {
			t.Errorf("%s: %d terms searched, want at most %d", q.name, len(terms), retrieval.MaxSearchTerms)
		}
	}
}
