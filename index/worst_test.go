package index

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/typotest"
)

// worstQuery is a query the limits allow (ext.MaxQueryBytes,
// ext.MaxQueryTerms) built to cost as much as it can in one way.
type worstQuery struct {
	name    string
	text    string
	explain bool
}

// worstQueries returns the hostile queries of the default catalog x: each
// at most 4,096 bytes and 128 words. They are made once per test binary
// run (every caller passes the default catalog's index).
func worstQueries(tb testing.TB, x *Index) []worstQuery {
	tb.Helper()
	madeWorst.Do(func() { madeWorst.qs = makeWorstQueries(tb, x) })
	if madeWorst.qs == nil {
		tb.Fatal("the worst queries could not be made")
	}
	return madeWorst.qs
}

var madeWorst struct {
	sync.Once
	qs []worstQuery
}

// makeWorstQueries makes the queries worstQueries returns.
func makeWorstQueries(tb testing.TB, x *Index) []worstQuery {
	tb.Helper()
	vocab := vocabulary(tb, x, ext.KindTool, schema.Description)
	common := commonWords(tb, x, vocab, 128, 1)
	typos := costliestTypos(tb, x, 128)
	most := mostPostedWords(tb, x, 128)
	qs := []worstQuery{
		{name: "one-4096-char-word", text: randomWord(rand.New(rand.NewPCG(1, 1)), 4096)},
		{name: "128-rare-31-char-words", text: randomWords(128, 31)},
		{name: "128-rare-24-char-words", text: randomWords(128, retrieval.MaxTypoRunes)},
		{name: "128-typos-walking-most", text: strings.Join(typos, " ")},
		{name: "128-typos-walking-most-explained", text: strings.Join(typos, " "), explain: true},
		{name: "128-common-words", text: strings.Join(common, " ")},
		{name: "128-common-words-explained", text: strings.Join(common, " "), explain: true},
		{name: "128-common-words-of-5-letters", text: strings.Join(commonWords(tb, x, vocab, 128, retrieval.MinTypoRunes), " ")},
		// the words of the most postings over every field, explained: at
		// limit 50 each explained page advanced every term's postings to
		// each item, reopening them when they had passed it (9.98 MiB in
		// the review of issue 33, against the 8 MiB bound); in full-width
		// letters (one word each, folded by NFKC), and as one camelCase
		// identifier
		{name: "128-most-posted-words-explained", text: strings.Join(most, " "), explain: true},
		{name: "128-most-posted-words-full-width-explained", text: upTo(ext.MaxQueryBytes, " ", fullWidth, most), explain: true},
		{name: "camelCase-identifier-of-most-posted-words-explained", text: upTo(ext.MaxQueryBytes, "", capitalised, most), explain: true},
		{name: "identifier-of-682-rare-parts", text: identifier(rand.New(rand.NewPCG(2, 2)), 4096)},
		{name: "camelCase-identifier-of-typos", text: camelIdentifier(shortTypos(tb, x, vocab), 4096)},
		{name: "camelCase-identifier-of-typos-explained", text: camelIdentifier(shortTypos(tb, x, vocab), 4096), explain: true},
		{name: "1365-chinese-characters", text: chineseText(4096)},
		{name: "1365-japanese-characters", text: japaneseText(4096)},
		{name: "128-words-of-phrases", text: phraseWords(128)},
		{name: "128-words-run-together", text: strings.Join(runTogetherWords(tb, x, 128), " ")},
		// U+FDFA is one word of 3 bytes that normalises (text.Normalize) to
		// four Arabic words of 33 bytes: 120 of them, to the byte bound
		{name: "120-words-normalised-to-480", text: strings.Repeat("\uFDFA ", 120)},
	}
	for _, q := range qs {
		if n, w := len(q.text), len(strings.Fields(q.text)); n > ext.MaxQueryBytes || w > ext.MaxQueryTerms {
			tb.Fatalf("%s: %d bytes, %d words: over the limits", q.name, n, w)
		}
	}
	return qs
}

