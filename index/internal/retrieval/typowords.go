package retrieval

import (
	"strings"

	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Typos the stems hide, and words run together. Correction walks a
// query's analysed terms, the index's stems after synonym folding: wirte
// stems to wirt, four letters, never walked, and write is indexed as save,
// so no term of the index is near it. So a word of MinTypoRunes
// letters or more that is no English word of the word vectors' table is
// also compared, as written, with the table's words of its first letter
// (at most maxWordTableWalks words a query), and the nearest, the
// most frequent of the fewest edits, analysed: its term is the word's
// correction when its stem's walk finds none (wirte → write → save). A word typed without
// its space (blobstorage, piechart), of at most MaxTypoRunes
// letters, that the index does not know is read as its two halves when
// both are English words the word vectors know, of MinSplitRunes
// letters or more, and both are in the index.
//
// What either costs depends on the query's words only, never on whether
// the index holds them: a word is compared with the table's when the
// table does not hold it, and the halves of a word are looked up whenever both
// are English words (TestHiddenWordCostsWhatAnUnknownWordCosts).

// queryWords is what correction reads of a query's text beside its terms.
type queryWords struct {
	short map[string]bool // short terms that may be corrected (shortOf)
	// written maps each term to its word as written, in lower case, when
	// that is of at most MaxTypoRunes bytes: no longer word is
	// compared with the word vectors' table nor split in two. (A part of an
	// identifier was written as the whole identifier.)
	written map[string]string
}

// typoWords returns the queryWords of a query's terms, each mapped to the
// word it was written as (text.TermsAsWritten).
func typoWords(written map[string]string) *queryWords {
	w := &queryWords{short: shortOf(written), written: make(map[string]string, len(written))}
	for term, word := range written {
		if len(word) <= MaxTypoRunes {
			w.written[term] = strings.ToLower(word)
		}
	}
	return w
}

// writtenToWalk returns the word term was written as when it is to be
// compared with the word vectors' table: letters only, of
// minShortTypoRunes to MaxTypoRunes, no word of the table; ""
// if not.
func (w *queryWords) writtenToWalk(term string) string {
	if w == nil {
		return ""
	}
	word := w.written[term]
	n := len(word)
	if !isASCIILetters(word) || n < minShortTypoRunes || n > MaxTypoRunes {
		return ""
	}
	if wt, err := text.WordTable(); err != nil || wt.Find(word) >= 0 {
		return ""
	}
	return word
}

// correction is what correcting one term found.
type correction struct {
	near  string // the term meant ("" none)
	df    int    // its document frequency
	typed string // the word whose length decides whether it is frequent enough
	stop  bool   // the word meant is a stop word (frmo, tihs, whihc): dropped
}

// nearestOf returns the correction of term: its stem's nearest term, or
// when that is none, the term of the English word nearest to the word as
// written; none when that word is a stop word.
func (c *corrector) nearestOf(term string, words *queryWords) (correction, error) {
	near, df, err := c.nearest(term)
	if err != nil {
		return correction{}, err
	}
	stem := correction{near: near, df: df, typed: term}
	word := words.writtenToWalk(term)
	if word == "" || !c.off.On(rules.WordTableTypos) || c.wordWalks >= maxWordTableWalks || !c.canLookUp(1) {
		return stem, nil
	}
	c.wordWalks++
	byWord, err := c.nearestWord(word)
	if err != nil || !byWord.stop && (byWord.df == 0 || near != "" && near != term && df > 0) {
		return stem, err
	}
	return byWord, nil
}

// nearestWord returns the term of the English word nearest to word (the
// same edits as nearest allows; of the wordTableCandidates most
// frequent of the fewest edits, the term held by the most items), or that
// the most frequent is a stop word.
func (c *corrector) nearestWord(word string) (correction, error) {
	wt, err := text.WordTable()
	if err != nil {
		return correction{}, nil
	}
	edits := 1
	if len(word) >= twoEditRunes {
		edits = 2
	}
	best := correction{typed: word}
	for i, near := range wt.Nearest(word, edits, wordTableCandidates) {
		if i == 0 && text.IsStopWord(near) {
			return correction{stop: true}, nil
		}
		terms := text.Analyze(near)
		if len(terms) != 1 {
			continue
		}
		if !c.canLookUp(1) {
			break
		}
		c.cost.Lookups++
		df, err := c.dicts.docFreq(terms[0])
		if err != nil {
			return correction{}, err
		}
		if df > best.df {
			best.near, best.df = terms[0], df
		}
	}
	return best, nil
}

// split returns the two halves of a word run together as known terms of
// the index, the pair whose rarer half is held by the most documents; nil
// when none.
func (c *corrector) split(term string, words *queryWords) ([]Term, error) {
	if words == nil || !c.off.On(rules.SplitWords) {
		return nil, nil
	}
	word := words.written[term]
	wt, err := text.WordTable()
	if err != nil || len(word) < 2*MinSplitRunes || !isASCIILetters(word) || wt.Find(word) >= 0 {
		return nil, nil
	}
	var best []Term
	for k := MinSplitRunes; k <= len(word)-MinSplitRunes; k++ {
		a, b := word[:k], word[k:]
		if wt.Find(a) < 0 || wt.Find(b) < 0 || text.IsStopWord(a) || text.IsStopWord(b) {
			continue
		}
		halves, err := c.halves(a, b, term)
		if err != nil {
			return nil, err
		}
		if halves != nil && (best == nil || min(halves[0].DocFreq, halves[1].DocFreq) > min(best[0].DocFreq, best[1].DocFreq)) {
			best = halves
		}
	}
	return best, nil
}

// halves looks up the terms of a and b, the halves of term; nil unless
// each is one term the index holds. Both are looked up whatever the first
// holds.
func (c *corrector) halves(a, b, term string) ([]Term, error) {
	ta, tb := text.Analyze(a), text.Analyze(b)
	if len(ta) != 1 || len(tb) != 1 || !c.canLookUp(2) {
		return nil, nil
	}
	out := []Term{{Term: ta[0], Corrected: term}, {Term: tb[0], Corrected: term}}
	for i := range out {
		c.cost.Lookups++
		df, err := c.dicts.docFreq(out[i].Term)
		if err != nil {
			return nil, err
		}
		out[i].DocFreq = df
	}
	if out[0].DocFreq == 0 || out[1].DocFreq == 0 {
		return nil, nil
	}
	return out, nil
}

func isASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
