package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
)

// queryTerm is one analysed word of a query, checked against the index
// vocabulary.
type queryTerm struct {
	term      string
	docFreq   int    // documents holding the term, in the text field holding it most
	corrected string // the original word when term is a spelling correction
}

// Typo tolerance: a word the index does not know, of at least minTypoRunes,
// is replaced by the known word nearest to it — at most one edit away for
// words shorter than twoEditRunes, two for longer ones — sharing its first
// letter. The search walks the dictionary with a Levenshtein automaton; it
// never scans the index.
const (
	minTypoRunes = 5
	twoEditRunes = 8
)

// resolveTerms looks up each term's document frequency and corrects
// unknown ones.
func (x *Index) resolveTerms(kind ext.Kind, terms []string) (out []queryTerm, err error) {
	r, err := x.reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for _, t := range terms {
		qt := queryTerm{term: t}
		if qt.docFreq, err = docFreq(r, kind, t); err != nil {
			return nil, err
		}
		if qt.docFreq > 0 || utf8.RuneCountInString(t) < minTypoRunes {
			out = append(out, qt)
			continue
		}
		if fixed, df, ok := correct(r, kind, t); ok {
			qt = queryTerm{term: fixed, docFreq: df, corrected: t}
		}
		out = append(out, qt)
	}
	return out, nil
}

// docFreq is the largest number of documents holding term in one text field.
func docFreq(r bindex.IndexReader, kind ext.Kind, term string) (int, error) {
	most := 0
	for _, f := range textFields {
		tfr, err := r.TermFieldReader(context.Background(), []byte(term), kindField(kind, f), false, false, false)
		if err != nil {
			return 0, fmt.Errorf("term %q in %s: %w", term, f, err)
		}
		most = max(most, int(tfr.Count()))
		tfr.Close()
	}
	return most, nil
}

// correct returns the known term nearest to term in the name and
// description vocabularies: fewest edits, then most documents, then
// alphabetical order.
func correct(r bindex.IndexReader, kind ext.Kind, term string) (string, int, bool) {
	fuzzy, ok := r.(bindex.IndexReaderFuzzy)
	if !ok {
		return "", 0, false
	}
	edits := 1
	if utf8.RuneCountInString(term) >= twoEditRunes {
		edits = 2
	}
	prefix := string([]rune(term)[:1])
	best, bestDist, bestCount := "", math.MaxInt, 0
	for _, field := range []string{fieldName, fieldDescription} {
		dict, err := fuzzy.FieldDictFuzzy(kindField(kind, field), term, edits, prefix)
		if err != nil {
			continue
		}
		for e, err := dict.Next(); err == nil && e != nil; e, err = dict.Next() {
			d, c := int(e.EditDistance), int(e.Count)
			if d < bestDist || d == bestDist && (c > bestCount || c == bestCount && e.Term < best) {
				best, bestDist, bestCount = e.Term, d, c
			}
		}
		dict.Close()
	}
	if best == "" {
		return "", 0, false
	}
	df, err := docFreq(r, kind, best)
	return best, df, err == nil && df > 0
}

// summaryFields are the fields whose words the no-match test counts as an
// item's own: its name and what describes it, and the English glosses of
// its Chinese words. Server names and WordNet's related words are left out
// (counting related words let more queries about nothing in the catalog
// through; measured).
var summaryFields = []string{fieldName, fieldTitle, fieldDescription, fieldParams, fieldURI, fieldContent, fieldGloss}

// reader opens a reader of the index's postings; the caller closes it.
func (x *Index) reader() (bindex.IndexReader, error) {
	advanced, err := x.bleve.Advanced()
	if err != nil {
		return nil, err
	}
	return advanced.Reader()
}

// heldTerms reports which of terms the document id holds in its summary
// fields, read from the postings: one lookup per term and field, positioned
// on the document, never a scan.
func (x *Index) heldTerms(kind ext.Kind, id string, terms []queryTerm) (held map[string]bool, err error) {
	defer wrapf(&err, "index %s: terms of %s", x.dir, id)
	r, err := x.reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	doc, err := r.InternalID(id)
	if err != nil || doc == nil {
		return nil, fmt.Errorf("no internal id (%v)", err)
	}
	held = map[string]bool{}
	for _, t := range terms {
		for _, f := range summaryFields {
			if held[t.term] {
				break
			}
			if held[t.term], err = fieldHolds(r, kindField(kind, f), t.term, doc); err != nil {
				return nil, err
			}
		}
	}
	return held, nil
}

// fieldHolds reports whether document doc holds term in field.
func fieldHolds(r bindex.IndexReader, field, term string, doc bindex.IndexInternalID) (bool, error) {
	tfr, err := r.TermFieldReader(context.Background(), []byte(term), field, false, false, false)
	if err != nil {
		return false, err
	}
	defer tfr.Close()
	if tfr.Count() == 0 {
		return false, nil
	}
	found, err := tfr.Advance(doc, nil)
	if err != nil {
		return false, err
	}
	return found != nil && found.ID.Equals(doc), nil
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
				tw := idf(t.docFreq, docs) * termWeight(t.term)
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
