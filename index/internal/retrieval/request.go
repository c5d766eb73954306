package retrieval

import (
	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Request is a query as the pipeline reads it, once: the caller's text,
// what the query passes made of it, and the terms it searches.
type Request struct {
	// Query is the caller's query; its text is what a search reads of
	// the caller's (see ReadText).
	Query ext.Query
	// Searched is the text BM25 and the vectors read: the caller's with
	// the query passes' words (searchedText).
	Searched string
	// Terms are the analysed words of Searched, resolved among the items
	// the caller sees and corrected (at most rank.MaxSearchTerms).
	Terms []Term
	// Off are the rules switched off.
	Off rules.Set
	// Cost is what correcting its words took.
	Cost TypoCost
}

// Term is one analysed word of a query, checked against the index
// vocabulary the caller sees.
type Term struct {
	Term      string
	DocFreq   int    // documents holding the term, in the text field holding it most
	Corrected string // the word as typed when Term is its spelling correction
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
// the rules off switched off: the query passes, analysis and typo
// correction.
func Read(src Source, q ext.Query, off rules.Set) (*Request, error) {
	x := searcher{src}
	searched := searchedText(q.Text, off)
	terms, words := queryTerms(searched)
	resolved, cost, err := x.resolveTermsCost(q.Kind, terms, words, off)
	if err != nil {
		return nil, err
	}
	return &Request{Query: q, Searched: searched, Terms: resolved, Off: off, Cost: cost}, nil
}

// TermStrings returns the terms r searches.
func (r *Request) TermStrings() []string {
	out := make([]string, len(r.Terms))
	for i, t := range r.Terms {
		out[i] = t.Term
	}
	return out
}

// searchedText is what BM25 and the vectors read of the caller's text
// own: its file paths as words, its Chinese and other languages glossed in
// English, its phrases and everyday words followed by the words tools use
// (each pass unless off switches it off).
func searchedText(own string, off rules.Set) string {
	s := own
	for _, p := range queryPasses {
		if off.On(p.rule) {
			s = p.pass(s)
		}
	}
	return s
}

// queryPasses are the rewrites of the caller's text, in order.
var queryPasses = []struct {
	rule rules.Rule
	pass func(string) string
}{
	{rules.FileWords, text.WithFileWords},
	{rules.ForeignGlosses, text.WithForeignGlosses},
	{rules.ChineseGlosses, text.WithGlosses},
	{rules.Phrases, text.WithPhraseExpansions},
	{rules.QueryExpansions, text.WithQueryExpansions},
}
