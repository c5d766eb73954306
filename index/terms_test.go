package index

import (
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestSearchTermsBounded: whatever correction makes of a query's words (a
// word run together read as two, the everyday words of a corrected word
// added), a search reads at most rank.MaxSearchTerms terms (doc.go: the
// bound on a query's size).
func TestSearchTermsBounded(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, q := range []struct{ name, text string }{
		{"128 words run together", strings.Join(runTogetherWords(t, x, ext.MaxQueryTerms), " ")},
	} {
		terms := request(t, x, ext.Query{Kind: ext.KindTool, Text: q.text}, ext.Access{All: true}).Terms
		if len(terms) > rank.MaxSearchTerms {
			t.Errorf("%s: %d terms searched, want at most %d", q.name, len(terms), rank.MaxSearchTerms)
		}
	}
}

// runTogetherWords returns up to n words of two common words of the
// default catalog's descriptions typed without their space (namepath),
// each of which correction reads as its two halves.
func runTogetherWords(tb testing.TB, x *Index, n int) []string {
	tb.Helper()
	wt, err := text.WordTable()
	if err != nil {
		tb.Fatal(err)
	}
	common := commonWords(tb, x, vocabulary(tb, x, ext.KindTool, schema.Description), 4*n, rank.MinSplitRunes+1)
	var out []string
	for i := 0; len(out) < n && i+1 < len(common); i += 2 {
		a, b := common[i], common[i+1]
		if wt.Find(a) >= 0 && wt.Find(b) >= 0 && wt.Find(a+b) < 0 && isWordOfLetters(a+b, 1, true) && len(a+b) <= rank.MaxTypoRunes {
			out = append(out, a+b)
		}
	}
	return out
}
