package retrievaltest

import (
	"context"
	"slices"
	"testing"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/typotest"
)

// Words of a bundle that tests make queries of.

// Vocabulary returns the terms of a field of kind, with their counts.
func Vocabulary(tb testing.TB, src retrieval.Source, kind ext.Kind, field string) map[string]int {
	tb.Helper()
	r := src.Reader()
	defer r.Close()
	return typotest.Vocabulary(tb, r, schema.KindField(kind, field))
}

// DocFreq is the largest number of documents of kind holding term in one
// text field, as bleve's term readers count them.
func DocFreq(tb testing.TB, src retrieval.Source, kind ext.Kind, term string) int {
	tb.Helper()
	r := src.Reader()
	defer r.Close()
	most := 0
	for _, f := range schema.TextFields {
		tfr, err := r.TermFieldReader(context.Background(), []byte(term), schema.KindField(kind, f), false, false, false)
		if err != nil {
			tb.Fatal(err)
		}
		most = max(most, int(tfr.Count()))
		tfr.Close()
	}
	return most
}

// CommonWords returns the n terms of vocab, of at least minRunes
// characters, held by the most tools of src.
func CommonWords(tb testing.TB, src retrieval.Source, vocab map[string]int, n, minRunes int) []string {
	tb.Helper()
	df := map[string]int{}
	for w := range vocab {
		if IsWordOfLetters(w, 3, false) && len(w) >= minRunes && !text.IsStopWord(w) && slices.Equal(text.Analyze(w), []string{w}) {
			df[w] = DocFreq(tb, src, ext.KindTool, w)
		}
	}
	words := make([]string, 0, len(df))
	for w := range df {
		words = append(words, w)
	}
	slices.Sort(words)
	slices.SortStableFunc(words, func(a, b string) int { return df[b] - df[a] })
	return words[:min(n, len(words))]
}

// RunTogetherWords returns up to n words of two common words of src's
// tool descriptions typed without their space (namepath), each of which
// correction reads as its two halves.
func RunTogetherWords(tb testing.TB, src retrieval.Source, n int) []string {
	tb.Helper()
	wt, err := text.WordTable()
	if err != nil {
		tb.Fatal(err)
	}
	common := CommonWords(tb, src, Vocabulary(tb, src, ext.KindTool, schema.Description), 4*n, retrieval.MinSplitRunes+1)
	var out []string
	for i := 0; len(out) < n && i+1 < len(common); i += 2 {
		a, b := common[i], common[i+1]
		if wt.Find(a) >= 0 && wt.Find(b) >= 0 && wt.Find(a+b) < 0 && IsWordOfLetters(a+b, 1, true) && len(a+b) <= retrieval.MaxTypoRunes {
			out = append(out, a+b)
		}
	}
	return out
}

// IsWordOfLetters reports whether w is made of letters, ASCII ones when
// ascii is set, at least minRunes of them.
func IsWordOfLetters(w string, minRunes int, ascii bool) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) || ascii && r > unicode.MaxASCII {
			return false
		}
		n++
	}
	return n >= minRunes
}
