package retrieval

import (
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Origin says where a word of a request comes from: the caller, or the
// pass that added it.
type Origin uint8

// The origins of words.
const (
	Typed      Origin = iota // written by the caller
	FileName                 // a file path's name, extension and "file" (file-words)
	Foreign                  // the English of a word of another language (foreign-glosses)
	Chinese                  // the English gloss of a Chinese word (chinese-glosses)
	Phrase                   // the words tools use for an everyday phrase (phrases)
	Expansion                // the words tools use for an everyday word (query-expansions)
	Correction               // a typo's correction (Term.Corrected)
)

var originNames = [...]string{"typed", "file name", "foreign", "chinese", "phrase", "expansion", "correction"}

func (o Origin) String() string { return originNames[o] }

// Word is one word of the searched text: its text, where it came from, and
// its position, the number of the caller's word it stands after (from 0;
// -1 before the first).
type Word struct {
	Text   string
	Origin Origin
	After  int
}

// queryPasses are the rewrites of the caller's text, in order: each adds
// words after the caller's (and after the words earlier passes added).
var queryPasses = []struct {
	rule   rules.Rule
	origin Origin
	pass   func(string) string
}{
	{rules.FileWords, FileName, text.WithFileWords},
	{rules.ForeignGlosses, Foreign, text.WithForeignGlosses},
	{rules.ChineseGlosses, Chinese, text.WithGlosses},
	{rules.Phrases, Phrase, text.WithPhraseExpansions},
	{rules.QueryExpansions, Expansion, text.WithQueryExpansions},
}

// readWords runs the query passes over own, the caller's text (each
// unless off switches it off), and returns the searched text and its
// words, each with its origin: a pass's output holds its input's words in
// order, and the others are the words it added.
func readWords(own string, off rules.Set) (string, []Word) {
	words := wordsOf(own)
	for i := range words {
		words[i].After = i
	}
	s := own
	for _, p := range queryPasses {
		if !off.On(p.rule) {
			continue
		}
		next := p.pass(s)
		if next != s {
			words = align(words, wordsOf(next), p.origin)
		}
		s = next
	}
	return s, words
}

// wordsOf splits s into words (runs of non-space), all typed.
func wordsOf(s string) []Word {
	fields := strings.FieldsFunc(s, unicode.IsSpace)
	out := make([]Word, len(fields))
	for i, f := range fields {
		out[i] = Word{Text: f, After: -1}
	}
	return out
}

// align returns next, the words of a pass's output, with the origin and
// position of the words of prev (its input) it kept, in order; the others
// the pass added (origin), placed after the last word kept before them,
// or at the word they replace: a word the pass rewrote (a file path
// becomes its name, a German verb its English) is no longer there, and
// what stands in its place takes its position.
func align(prev, next []Word, origin Origin) []Word {
	j, after := 0, -1
	for i := range next {
		if k := indexFrom(prev, j, next[i].Text); k >= 0 && (k == j || !appearsFrom(next, i+1, prev[j].Text)) {
			next[i] = prev[k]
			after, j = prev[k].After, k+1
			continue
		}
		if j < len(prev) && !appearsFrom(next, i, prev[j].Text) {
			after = prev[j].After // in the place of a word the pass rewrote
		}
		next[i].Origin, next[i].After = origin, after
	}
	return next
}

// indexFrom is the index of the first word of ws from i whose text is t,
// or -1.
func indexFrom(ws []Word, i int, t string) int {
	for ; i < len(ws); i++ {
		if ws[i].Text == t {
			return i
		}
	}
	return -1
}

// appearsFrom reports whether a word of ws from i has the text t.
func appearsFrom(ws []Word, i int, t string) bool { return indexFrom(ws, i, t) >= 0 }