// mostPostedWords returns the n terms of the tools' text fields, words of
// letters, with the most postings over all of them.
func mostPostedWords(tb testing.TB, x *Index, n int) []string {
	tb.Helper()
	postings := map[string]int{}
	for _, field := range schema.TextFields {
		for term, docs := range vocabulary(tb, x, ext.KindTool, field) {
			if isWordOfLetters(term, 2, false) {
				postings[term] += docs
			}
		}
	}
	words := sortedKeys(postings)
	slices.SortStableFunc(words, func(a, b string) int { return postings[b] - postings[a] })
	return words[:min(n, len(words))]
}

// upTo joins the words, each turned by f, with sep, as many as fit in
// size bytes.
func upTo(size int, sep string, f func(string) string, words []string) string {
	var b strings.Builder
	for _, w := range words {
		w = f(w)
		if b.Len() > 0 && b.Len()+len(sep)+len(w) > size || b.Len()+len(w) > size {
			break
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(w)
	}
	return b.String()
}

// fullWidth writes the ASCII letters and signs of s in their full-width
// forms (U+FF01–U+FF5E), three bytes each, which NFKC folds back.
func fullWidth(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '!' && r <= '~' {
			r += 0xFF01 - '!'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// capitalised is w with its first letter upper-cased.
func capitalised(w string) string {
	r := []rune(w)
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}

// costliestTypos returns the n words, of two edits of a term of the name
// or description dictionaries, that take their walks the most steps.
func costliestTypos(tb testing.TB, x *Index, n int) []string {
	tb.Helper()
	rnd := rand.New(rand.NewPCG(4, 4))
	steps := map[string]int{}
	for _, field := range []string{schema.Name, schema.Description} {
		for _, term := range sortedKeys(vocabulary(tb, x, ext.KindTool, field)) {
			typo := typotest.Mutate(rnd, []rune(term), 2)
			if terms := text.Analyze(typo); len(terms) != 1 || terms[0] != typo || len(typo) > 31 {
				continue // the query would search other words
			}
			steps[typo] = request(tb, x, ext.Query{Kind: ext.KindTool, Text: typo}, ext.Access{All: true}).Cost.Steps
		}
	}
	words := sortedKeys(steps)
	slices.SortStableFunc(words, func(a, b string) int { return steps[b] - steps[a] })
	return words[:min(n, len(words))]
}

// vocabulary returns the terms of a field of kind, with their counts.
func vocabulary(tb testing.TB, x *Index, kind ext.Kind, field string) map[string]int {
	tb.Helper()
	return retrievaltest.Vocabulary(tb, x.RetrievalSource(ext.Access{All: true}), kind, field)
}

// commonWords returns the n terms of vocab, of at least minRunes
// characters, held by the most documents (retrievaltest.CommonWords).
func commonWords(tb testing.TB, x *Index, vocab map[string]int, n, minRunes int) []string {
	tb.Helper()
	return retrievaltest.CommonWords(tb, x.RetrievalSource(ext.Access{All: true}), vocab, n, minRunes)
}

func randomWord(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}

// randomWords is n distinct random words of length runes, joined by spaces.
func randomWords(n, length int) string {
	r := rand.New(rand.NewPCG(3, 3))
	words := make([]string, n)
	for i := range words {
		words[i] = randomWord(r, length)
	}
	return strings.Join(words, " ")
}

// identifier is one snake_case word of random five-letter parts, size bytes
// long: every part is a word of the query, and so is the whole.
func identifier(r *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len()+6 <= size {
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(randomWord(r, 5))
	}
	return b.String()
}

// shortTypos returns typos, one edit each, of the commonest words of vocab
// of retrieval.MinTypoRunes to 7 letters: words the word vectors' table lacks,
// each walked, as written and as stemmed.
func shortTypos(tb testing.TB, x *Index, vocab map[string]int) []string {
	tb.Helper()
	wt, err := text.WordTable()
	if err != nil {
		tb.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(9, 9))
	var out []string
	for _, w := range commonWords(tb, x, vocab, 2000, retrieval.MinTypoRunes) {
		if typo := typotest.Mutate(rnd, []rune(w), 1); len(w) <= 7 && isWordOfLetters(w, 1, true) && wt.Find(typo) < 0 {
			out = append(out, typo)
		}
	}
	return out
}

// camelIdentifier is one camelCase word of parts, each capitalised,
// repeated in turn to at most size bytes: every part is a word of the
// query, and so is the whole.
func camelIdentifier(parts []string, size int) string {
	var b strings.Builder
	for i := 0; ; i++ {
		p := []rune(parts[i%len(parts)])
		part := strings.ToUpper(string(p[:1])) + string(p[1:])
		if b.Len()+len(part) > size {
			return b.String()
		}
		b.WriteString(part)
	}
}

// japaneseText returns size bytes of Japanese: kanji and kana that start
// headwords of the foreign table (each looked up at every length), and
// particles that start none.
func japaneseText(size int) string {
	const chars = "作成会議予定割り当てをしてスクリーンショット"
	rs := []rune(chars)
	out := make([]rune, size/3)
	for i := range out {
		out[i] = rs[(i*7)%len(rs)]
	}
	return string(out)
}

// chineseText is Han characters, each a headword of the gloss table, of
// at most size bytes.
func chineseText(size int) string {
	table, err := os.ReadFile("internal/text/zhgloss.txt")
	if err != nil {
		panic(err)
	}
	var heads []rune
	for _, line := range strings.Split(string(table), "\n") { // the comment lines have no single-character head
		head, _, _ := strings.Cut(line, "\t")
		if rs := []rune(head); len(rs) == 1 && len(head) == 3 {
			heads = append(heads, rs[0])
		}
	}
	out := make([]rune, size/3)
	for i := range out {
		out[i] = heads[(i*7919)%len(heads)]
	}
	return string(out)
}

// maxQueryAlloc bounds what one search of the default catalog allocates,
// whatever its words (functions/search/README.md, Limits).
const maxQueryAlloc = 8 << 20

// TestWorstQueryMemory: no query the limits allow makes a search of the
// default catalog allocate more than maxQueryAlloc, explained or not, under
// the race detector too (make test-race: 5.97 MB at most, the explained
// camelCase identifier of the most posted words).
func TestWorstQueryMemory(t *testing.T) {
	x := defaultIndex(t)
	ctx := context.Background()
	for _, wq := range worstQueries(t, x) {
		q := ext.Query{Kind: ext.KindTool, Text: wq.text, Limit: ext.MaxLimit, Explain: wq.explain}
		if _, err := x.Search(ctx, q); err != nil { // warm up: pools, lazily read tables
			t.Fatal(err)
		}
		const runs = 3
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			if _, err := x.Search(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		got := (after.TotalAlloc - before.TotalAlloc) / runs
		t.Logf("%s: %.2f MB a search", wq.name, float64(got)/(1<<20))
		if got > maxQueryAlloc {
			t.Errorf("%s: a search allocated %.1f MB, want at most %.1f MB", wq.name, float64(got)/(1<<20), float64(maxQueryAlloc)/(1<<20))
		}
	}
}

// phraseWords is n words that start and continue phrases of the phrase
// table (text.WithPhraseExpansions) at every position: each word is tried
// as the start of every phrase, with its gaps.
func phraseWords(n int) string {
	cycle := strings.Fields("take the my down spin up set it up kick off roll back open a new ticket send a message")
	words := make([]string, n)
	for i := range words {
		words[i] = cycle[i%len(cycle)]
	}
	return strings.Join(words, " ")
}
