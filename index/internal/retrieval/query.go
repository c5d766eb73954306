package retrieval

import (
	"sort"
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// fieldBoosts are the fields of the text query, in the order of its
// clauses, with their weights (package rank).
var fieldBoosts = []struct {
	field string
	boost float64
}{
	{schema.Name, boostName}, {schema.Title, boostTitle}, {schema.Description, boostDescription},
	{schema.Params, boostParams}, {schema.ServerWords, boostServerWords}, {schema.URI, boostURI},
	{schema.Related, boostRelated}, {schema.Content, boostContent}, {schema.Gloss, boostGloss},
}

// textQuery matches words in the text fields, and names (the whole text as
// a name, exactNames) against item names. Each field is one clause, a disjunction of the
// words in that field. bleve multiplies a disjunction's score by the share
// of its clauses that matched, so an item matched in several fields, and by
// several words in a field, ranks higher (measured against one clause per
// word and one flat clause: see the technique log in the README).
func textQuery(k ext.Kind, names, words []string, off rules.Set) [][]bm25.Leaf {
	clauses := make([][]bm25.Leaf, 0, len(fieldBoosts)+1)
	for _, fb := range fieldBoosts {
		if fb.field == schema.Related && !off.On(rules.RelatedField) || fb.field == schema.Gloss && !off.On(rules.GlossField) {
			continue
		}
		terms := make([]bm25.Leaf, 0, len(words))
		for _, w := range words {
			terms = append(terms, bm25.Leaf{Field: schema.KindField(k, fb.field), Term: w, Boost: fb.boost * rank.TermWeight(w, off)})
		}
		clauses = append(clauses, terms)
	}
	if !off.On(rules.ExactNameRetrieval) {
		return clauses
	}
	return append(clauses, exactNameQuery(k, names))
}

// exactNames are the names an item may have whose name is the whole text
// (Request.Names). Items are indexed under their own name only (canonical
// names would add a unique term per item); a canonical name — server,
// separator sep, name — is matched by its own-name part too, and
// re-ranking checks the server.
func exactNames(query, sep string) []string {
	names := []string{text.NormalizeName(query)}
	if _, own, ok := strings.Cut(query, sep); ok && sep != "" {
		names = append(names, text.NormalizeName(own))
	}
	return names
}

// exactNameQuery matches the items whose own name is one of names.
func exactNameQuery(k ext.Kind, names []string) []bm25.Leaf {
	clauses := make([]bm25.Leaf, len(names))
	for i, n := range names {
		clauses[i] = bm25.Leaf{Field: schema.KindField(k, schema.NameExact), Term: n, Boost: exactNameBoost}
	}
	return clauses
}

// queryTerms returns the distinct terms a query's text searches: its first
// MaxSearchTerms, in the order of its text, of which at most
// MaxSearchTerms/2 pairs of Chinese characters, so that a long Chinese
// query keeps the glosses that follow its characters; and, of those terms
// only, what correction reads (queryWords), from the same analysis. A
// query read to ext.MaxQueryTerms words (readQuery) can analyse to more
// (each identifier whole beside its parts, Chinese into pairs of characters
// and the words of its glosses); every term costs lookups, maybe a typo
// walk, and a walk of its postings in every text field.
func queryTerms(searched string, words []Word) ([]string, *queryWords, map[string]Origin) {
	toks := text.Tokens(searched)
	var terms []string
	seen, han := map[string]bool{}, 0
	origins := map[string]Origin{}
	wordOf := wordsByOffset(searched, words)
	for _, tok := range toks {
		t := string(tok.Term)
		if seen[t] || text.HasHan(t) && han == MaxSearchTerms/2 {
			continue
		}
		seen[t] = true
		origins[t] = wordOf(tok.Start).Origin
		if text.HasHan(t) {
			han++
		}
		if terms = append(terms, t); len(terms) == MaxSearchTerms {
			break
		}
	}
	return terms, typoWords(text.TermsAsWritten(toks, searched, terms)), origins
}

// wordsByOffset returns the word of words (the words of s, in order) at
// each byte offset of s; a typed word where none is.
func wordsByOffset(s string, words []Word) func(offset int) Word {
	var starts []int
	inWord := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if !space && !inWord {
			starts = append(starts, i)
		}
		inWord = !space
	}
	return func(offset int) Word {
		i := sort.SearchInts(starts, offset+1) - 1
		if i < 0 || i >= len(words) || len(starts) != len(words) {
			return Word{After: -1}
		}
		return words[i]
	}
}
