package retrieval

import (
	"cmp"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Request is a query as the pipeline reads it, once (Read): every later
// step reads this, never the caller's text again.
type Request struct {
	// Query is the caller's query; its text is what a search reads of
	// the caller's (see ReadText).
	Query ext.Query
	// Searched is the text BM25 and the vectors read: the caller's with
	// the words the query passes added.
	Searched string
	// Words are the words of Searched, each with its origin and position.
	Words []Word
	// Terms are the analysed words of Searched, resolved among the items
	// the caller sees and corrected (at most MaxSearchTerms).
	Terms []Term
	// Concepts are what the request asks for, as the no-match test and
	// its hints weigh it: the caller's own words, and the words of other
	// languages and the phrases it glossed.
	Concepts []Concept
	// ChineseOrJapanese is set when the caller's text holds Han or kana.
	ChineseOrJapanese bool
	// Grammar is what re-ranking reads of the caller's text.
	Grammar rank.Reading
	// Names are the names an item whose name is the whole text has: the
	// text, and the own-name part of a canonical name.
	Names []string
	// Off are the rules switched off.
	Off rules.Set
	// Written is the caller's text as it came, before ReadText read it in
	// compatibility form, when the caller of Read sets it: a hint names
	// a word no item holds only when it is written there
	// (unknown-words-hint). Nothing else reads it.
	Written string
	// Cost is what correcting its words took.
	Cost TypoCost
}

// Term is one analysed word of a query, checked against the index
// vocabulary the caller sees.
type Term struct {
	Term      string
	DocFreq   int    // documents holding the term, in the text field holding it most
	Corrected string // the word as typed when Term is its spelling correction
	Origin    Origin // its word's (Correction for a correction)
}

// ReadText returns what a search reads of the caller's text: its
// compatibility form (text.Normalize), to its ext.MaxQueryTerms-th word,
// each part of an identifier and each Chinese or Japanese character
// counting as one (text.FirstWords). Every later step — glosses, phrases,
// analysis, correction, vectors, re-ranking — reads no more, so what a
// query costs is bounded by its words whatever their shape.
func ReadText(s string) string {
	return text.FirstWords(text.Normalize(s, ext.MaxQueryBytes), ext.MaxQueryTerms)
}

// Read reads q (whose text ReadText has read) for the caller of src, with
// the rules off switched off: the task without the frames it is wrapped
// in (request-frames; the Request's Query holds the task), the query
// passes, analysis and typo correction.
func Read(src Source, q ext.Query, off rules.Set) (*Request, error) {
	x := searcher{src}
	if off.On(rules.RequestFrames) {
		q.Text = text.WithoutFrames(q.Text)
	}
	r := &Request{Query: q, Off: off, Grammar: rank.Read(q.Text)}
	r.Names = exactNames(q.Text, src.Separator())
	r.Searched, r.Words = readWords(q.Text, off)
	terms, words, origins := queryTerms(r.Searched, r.Words)
	var err error
	if r.Terms, r.Cost, err = x.resolveTermsCost(q.Kind, terms, words, off); err != nil {
		return nil, err
	}
	for i, t := range r.Terms {
		r.Terms[i].Origin = origins[cmp.Or(t.Corrected, t.Term)]
		if t.Corrected != "" {
			r.Terms[i].Origin = Correction
		}
	}
	weighed := text.FilesAsWord(q.Text) // no tool knows the caller's file names
	r.Concepts = queryConcepts(r.Terms, weighed, r.Searched, MaxSearchTerms, off)
	r.ChineseOrJapanese = text.HasChineseOrJapanese(weighed)
	return r, nil
}

// TermStrings returns the terms r searches.
func (r *Request) TermStrings() []string {
	out := make([]string, len(r.Terms))
	for i, t := range r.Terms {
		out[i] = t.Term
	}
	return out
}
