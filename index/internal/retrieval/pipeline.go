package retrieval

import (
	"context"
	"fmt"

	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	fitmodel "github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// Result is what the pipeline answers a request.
type Result struct {
	// Candidates are the items found, best first: the re-ranking window
	// re-ranked, then BM25's order.
	Candidates []rank.Candidate
	// Empty is set when the no-match test finds that no item fits: the
	// page gets no items, and Hint says why.
	Empty bool
	// Hint is the no-match test's word on the best item, if any.
	Hint string
	// Query is the BM25 query searched (explanations read it); it holds
	// what Close releases.
	Query bm25.Query
	// Request is the request ranked.
	Request *Request
	// Requests are the best written request of each item a written
	// request matches (written-requests).
	Requests RequestMatches
	// Vectors says which vectors the dense step compared, when the
	// bundle has hosted ones: the hosted model's, or the word vectors and
	// why (Bundle.HostedQuery); empty otherwise.
	Vectors string
	// Decision is the line of the no-match decision the search reached
	// (nomatch.List): its rule, and whether the page is emptied.
	Decision nomatch.Decision
	// Signals are what the fit model weighed, where the decision was one
	// of its lines (named-server-fits, fit-model); nil elsewhere.
	Signals *fitmodel.Signals
}

// Rank retrieves the items of r's kind that the caller of src sees and
// filters keep (the clauses restricting kind, filter and visibility, which
// score nothing), ranks them and applies the no-match test. The caller
// closes the result.
func Rank(ctx context.Context, src Source, r *Request, filters [][]bm25.Leaf) (*Result, error) {
	x := searcher{src}
	q, terms := r.Query, r.TermStrings()
	scope, err := x.scope(q.Kind)
	if err != nil {
		return nil, err
	}
	res := &Result{Request: r, Query: bm25.Query{
		Text:        textQuery(q.Kind, r.Names, terms, r.Off),
		Filters:     filters,
		Scope:       scope,
		MaxPostings: x.maxPostings(q.Kind),
	}}
	if res.Requests, err = x.requestMatches(ctx, r); err != nil {
		return nil, err
	}
	res.Query.Bonus = requestBonus(res.Requests)
	if res.Candidates, res.Vectors, err = x.ranked(ctx, r, res.Query); err != nil {
		return nil, err
	}
	d, s, err := x.decideFit(r, res.Candidates, res.Requests)
	if err != nil {
		return nil, err
	}
	res.Empty, res.Hint, res.Decision = d.Empty, d.Hint, d
	if d.WeighedFit {
		res.Signals = s.Fit
	}
	return res, nil
}

// ranked returns the candidates of bq, the query of r's terms: BM25's
// best and the nearest by vectors, the first RerankWindow of them
// re-ranked; and which vectors the dense step compared (Result.Vectors).
func (x searcher) ranked(ctx context.Context, r *Request, bq bm25.Query) ([]rank.Candidate, string, error) {
	q, terms := r.Query, r.TermStrings()
	allowed, err := x.allowedBy(bq)
	if err != nil {
		return nil, "", err
	}
	bq.Allowed = allowed
	cands, err := x.candidates(ctx, q.Kind, bq, max(RerankWindow, q.Offset+q.Limit+1))
	if err != nil {
		return nil, "", err
	}
	cands, window, err := x.addNamedServers(ctx, q.Kind, r, bq, cands, min(len(cands), RerankWindow))
	if err != nil {
		return nil, "", err
	}
	cands, window, vectors, err := x.addDense(ctx, q.Kind, r, allowed, cands, window)
	if err != nil {
		return nil, "", err
	}
	rank.Rerank(rank.NewQuery(r.Grammar, terms, r.Off), cands, window)
	return cands, vectors, nil
}

// searcher runs the pipeline's steps over a source.
type searcher struct {
	Source
}

// allowedBy is the set of documents bq's filters let through, computed
// once for BM25 and the dense candidates; nil when bq has no filters.
func (x searcher) allowedBy(bq bm25.Query) (*bm25.Set, error) {
	if len(bq.Filters) == 0 {
		return nil, nil
	}
	r, docs, err := x.readerOfDocs()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	set, err := bm25.AllowedIn(r, bq.Scope, bq.Filters, docs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.Name(), err)
	}
	return &set, nil
}
