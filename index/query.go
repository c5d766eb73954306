package index

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// fieldBoosts are the fields of the text query, in the order of its
// clauses, with their weights (package rank).
var fieldBoosts = []struct {
	field string
	boost float64
}{
	{fieldName, rank.BoostName}, {fieldTitle, rank.BoostTitle}, {fieldDescription, rank.BoostDescription},
	{fieldParams, rank.BoostParams}, {fieldServerWords, rank.BoostServerWords}, {fieldURI, rank.BoostURI},
	{fieldRelated, rank.BoostRelated}, {fieldContent, rank.BoostContent}, {fieldGloss, rank.BoostGloss},
}

// searchQuery builds the bleve query for q: the text query, restricted by
// kind, filter and, unless seesAll, what a caller with access may see.
// Text is analysed into words, never parsed as syntax. sep is the name
// separator, for exact canonical names.
func searchQuery(q ext.Query, terms []string, sep string, seesAll bool, access ext.Access, off rules.Set) (bm25.Query, error) {
	filters, err := filterClauses(q, seesAll, access)
	if err != nil {
		return bm25.Query{}, err
	}
	return bm25.Query{Text: textQuery(q.Kind, q.Text, terms, sep, off), Filters: filters}, nil
}

// filterClauses are the clauses of q's kind, its filter and, unless
// seesAll, what a caller with access may see; they score nothing.
func filterClauses(q ext.Query, seesAll bool, access ext.Access) ([][]bm25.Leaf, error) {
	if !q.Kind.Valid() {
		return nil, fmt.Errorf("%w: unknown kind %q", ext.ErrInvalidParams, q.Kind)
	}
	var clauses [][]bm25.Leaf
	if !seesAll {
		clauses = append(clauses, visibilityFilter(access))
	}
	if len(q.Filter.Servers) > 0 {
		servers := make([]bm25.Leaf, len(q.Filter.Servers))
		for i, s := range q.Filter.Servers {
			servers[i] = filterTerm(fieldServer, s)
		}
		clauses = append(clauses, servers)
	}
	annotations, err := annotationFilter(q.Filter.Annotations)
	if err != nil {
		return nil, err
	}
	return append(clauses, annotations...), nil
}

// textQuery matches the words of text in the text fields, and the whole
// text against item names. Each field is one clause, a disjunction of the
// words in that field. bleve multiplies a disjunction's score by the share
// of its clauses that matched, so an item matched in several fields, and by
// several words in a field, ranks higher (measured against one clause per
// word and one flat clause: see the technique log in the README).
func textQuery(k ext.Kind, query string, words []string, sep string, off rules.Set) [][]bm25.Leaf {
	clauses := make([][]bm25.Leaf, 0, len(fieldBoosts)+1)
	for _, fb := range fieldBoosts {
		if fb.field == fieldRelated && !off.On(rules.RelatedField) || fb.field == fieldGloss && !off.On(rules.GlossField) {
			continue
		}
		terms := make([]bm25.Leaf, 0, len(words))
		for _, w := range words {
			terms = append(terms, bm25.Leaf{Field: kindField(k, fb.field), Term: w, Boost: fb.boost * rank.TermWeight(w, off)})
		}
		clauses = append(clauses, terms)
	}
	if !off.On(rules.ExactNameRetrieval) {
		return clauses
	}
	return append(clauses, exactNameQuery(k, query, sep))
}

// exactNameQuery matches the item whose own name is the whole text. Items
// are indexed under their own name only (canonical names would add a unique
// term per item); a canonical name — server, separator, name — is matched by
// its own-name part too, and re-ranking checks the server.
func exactNameQuery(k ext.Kind, query, sep string) []bm25.Leaf {
	names := []string{text.NormalizeName(query)}
	if _, own, ok := strings.Cut(query, sep); ok && sep != "" {
		names = append(names, text.NormalizeName(own))
	}
	clauses := make([]bm25.Leaf, len(names))
	for i, n := range names {
		clauses[i] = bm25.Leaf{Field: kindField(k, fieldNameExact), Term: n, Boost: rank.ExactNameBoost}
	}
	return clauses
}

// queryTerms returns the distinct terms a query's text searches: its first
// rank.MaxSearchTerms, in the order of its text, of which at most
// rank.MaxSearchTerms/2 pairs of Chinese characters, so that a long Chinese
// query keeps the glosses that follow its characters; and, of those terms
// only, what correction reads (queryWords), from the same analysis. A
// query read to ext.MaxQueryTerms words (readQuery) can analyse to more
// (each identifier whole beside its parts, Chinese into pairs of characters
// and the words of its glosses); every term costs lookups, maybe a typo
// walk, and a walk of its postings in every text field.
func queryTerms(searched string) ([]string, *queryWords) {
	toks := text.Tokens(searched)
	var terms []string
	seen, han := map[string]bool{}, 0
	for _, tok := range toks {
		t := string(tok.Term)
		if seen[t] || text.HasHan(t) && han == rank.MaxSearchTerms/2 {
			continue
		}
		seen[t] = true
		if text.HasHan(t) {
			han++
		}
		if terms = append(terms, t); len(terms) == rank.MaxSearchTerms {
			break
		}
	}
	return terms, typoWords(text.TermsAsWritten(toks, searched, terms))
}

// visibilityFilter matches the items a caller with a may see: public items
// and those of its groups and scopes.
func visibilityFilter(a ext.Access) []bm25.Leaf {
	terms := accessTerms(a)
	clauses := make([]bm25.Leaf, len(terms))
	for i, t := range terms {
		clauses[i] = filterTerm(fieldVisibility, t)
	}
	return clauses
}

// filterTerm is a term that restricts matches without adding to the score.
func filterTerm(field, term string) bm25.Leaf {
	return bm25.Leaf{Field: field, Term: term}
}

// annotationFilter turns {"readOnlyHint": true} into term clauses.
func annotationFilter(a map[string]any) ([][]bm25.Leaf, error) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	clauses := make([][]bm25.Leaf, 0, len(keys))
	for _, k := range keys {
		term, ok := annotationTerm(k, a[k])
		if !ok {
			return nil, fmt.Errorf("%w: filter.annotations.%s must be a boolean, string or number", ext.ErrInvalidParams, echoName(k))
		}
		clauses = append(clauses, []bm25.Leaf{filterTerm(fieldAnnotations, term)})
	}
	return clauses, nil
}
