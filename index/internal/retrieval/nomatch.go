package retrieval

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// The no-match cut-off: a short query (at most nomatch.ShortQueryTerms words)
// states its subject in few words, and is answered with no items when the
// best item holds less than nomatch.MinCoverage of its weight (inverse
// document frequency of its content words, see coverage) and no item of
// the first nomatch.FitWindow holds nomatch.FitCoverage of it (the ranking may
// put first an item that holds the query's rarest word but not its
// subject: "stash my changes real quick"). A day or a time of day
// (text.IsTimeWord) counts toward a query's length but weighs nothing. Long queries describe a task and carry many words no tool
// description holds; any bar on them cost recall (see the technique log),
// so they are not cut. A Chinese or Japanese query none of whose words
// the gloss tables know, and that names no product code in Latin letters
// (S3, mp3), gets no items whatever its length: the analyser
// reads it as pairs of characters, and items holding such pairs tell
// nothing of what it asks.
//
// A query that keeps its items may still ask for something its best item
// does not do: "read a file from s3" finds the filesystem's read_file. When
// the best item lacks a word of the query that weighs at least
// rank.LackWeightRatio times the heaviest word it holds, the page keeps its
// items and its hint names that word ("the best match lacks s3"), so a
// caller or a model can tell a near miss from a fit.

// The hints of package nomatch, which decides when nothing fits.
const (
	NoWordMatches = nomatch.NoWordMatches
	ErrandHint    = nomatch.ErrandHint
	NoWordRead    = nomatch.NoWordRead
	NoFit         = nomatch.NoFit
)

// writtenOnly keeps the labels written as they are in the caller's text,
// or in it with its file paths read as "file" (text.FilesAsWord): a word
// read in compatibility form ("ˤAA" as "ʕAA") is not the caller's, and a
// hint names only the caller's words.
func writtenOnly(labels []string, written string) []string {
	var out []string
	files := text.FilesAsWord(written)
	for _, l := range labels {
		if strings.Contains(written, l) || strings.Contains(files, l) {
			out = append(out, l)
		}
	}
	return out
}

// weighsNothing reports whether no Concept weighs anything in the
// no-match test (see Concept.weigh), product codes aside: "S3について"
// asks for S3, not for pairs of its characters.
func weighsNothing(concepts []Concept, docs int) bool {
	for _, c := range concepts {
		if w, _ := c.weigh(nil, docs, true); w > 0 {
			return false
		}
	}
	return true
}

// lackedSubjects returns the labels of the concepts the best item lacks
// (have: the terms it holds) that weigh at least rank.LackWeightRatio
// times the heaviest Concept it holds, or that no item the caller sees
// holds at all, nor its requests, written as it is in the caller's text
// (written; unknown-words-hint: a product the catalog lacks, "a Trello
// card"), heaviest first, at most maxLackedInHint. Product codes of letters and digits (s3, ec2)
// count here, though the coverage leaves them out: they often name the
// very system asked for.
func lackedSubjects(concepts []Concept, have map[string]bool, docs int, written string) []string {
	var lacked []weighedLabel
	heaviestHeld := 0.0
	for _, c := range concepts {
		w, held := c.weigh(have, docs, true)
		heaviestHeld = max(heaviestHeld, held)
		if w > 0 && held == 0 {
			lacked = append(lacked, weighedLabel{c.Label, w, c.off.On(rules.UnknownWordsHint) && c.unknown() && strings.Contains(written, c.Label)})
		}
	}
	if heaviestHeld == 0 {
		return nil // nothing held to compare with: coverage judges such a query
	}
	lacked = slices.DeleteFunc(lacked, func(l weighedLabel) bool { return !l.unknown && l.w < rank.LackWeightRatio*heaviestHeld })
	return heaviestLabels(lacked, maxLackedInHint)
}

// weighedLabel is the label of a Concept an item lacks, with its weight.
type weighedLabel struct {
	label   string
	w       float64
	unknown bool
}

// heaviestLabels returns the labels of ls, heaviest first, each once (two
// words of one file name are one label), at most most.
func heaviestLabels(ls []weighedLabel, most int) []string {
	slices.SortStableFunc(ls, func(a, b weighedLabel) int { return cmp.Compare(b.w, a.w) })
	var labels []string
	for _, l := range ls {
		if !slices.Contains(labels, l.label) && len(labels) < most {
			labels = append(labels, l.label)
		}
	}
	return labels
}

// unknown reports whether no item the caller sees, nor its requests, holds
// any of c's words, and none was corrected.
func (c Concept) unknown() bool {
	for _, t := range c.Alternatives {
		if t.DocFreq > 0 || t.Corrected != "" {
			return false
		}
	}
	return len(c.Alternatives) > 0
}

// isProductCode reports whether t is a short code of letters and digits
// with a letter first (s3, ec2, k8s, gp3): 2 to 5 characters.
func isProductCode(t string) bool {
	if n := len(t); n < 2 || n > 5 || t[0] < 'a' || t[0] > 'z' {
		return false
	}
	digits := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c < 'a' || c > 'z':
			return false
		}
	}
	return digits > 0
}

