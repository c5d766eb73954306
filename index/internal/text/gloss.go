package text

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Chinese glosses. Tools of Chinese servers are often described in
// Chinese, and agents ask in English (and the other way round). The gloss
// table, distilled from CC-CEDICT by `mcpsearch cedict` (zhgloss.NOTICE),
// gives each simplified Chinese word of up to maxGlossChars characters a
// few English words. Chinese text is folded to simplified characters,
// split into dictionary words by forward maximum matching (unknown single
// characters are skipped), and each word glossed:
//
//   - an item's glosses are indexed in a field of their own (the index's
//     gloss field) and join its vector;
//   - a query's follow each run of Chinese in its text, so its words, its
//     vector and its clauses all see them, while its exact-name match and
//     its grammar (package rank) read the text as it was written; the
//     no-match test weighs each Chinese word of two characters or more as
//     one concept held by an item that holds any of its English words
//     (the index's queryConcepts).
//
// The table is searched where it is embedded, sorted by headword, by
// bisection over its lines: it costs nothing at start-up and no memory but
// the binary's own pages.
var (
	//go:embed zhgloss.txt
	glossData []byte
	//go:embed zhtrad.txt
	tradData string
)

// maxGlossChars is the longest headword of the table (cedict.MaxHeadword).
const maxGlossChars = 3

// glossLines is the table without its comment header, found on first use.
var glossLines = sync.OnceValue(func() []byte { return skipComments(glossData) })

// glossOf returns the English words of a simplified Chinese headword.
func glossOf(head string) (string, bool) {
	return lookupSorted(glossLines(), head)
}

// simplified maps traditional characters to simplified ones, decoded from
// zhtrad.txt (pairs of runes) the first time Chinese text is glossed.
var simplified = sync.OnceValue(func() map[rune]rune {
	rs := []rune(strings.TrimSpace(tradData))
	m := make(map[rune]rune, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		m[rs[i]] = rs[i+1]
	}
	return m
})

// GlossChinese returns the English glosses of the Chinese words of text,
// or "" when it holds none.
func GlossChinese(text string) string {
	if !HasHan(text) {
		return ""
	}
	var out []string
	forEachHanRun(text, func(run []rune) {
		out = append(out, glossRun(run)...)
	})
	return strings.Join(out, " ")
}

// GlossedWord is a word of a text as written (a Chinese or another
// language's word, or a phrase of the phrase table) and its English words.
type GlossedWord struct{ Word, English string }

// GlossWords returns the Chinese words of text that have a gloss, each
// with its gloss, in order.
func GlossWords(text string) []GlossedWord {
	if !HasHan(text) {
		return nil
	}
	var out []GlossedWord
	forEachHanRun(text, func(run []rune) {
		forEachGloss(run, func(word []rune, english string) {
			if english != "" {
				out = append(out, GlossedWord{string(word), english})
			}
		})
	})
	return out
}

// WithGlosses returns text with the English glosses of each run of Chinese
// after it, or text itself when it holds no Chinese.
func WithGlosses(text string) string {
	if !HasHan(text) {
		return text
	}
	var b strings.Builder
	last := 0
	forEachHanRunAt(text, func(run []rune, end int) {
		b.WriteString(text[last:end])
		last = end
		if g := glossRun(run); len(g) > 0 {
			b.WriteString(" (" + strings.Join(g, " ") + ")")
		}
	})
	b.WriteString(text[last:])
	return b.String()
}

// glossRun splits a run of Han characters into the longest headwords of
// the table, from the left, and returns their glosses.
func glossRun(run []rune) []string {
	var out []string
	forEachGloss(run, func(_ []rune, english string) {
		if english != "" { // a grammatical word
			out = append(out, english)
		}
	})
	return out
}

// forEachGloss splits a run of Han characters into the longest headwords
// of the table, from the left, after folding it to simplified characters,
// and calls f with each word (as written) and its English words; characters
// of no headword are skipped.
func forEachGloss(run []rune, f func(word []rune, english string)) {
	folded := make([]rune, len(run))
	simp := simplified()
	for i, r := range run {
		if s, ok := simp[r]; ok {
			r = s
		}
		folded[i] = r
	}
	for i := 0; i < len(folded); {
		n, words := longestGloss(folded[i:])
		if n == 0 {
			i++
			continue
		}
		f(run[i:i+n], words)
		i += n
	}
}

// longestGloss returns the length of the longest headword at the start of
// rs, and its words, or 0 when even its first character has none.
func longestGloss(rs []rune) (int, string) {
	for n := min(len(rs), maxGlossChars); n > 0; n-- {
		if words, ok := glossOf(string(rs[:n])); ok {
			return n, words
		}
	}
	return 0, ""
}

func forEachHanRun(text string, f func(run []rune)) {
	forEachHanRunAt(text, func(run []rune, _ int) { f(run) })
}

// forEachHanRunAt calls f with each maximal run of Han characters of text
// and the byte offset where it ends.
func forEachHanRunAt(text string, f func(run []rune, end int)) {
	var run []rune
	for i, r := range text {
		if isHan(r) {
			run = append(run, r)
			continue
		}
		if len(run) > 0 {
			f(run, i)
			run = run[:0]
		}
	}
	if len(run) > 0 {
		f(run, len(text))
	}
}

func isHan(r rune) bool { return r >= 0x2E80 && unicode.Is(unicode.Han, r) }

// HasChineseOrJapanese reports whether text holds a Han or kana
// character: text the analyser reads as pairs of characters, whose words
// only the gloss tables tell.
func HasChineseOrJapanese(text string) bool { return HasHan(text) || hasKana(text) }

// HasHan reports whether text holds a Han character.
func HasHan(text string) bool {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if isHan(r) {
			return true
		}
		i += size
	}
	return false
}
