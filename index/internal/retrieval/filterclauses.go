package retrieval

import (
	"fmt"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// FilterClauses are the clauses of q's kind, its filter and, unless
// seesAll, what a caller with access may see; they score nothing.
func FilterClauses(q ext.Query, seesAll bool, access ext.Access) ([][]bm25.Leaf, error) {
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
			servers[i] = filterTerm(schema.Server, s)
		}
		clauses = append(clauses, servers)
	}
	annotations, err := annotationFilter(q.Filter.Annotations)
	if err != nil {
		return nil, err
	}
	return append(clauses, annotations...), nil
}

// visibilityFilter matches the items a caller with a may see: public items
// and those of its groups and scopes.
func visibilityFilter(a ext.Access) []bm25.Leaf {
	terms := bundle.AccessTerms(a)
	clauses := make([]bm25.Leaf, len(terms))
	for i, t := range terms {
		clauses[i] = filterTerm(schema.Visibility, t)
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
		term, ok := bundle.AnnotationTerm(k, a[k])
		if !ok {
			return nil, fmt.Errorf("%w: filter.annotations.%s must be a boolean, string or number", ext.ErrInvalidParams, echoName(k))
		}
		clauses = append(clauses, []bm25.Leaf{filterTerm(schema.Annotations, term)})
	}
	return clauses, nil
}
