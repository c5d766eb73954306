package retrieval

import (
	"context"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
)

// Filtering is what a search's filter is checked and applied with: the
// bundle's filter names and the caller's sight of it.
type Filtering struct {
	Names  *FilterNames
	Viewer sight.Viewer
	Access ext.Access
}

// NoSearchableWords is the hint of a query none of whose words is
// searched.
const NoSearchableWords = "the query has no searchable words"

// Retrieve ranks the items that r's filter keeps among those the caller
// sees: it checks the filter (an annotation no tool the caller sees
// carries is refused with -32602; a server without items of the kind it
// sees is named in the hint), turns it into clauses that score nothing,
// and ranks (Rank). A result that is Empty, with its Hint, when the query
// has no searchable words, when every server of the filter is unknown,
// when the page asked for is empty (a limit of 0), or when nothing fits.
func Retrieve(ctx context.Context, src Source, r *Request, f Filtering) (*Result, error) {
	q := r.Query
	if err := f.checkAnnotations(src, q); err != nil {
		return nil, err
	}
	unknown, err := f.unknownServers(src, q)
	if err != nil {
		return nil, err
	}
	clauses, err := FilterClauses(withKnownServers(q, unknown), f.Viewer.All(), f.Access)
	if err != nil {
		return nil, err
	}
	switch {
	case len(r.Terms) == 0:
		return &Result{Request: r, Empty: true, Hint: NoSearchableWords}, nil
	case len(unknown) > 0 && len(unknown) == len(q.Filter.Servers):
		return &Result{Request: r, Empty: true, Hint: filterHint(q, unknown, "")}, nil
	case q.Limit <= 0:
		return &Result{Request: r, Empty: true}, nil
	}
	res, err := Rank(ctx, src, r, clauses)
	if err != nil {
		return nil, err
	}
	if res.Empty {
		res.Hint = filterHint(q, unknown, res.Hint)
	}
	return res, nil
}

// withKnownServers is q with its filter's servers less those unknown to
// the caller (each once): a server that holds nothing the caller sees
// lets nothing through, so the filter needs no clause of its own for it,
// and a filter of 1,000 names, most unknown, reads the postings of the
// known ones only.
func withKnownServers(q ext.Query, unknown []unknownServer) ext.Query {
	if len(unknown) == 0 && !hasRepeats(q.Filter.Servers) {
		return q
	}
	skip := map[string]bool{}
	for _, u := range unknown {
		skip[u.name] = true
	}
	known := make([]string, 0, len(q.Filter.Servers)-len(unknown))
	for _, s := range q.Filter.Servers {
		if !skip[s] {
			known = append(known, s)
			skip[s] = true
		}
	}
	q.Filter.Servers = known
	return q
}

// hasRepeats reports whether names holds a name twice.
func hasRepeats(names []string) bool {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}
