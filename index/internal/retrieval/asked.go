package retrieval

import (
	"context"
	"math"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Written requests (written-requests): what people ask for when they need
// an item, written for it in its catalog entry (catalog.Item.Requests),
// are evidence of their own. Each request is matched as a document of its
// own and an item counts its best one (package requests), so that an
// item's six requests do not add up their words; its share of the query's
// weight, times rank.RequestWeight, adds to the item's BM25 score, and an
// item that only its requests match joins the candidates.

// RequestMatch is an item's best-matching written request.
type RequestMatch struct {
	Text  string  `json:"text"`  // the request, as written
	Share float64 `json:"share"` // the share of the query's weight it holds (requests.Match)
	// Terms split what the request added to the BM25 score by query term.
	Terms []TermMatch `json:"-"`
}

// RequestField is what an explanation calls the part of the BM25 score an
// item's best written request added.
const RequestField = "written request"

// addRequest shows m, the item's best written request, and its part of the
// BM25 score as a field of its own, so that the fields still add up to it.
func (e *Explanation) addRequest(m RequestMatch) {
	e.Request = &RequestMatch{Text: m.Text, Share: round3(m.Share)}
	byField := map[string]*FieldMatch{}
	for _, t := range m.Terms {
		addTerm(byField, RequestField, t.Term, t.Score)
	}
	e.Fields = append(e.Fields, sortedFields(byField)...)
	slices.SortFunc(e.Fields, func(a, b FieldMatch) int { return byScore(a.Score, b.Score, a.Field, b.Field) })
}

// requestMatches returns each item's best written request for r, among
// the items the caller sees, by document id; none when the rule is off.
func (x searcher) requestMatches(ctx context.Context, r *Request) (map[string]requests.Match, error) {
	idx := x.Requests()
	if !r.Off.On(rules.WrittenRequests) || idx == nil {
		return nil, nil
	}
	kind := r.Query.Kind
	ms, err := idx.Best(ctx, kind, requestTerms(r), x.seesOf(kind), x.maxPostings(kind))
	if err != nil {
		return nil, err
	}
	out := make(map[string]requests.Match, len(ms))
	for _, m := range ms {
		out[schema.DocID(kind, m.Ord)] = m
	}
	return out, nil
}

// requestTerms are the terms of r as the written requests weigh them.
func requestTerms(r *Request) []requests.Term {
	terms := make([]requests.Term, len(r.Terms))
	for i, t := range r.Terms {
		terms[i] = requests.Term{Text: t.Term, Weight: rank.TermWeight(t.Term, r.Off)}
	}
	return terms
}

// seesOf is Sees for the items of kind k, nil when the caller sees all.
func (x searcher) seesOf(k ext.Kind) func(ord int) bool {
	if x.SeesAll() {
		return nil
	}
	return func(ord int) bool { return x.Sees(k, ord) }
}

// requestBonus is what the items' best requests add to their BM25 scores.
func requestBonus(ms map[string]requests.Match) []bm25.Bonus {
	out := make([]bm25.Bonus, 0, len(ms))
	for _, m := range ms {
		out = append(out, bm25.Bonus{Doc: m.Doc, Score: rank.RequestWeight * m.Share})
	}
	return out
}

// addRequestTerms marks held the terms of alternatives that the best
// written request of the item id holds (asked), when that request holds
// rank.RequestFitShare of the query's weight (request-fit): for the
// no-match test and its hints, such an item holds what its own text or
// that request holds.
func (x searcher) addRequestTerms(held map[string]bool, asked map[string]requests.Match, id string, alternatives []Term) {
	m, ok := asked[id]
	if !ok || m.Share < rank.RequestFitShare {
		return
	}
	words := map[string]bool{}
	for _, w := range text.Analyze(text.Normalize(x.Requests().Text(m.Request), math.MaxInt)) {
		words[w] = true
	}
	for _, t := range alternatives {
		if words[t.Term] {
			held[t.Term] = true
		}
	}
}

// matchOf is the best written request of the item id, as explanations
// show it: its text, its share of the query's weight and what each term
// of the query added through it.
func (res *Result) matchOf(src Source, id string) (RequestMatch, bool) {
	m, ok := res.Requests[id]
	if !ok || res.Request == nil {
		return RequestMatch{}, false
	}
	x, kind := searcher{src}, res.Request.Query.Kind
	out := RequestMatch{Text: src.Requests().Text(m.Request), Share: m.Share}
	for _, ts := range src.Requests().Explain(kind, requestTerms(res.Request), x.seesOf(kind), x.maxPostings(kind), m.Request) {
		out.Terms = append(out.Terms, TermMatch{Term: ts.Term, Score: rank.RequestWeight * ts.Score})
	}
	return out, true
}

