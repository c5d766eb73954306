package retrieval

import (
	"context"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// resolveTerms looks up each term's document frequency and corrects
// unknown ones (typo.go, typowords.go); words are what correction reads
// of the query's text (typoWords; nil: the terms alone). Both count only
// the items w sees: a word that only hidden items hold is an unknown word,
// and no word is corrected to one. It returns at most MaxSearchTerms
// terms (firstTerms).
func (x searcher) resolveTerms(kind ext.Kind, terms []string, words *queryWords, off rules.Set) ([]Term, error) {
	out, _, err := x.resolveTermsCost(kind, terms, words, off)
	return out, err
}

// callerDicts opens the term dictionaries of kind over the items the
// caller sees (newTermDicts); done releases the reader they read.
func (x searcher) callerDicts(kind ext.Kind) (d *termDicts, done func(), err error) {
	r := x.Reader()
	visible, err := x.Visible()
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	if d, err = newTermDicts(r, kind, visible, x.Count(kind)); err != nil {
		r.Close()
		return nil, nil, err
	}
	return d, func() { r.Close() }, nil
}

// resolveTermsCost is resolveTerms, and what its typo corrections cost.
func (x searcher) resolveTermsCost(kind ext.Kind, terms []string, words *queryWords, off rules.Set) (out []Term, cost TypoCost, err error) {
	d, done, err := x.callerDicts(kind)
	if err != nil {
		return nil, cost, err
	}
	defer done()
	var short map[string]bool
	if words != nil {
		short = words.short
	}
	c := newCorrector(d, short, off)
	asked := x.requestWords(kind, off)
	for _, t := range terms {
		resolved, err := x.resolveTerm(c, t, words, asked)
		if err != nil {
			return nil, cost, err
		}
		out = append(out, resolved...)
	}
	return firstTerms(out), c.cost, nil
}

// firstTerms returns the first MaxSearchTerms of terms. Correction
// may add terms to the query's distinct ones (the halves of a word run
// together: 48 such words were 96 terms) and the everyday words of
// corrected words add more. Every term is resolved, whatever the count,
// so that what correction costs does not depend on how many of the first
// words the index knows, and the surplus is dropped here. A term that
// correction repeats (meetng beside meeting) is kept, and so weighs
// twice: dropping repeats cost livemcpbench nDCG .465 → .462 and everyday
// dev nDCG .741 → .738 (index/README.md, technique log).
func firstTerms(terms []Term) []Term {
	return terms[:min(len(terms), MaxSearchTerms)]
}

// requestWords counts the items the caller sees of kind whose written
// requests hold a term: a word of the requests only is a known word, not
// a typo (none when written-requests is off).
func (x searcher) requestWords(kind ext.Kind, off rules.Set) func(term string) int {
	idx := x.Requests()
	if !off.On(rules.WrittenRequests) || idx == nil || x.writtenAsked(kind) == 0 {
		return func(string) int { return 0 }
	}
	view := x.RequestView(kind)
	return func(term string) int { return idx.ItemsHolding(kind, term, view) }
}

// resolveTerm returns term with its document frequency, or its
// correction, or the halves of a word run together. A term that only the
// written requests hold (asked) is known, and counts the items holding it.
func (x searcher) resolveTerm(c *corrector, t string, words *queryWords, asked func(string) int) ([]Term, error) {
	qt := Term{Term: t}
	var err error
	if qt.DocFreq, err = c.dicts.docFreq(t); err != nil {
		return nil, err
	}
	if qt.DocFreq == 0 {
		if n := asked(t); n > 0 {
			qt.DocFreq = n
			return []Term{qt}, nil
		}
	}
	fix, err := c.nearestOf(t, words)
	if err != nil {
		return nil, err
	}
	halves, err := c.split(t, words)
	if err != nil || qt.DocFreq > 0 {
		return []Term{qt}, err
	}
	if fix.stop {
		return nil, nil // a mistyped stop word
	}
	if fix.near != "" && fix.near != t && fix.df > 0 && frequentEnough(c.dicts.items, fix.typed, fix.df) {
		return []Term{{Term: fix.near, DocFreq: fix.df, Corrected: t}}, nil
	}
	if halves != nil {
		return halves, nil
	}
	return []Term{qt}, nil
}

// frequentEnough reports whether a correction held by df of items items
// may replace word: any, for a word of MinTypoRunes characters or
// more; for a shorter one, only a frequent word (minShortTypoShare of
// the items, and minShortTypoDocs).
func frequentEnough(items int, word string, df int) bool {
	if utf8.RuneCountInString(word) >= MinTypoRunes {
		return true
	}
	return df >= minShortTypoDocs && float64(df) >= minShortTypoShare*float64(items)
}

// shortOf returns the terms of a query's words as written (by term) of
// minShortTypoRunes to MinTypoRunes-1 letters that are no
// English words the word vectors know (pul, not gif nor bmi): the short
// words a query may have mistyped. A stem (pari of Paris) is not one.
func shortOf(written map[string]string) map[string]bool {
	out := map[string]bool{}
	wt, err := text.WordTable()
	for term, word := range written {
		n := utf8.RuneCountInString(word)
		if n < minShortTypoRunes || n >= MinTypoRunes || !allLetters(word) {
			continue
		}
		if err == nil && wt.Find(strings.ToLower(word)) >= 0 {
			continue
		}
		out[term] = true
	}
	return out
}

func allLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// termDicts reads the term dictionaries of a kind's text fields in every
// segment of an index snapshot, each opened once. It counts the documents
// of a caller who may not see every item among the items it sees only.
type termDicts struct {
	snap    *segmentfile.Reader
	kind    ext.Kind
	dicts   map[string][]segment.TermDictionary // by the kind's field, and by index field (sight.go)
	pl      segment.PostingsList                // reused
	visible []*roaring.Bitmap                   // the documents the caller sees, by segment; nil: all (sight.go)
	scratch *roaring.Bitmap                     // reused
	items   int                                 // the items of kind the caller sees
}

// newTermDicts reads the dictionaries of kind for a caller who sees the
// documents visible (nil: all), items of the kind.
func newTermDicts(r *segmentfile.Reader, kind ext.Kind, visible []*roaring.Bitmap, items int) (*termDicts, error) {
	snap := r
	return &termDicts{snap: snap, kind: kind, dicts: map[string][]segment.TermDictionary{}, visible: visible, items: items}, nil
}

// field returns the dictionaries of the kind's field f, one a segment.
func (d *termDicts) field(f string) ([]segment.TermDictionary, error) {
	if dicts, ok := d.dicts[f]; ok {
		return dicts, nil
	}
	dicts, err := d.open(schema.KindField(d.kind, f))
	d.dicts[f] = dicts
	return dicts, err
}

// dictsOf returns the dictionaries of the index field named full.
func (d *termDicts) dictsOf(full string) ([]segment.TermDictionary, error) {
	if dicts, ok := d.dicts[full]; ok {
		return dicts, nil
	}
	dicts, err := d.open(full)
	d.dicts[full] = dicts
	return dicts, err
}

// open opens the dictionaries of the index field named full.
func (d *termDicts) open(full string) ([]segment.TermDictionary, error) {
	var dicts []segment.TermDictionary
	for _, seg := range d.snap.Segments() {
		dict, err := seg.Dictionary(full)
		if err != nil {
			return nil, fmt.Errorf("dictionary of %s: %w", full, err)
		}
		dicts = append(dicts, dict)
	}
	return dicts, nil
}

// docFreq is the largest number of documents holding term in one text
// field (what bleve's TermFieldReader counts: postings less deletions),
// of those the caller sees.
func (d *termDicts) docFreq(term string) (int, error) {
	most := 0
	for _, f := range schema.TextFields {
		n, err := d.fieldFreq(f, term)
		if err != nil {
			return 0, err
		}
		most = max(most, n)
	}
	return most, nil
}

// fieldFreq is the number of documents the caller sees that hold term in
// field f.
func (d *termDicts) fieldFreq(f, term string) (int, error) {
	if d.visible != nil {
		return d.visibleFreq(schema.KindField(d.kind, f), term)
	}
	dicts, err := d.field(f)
	if err != nil {
		return 0, err
	}
	n := 0
	for i := range d.snap.Segments() {
		if d.pl, err = dicts[i].PostingsList([]byte(term), nil, d.pl); err != nil {
			return 0, fmt.Errorf("term %q in %s: %w", term, f, err)
		}
		n += int(d.pl.Count())
	}
	return n, nil
}

// summaryFields are the fields whose words the no-match test counts as an
// item's own: its server's name, its name and what describes it, and the
// English glosses of its Chinese words. A request that names the system
// ("the tables of my supabase database") holds that word of its tools even
// where their descriptions do not repeat it (no negative got items for it;
// measured). WordNet's related words are left out (counting them let more
// queries about nothing in the catalog through; measured).
var summaryFields = []string{schema.ServerWords, schema.Name, schema.Title, schema.Description, schema.Params, schema.URI, schema.Content, schema.Gloss}

// heldTerms reports which of terms the document id holds in its summary
// fields, read from the postings: one lookup per term and field, positioned
// on the document, never a scan.
func (x searcher) heldTerms(kind ext.Kind, id string, terms []Term) (held map[string]bool, err error) {
	measured("held")
	defer func() {
		if err != nil {
			err = fmt.Errorf("%s: terms of %s: %w", x.Name(), id, err)
		}
	}()
	r := x.Reader()
	defer r.Close()
	doc, err := r.InternalID(id)
	if err != nil || doc == nil {
		return nil, fmt.Errorf("no internal id (%v)", err)
	}
	held = map[string]bool{}
	for _, t := range terms {
		for _, f := range summaryFields {
			if held[t.Term] {
				break
			}
			if held[t.Term], err = fieldHolds(r, schema.KindField(kind, f), t.Term, doc); err != nil {
				return nil, err
			}
		}
	}
	return held, nil
}

// fieldHolds reports whether document doc holds term in field.
func fieldHolds(r *segmentfile.Reader, field, term string, doc bindex.IndexInternalID) (bool, error) {
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
