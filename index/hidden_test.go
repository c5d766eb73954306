package index

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestHiddenWordCostsWhatAnUnknownWordCosts: a word held only by items a
// caller may not see takes the path of a word held by none — the same
// dictionary walks and document-frequency lookups — so the time of an
// answer does not tell a caller which words hidden items hold.
func TestHiddenWordCostsWhatAnUnknownWordCosts(t *testing.T) {
	t.Parallel()
	dir := writeCatalog(t, map[string]string{
		"secret.json": `{"server":"secret","visibility":{"groups":["ops"]},"tools":[{"name":"launch","description":"Launch the zanzibarite reactor","inputSchema":{"type":"object"}}]}`,
		"open.json":   `{"server":"open","tools":[{"name":"weather","description":"Show the weather forecast for a city","inputSchema":{"type":"object"}}]}`,
	})
	x := mustBuild(t, dir)
	cost := func(word string) retrieval.TypoCost {
		t.Helper()
		r := request(t, x, ext.Query{Kind: ext.KindTool, Text: word}, ext.Access{})
		if len(r.Terms) == 0 || len(r.Terms) > 2 {
			t.Fatalf("%q: got %v; want one term, or the two of two words run together", word, r.Terms)
		}
		return r.Cost
	}
	// a word, and two words typed without their space, one of them hidden
	for _, words := range [][3]string{{"zanzibarite", "quixotrelix", "forecast"}, {"reactorweather", "factorweather", "forecastweather"}} {
		hidden, nowhere, visible := cost(words[0]), cost(words[1]), cost(words[2])
		if hidden.Walks == 0 || hidden.Lookups == 0 {
			t.Fatalf("%s cost %+v; want dictionary walks and lookups", words[0], hidden)
		}
		for name, c := range map[string]retrieval.TypoCost{"a word of no item": nowhere, "a visible word": visible} {
			if c.Walks != hidden.Walks || c.Lookups != hidden.Lookups {
				t.Errorf("%s (%v) took %d walks and %d lookups, a word of hidden items %d and %d; want the same",
					name, words, c.Walks, c.Lookups, hidden.Walks, hidden.Lookups)
			}
		}
	}
}

// BenchmarkHiddenWord times a search for one word by a caller who sees a
// quarter of the default catalog (writeRestrictedCatalog): a word only the
// other three quarters hold, a word held by no item (of the same length
// and first letter), a typo of the hidden word (corrected to it), and a
// word the caller sees. Each round searches the four in turn, so that the
// load of a shared machine weighs on each alike; it reports the median
// time of each, in microseconds.
//
//	go test ./index -run - -bench HiddenWord -benchtime 5000x -cpu 1
func BenchmarkHiddenWord(b *testing.B) {
	x := restrictedDefaultIndex(b)
	quarter := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"team0"}})
	hidden, visible := hiddenAndVisibleWords(b, x, quarter)
	words := []struct{ name, word string }{
		{"hidden", hidden},
		{"nowhere", nowhereWord(b, x, hidden)},
		{"typo-of-hidden", hidden[:len(hidden)-2] + "qq"},
		{"visible", visible},
	}
	runtime.GC() // what building left is not collected while timing
	times := make([][]time.Duration, len(words))
	for b.Loop() {
		for i, w := range words {
			start := time.Now()
			if _, err := x.Search(quarter, ext.Query{Kind: ext.KindTool, Text: w.word, Limit: 10}); err != nil {
				b.Fatal(err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	for i, w := range words {
		slices.Sort(times[i])
		b.ReportMetric(float64(times[i][len(times[i])/2].Nanoseconds())/1e3, w.name+"-µs")
	}
}

// hiddenAndVisibleWords returns a word of eight to twelve letters that
// only items the caller in ctx may not see hold, and one of that length it
// sees.
func hiddenAndVisibleWords(tb testing.TB, x *Index, ctx context.Context) (hidden, visible string) {
	tb.Helper()
	all := ext.WithAccess(context.Background(), ext.Access{All: true})
	terms := sortedKeys(vocabulary(tb, x, ext.KindTool, schema.Description))
	for _, term := range terms {
		if len(term) < 8 || len(term) > 12 || !isWordOfLetters(term, 3, false) || !slices.Equal(text.Analyze(term), []string{term}) {
			continue
		}
		seen, everyone := searchCount(tb, x, ctx, term), searchCount(tb, x, all, term)
		switch {
		case hidden == "" && seen == 0 && everyone > 0:
			hidden = term
		case visible == "" && seen > 0:
			visible = term
		}
		if hidden != "" && visible != "" {
			return hidden, visible
		}
	}
	tb.Fatal("no hidden and visible words")
	return "", ""
}

func searchCount(tb testing.TB, x *Index, ctx context.Context, text string) int {
	page, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: text, Limit: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return len(page.Items)
}

// nowhereWord returns a word of like's length and first letter that no
// item holds, nor a word near it.
func nowhereWord(tb testing.TB, x *Index, like string) string {
	tb.Helper()
	all := ext.WithAccess(context.Background(), ext.Access{All: true})
	r := rand.New(rand.NewPCG(7, 7))
	for range 100 {
		w := like[:1] + randomWord(r, len(like)-1)
		if searchCount(tb, x, all, w) == 0 && strings.Count(w, w[:1]) < len(w) {
			return w
		}
	}
	tb.Fatal("no word that no item holds")
	return ""
}