// Concept is one thing the query asks for, as the no-match test weighs it:
// an analysed word of the query, or a Chinese or other-language word of
// it, or an everyday phrase of it ("out of office", text.PhraseWords),
// held by an item that holds any of the words of its English gloss or of
// the phrase with the words the phrase table adds.
type Concept struct {
	Label        string // what the hint calls it: the caller's own word
	Origin       Origin // the caller's word, or a word of another language, or a phrase
	Alternatives []Term // the terms of its words: an item holding any holds it
	off          rules.Set
}

// originWord is a glossed word of the caller's and the pass that glossed
// it.
type originWord struct {
	text.GlossedWord
	origin Origin
}

// queryConcepts returns the concepts of own, the caller's text, among the
// resolved terms of the searched text (own with its file paths' names and
// its glosses): each word of own is one, and each Chinese word of own with
// a gloss is one whose alternatives are the gloss's words. When own is the
// searched text, every term is a Concept of its own. File names are
// none (see filesAsWord); CJK bigrams, never content words, and single
// Chinese characters, whose glosses are one sense of many, count for
// nothing. It stops at the first Concept past the most that are weighed.
func queryConcepts(terms []Term, own, searched string, most int, off rules.Set) []Concept {
	out := conceptsOf(terms, own, searched, most)
	for i := range out {
		out[i].off = off
	}
	return out
}

// conceptsOf is queryConcepts with every rule on.
func conceptsOf(terms []Term, own, searched string, most int) []Concept {
	if own == searched {
		written := text.WordsAsWritten(own)
		out := make([]Concept, min(len(terms), most+1))
		for i := range out {
			out[i] = Concept{Label: asWritten(written, terms[i]), Alternatives: []Term{terms[i]}}
		}
		return out
	}
	byTerm := map[string]Term{}
	for _, t := range terms {
		byTerm[t.Term] = t
		if t.Corrected != "" {
			byTerm[t.Corrected] = t
		}
	}
	// own without its phrases and other-language words, whose words are
	// labelled as written there: dropping an elided word (d’Hamburgers)
	// changes the words the analyser reads
	rest := text.WithoutPhrases(text.WithoutForeignWords(own))
	written := text.WordsAsWritten(rest)
	var out []Concept
	for _, w := range text.Analyze(rest) {
		if text.HasHan(w) {
			continue // a bigram of Chinese text: its words are concepts below
		}
		for _, t := range terms {
			if t.Term == w || t.Corrected == w {
				out = append(out, Concept{Label: asWritten(written, t), Alternatives: []Term{t}})
				break
			}
		}
	}
	var glossed []originWord
	for _, list := range []struct {
		origin Origin
		words  []text.GlossedWord
	}{{Chinese, text.GlossWords(own)}, {Foreign, text.ForeignWords(own)}, {Phrase, text.PhraseWords(own)}} {
		for _, g := range list.words {
			glossed = append(glossed, originWord{g, list.origin})
		}
	}
	for _, g := range glossed {
		if len(out) > most {
			break
		}
		if utf8.RuneCountInString(g.Word) < 2 {
			continue // a single character has too many senses to weigh
		}
		c := Concept{Label: g.Word, Origin: g.origin}
		for _, w := range text.Analyze(g.English) {
			if t, ok := byTerm[w]; ok {
				c.Alternatives = append(c.Alternatives, t)
			}
		}
		if len(c.Alternatives) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// weigh returns what c weighs, the largest inverse document frequency
// (docs items) of its content words, scaled down for generic words, and
// what of it an item that holds have holds: the weight of the heaviest of
// them it holds. Product codes (isProductCode) weigh too when codes is
// set. A day or a time of day weighs nothing: when, not what.
func (c Concept) weigh(have map[string]bool, docs int, codes bool) (w, held float64) {
	if c.off.On(rules.TimeWords) && text.IsTimeWord(c.Label) {
		return 0, 0
	}
	for _, t := range c.Alternatives {
		if isContentWord(t.Term) || codes && isProductCode(t.Term) {
			tw := idf(t.DocFreq, docs) * rank.TermWeight(t.Term, c.off)
			w = max(w, tw)
			if have[t.Term] {
				held = max(held, tw)
			}
		}
	}
	return w, held
}

// asWritten is the caller's own word of a term: the word of the query it
// was analysed from (text.WordsAsWritten), or the term.
func asWritten(written map[string]string, t Term) string {
	w := cmp.Or(t.Corrected, t.Term)
	return cmp.Or(written[w], w)
}

// coverage is the share of the query's weight that an item holds (have):
// each Concept weighs the largest inverse document frequency of its
// content-word alternatives (scaled down for generic words), and an item
// that holds some of them is credited with the weight of the heaviest it
// holds (a common sense of a Chinese word is weak evidence); identifiers,
// numbers and one- or two-letter words do not count. It also returns the
// labels of the weighty concepts the item lacks, heaviest first, each
// once.
func coverage(concepts []Concept, have map[string]bool, docs int) (float64, []string) {
	measured("coverage")
	covered, all := 0.0, 0.0
	var missing []weighedLabel
	for _, c := range concepts {
		w, held := c.weigh(have, docs, false)
		if w == 0 {
			continue
		}
		all += w
		covered += held
		if held == 0 {
			missing = append(missing, weighedLabel{label: c.Label, w: w})
		}
	}
	if all == 0 {
		return 1, nil
	}
	return covered / all, heaviestLabels(missing, len(missing))
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
