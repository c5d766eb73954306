package index

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// The no-match cut-off: a short query (at most rank.ShortQueryTerms words)
// states its subject in few words, and is answered with no items when the
// best item holds less than rank.MinCoverage of its weight (inverse
// document frequency of its content words, see coverage). Long queries
// describe a task and carry many words no tool description holds; any bar
// on them cost recall (see the technique log), so they are not cut.

// noWordMatches is the hint of a query none of whose words an item holds.
const noWordMatches = "no item matches any word of the query"

// noMatchHint says why no item fits the query, or returns "" when the best
// candidate fits well enough. terms are those of the searched text, own
// the caller's (see queryConcepts).
func (x *Index) noMatchHint(kind ext.Kind, terms []queryTerm, own, searched string, cands []rank.Candidate) (string, error) {
	if len(cands) == 0 {
		return noWordMatches, nil
	}
	concepts := queryConcepts(terms, own, searched, rank.ShortQueryTerms)
	if len(concepts) > rank.ShortQueryTerms {
		return "", nil
	}
	var alternatives []queryTerm
	for _, c := range concepts {
		alternatives = append(alternatives, c.alternatives...)
	}
	held, err := x.heldTerms(kind, cands[0].ID, alternatives)
	if err != nil {
		return "", err
	}
	cov, missing := coverage(concepts, held, x.manifest.Counts[kind])
	if cov >= rank.MinCoverage {
		return "", nil
	}
	return fmt.Sprintf("no item fits this query well: the best match lacks %s", strings.Join(missing, ", ")), nil
}

// concept is one thing the query asks for, as the no-match test weighs it:
// an analysed word of the query, or a Chinese word of it, held by an item
// that holds any of the words of its English gloss.
type concept struct {
	label        string // what the hint calls it: the caller's own word
	alternatives []queryTerm
}

// queryConcepts returns the concepts of own, the caller's text, among the
// resolved terms of the searched text (own with its file paths' names and
// its glosses): each word of own is one, and each Chinese word of own with
// a gloss is one whose alternatives are the gloss's words. When own is the
// searched text, every term is a concept of its own. File names are
// none (see filesAsWord); CJK bigrams, never content words, and single
// Chinese characters, whose glosses are one sense of many, count for
// nothing. It stops at the first concept past the most that are weighed.
func queryConcepts(terms []queryTerm, own, searched string, most int) []concept {
	written := text.WordsAsWritten(own)
	if own == searched {
		out := make([]concept, min(len(terms), most+1))
		for i := range out {
			out[i] = concept{label: asWritten(written, terms[i]), alternatives: []queryTerm{terms[i]}}
		}
		return out
	}
	byTerm := map[string]queryTerm{}
	for _, t := range terms {
		byTerm[t.term] = t
		if t.corrected != "" {
			byTerm[t.corrected] = t
		}
	}
	var out []concept
	for _, w := range text.Analyze(text.WithoutForeignWords(own)) {
		if text.HasHan(w) {
			continue // a bigram of Chinese text: its words are concepts below
		}
		for _, t := range terms {
			if t.term == w || t.corrected == w {
				out = append(out, concept{label: asWritten(written, t), alternatives: []queryTerm{t}})
				break
			}
		}
	}
	for _, g := range append(text.GlossWords(own), text.ForeignWords(own)...) {
		if len(out) > most {
			break
		}
		if utf8.RuneCountInString(g.Word) < 2 {
			continue // a single character has too many senses to weigh
		}
		c := concept{label: g.Word}
		for _, w := range text.Analyze(g.English) {
			if t, ok := byTerm[w]; ok {
				c.alternatives = append(c.alternatives, t)
			}
		}
		if len(c.alternatives) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// asWritten is the caller's own word of a term: the word of the query it
// was analysed from (text.WordsAsWritten), or the term.
func asWritten(written map[string]string, t queryTerm) string {
	w := cmp.Or(t.corrected, t.term)
	return cmp.Or(written[w], w)
}

// coverage is the share of the query's weight that an item holds (have):
// each concept weighs the largest inverse document frequency of its
// content-word alternatives (scaled down for generic words), and an item
// that holds some of them is credited with the weight of the heaviest it
// holds (a common sense of a Chinese word is weak evidence); identifiers,
// numbers and one- or two-letter words do not count. It also returns the
// labels of the weighty concepts the item lacks, heaviest first.
func coverage(concepts []concept, have map[string]bool, docs int) (float64, []string) {
	covered, all := 0.0, 0.0
	type miss struct {
		label string
		w     float64
	}
	var missing []miss
	for _, c := range concepts {
		w, held := 0.0, 0.0
		for _, t := range c.alternatives {
			if isContentWord(t.term) {
				tw := idf(t.docFreq, docs) * rank.TermWeight(t.term)
				w = max(w, tw)
				if have[t.term] {
					held = max(held, tw)
				}
			}
		}
		if w == 0 {
			continue
		}
		all += w
		covered += held
		if held == 0 {
			missing = append(missing, miss{c.label, w})
		}
	}
	if all == 0 {
		return 1, nil
	}
	slices.SortFunc(missing, func(a, b miss) int { return cmp.Compare(b.w, a.w) })
	labels := make([]string, len(missing))
	for i, m := range missing {
		labels[i] = m.label
	}
	return covered / all, labels
}

// isContentWord reports whether t is a word of three letters or more.
func isContentWord(t string) bool {
	n := 0
	for _, r := range t {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= 3
}

func idf(df, docs int) float64 {
	return math.Log(1 + (float64(docs)-float64(df)+0.5)/(float64(df)+0.5))
}
