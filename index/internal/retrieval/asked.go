package retrieval

import (
	"cmp"
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
// weight, times requestWeight, adds to the item's BM25 score, and an
// item that only its requests match joins the candidates.

// RequestMatch is an item's best-matching written request.
type RequestMatch struct {
	Text  string  `json:"text"`  // the request, as written
	Share float64 `json:"share"` // the share of the query's weight it holds (requests.Match)
	// Own: the request is the item's own text (own-text), not written
	// for it.
	Own bool `json:"own,omitempty"`
	// Terms split what the request added to the BM25 score by query term.
	Terms []TermMatch `json:"-"`
}

// RequestField and ServerRequestField are what an explanation calls the
// parts of the BM25 score an item's best written request added, and the
// lift of its server (server-requests).
const (
	RequestField       = "written request"
	ServerRequestField = "server's requests"
)

// addRequest shows m, the item's best written request (field
// RequestField), or the request that lifted its server (field
// ServerRequestField), and its part of the BM25 score as a field of its
// own, so that the fields still add up to it.
func (e *Explanation) addRequest(field string, m RequestMatch) {
	shown := &RequestMatch{Text: m.Text, Share: round3(m.Share), Own: m.Own}
	if field == RequestField {
		e.Request = shown
	} else {
		e.ServerRequest = shown
	}
	byField := map[string]*FieldMatch{}
	for _, t := range m.Terms {
		addTerm(byField, field, t.Term, t.Score)
	}
	e.Fields = append(e.Fields, sortedFields(byField)...)
	slices.SortFunc(e.Fields, func(a, b FieldMatch) int { return byScore(a.Score, b.Score, a.Field, b.Field) })
}

// RequestMatches are the best written requests of the items of one kind
// that a query's words match, in catalog order, and the search of the
// requests that found them (what the caller sees of them, each term
// looked up once), which explanations and the no-match test read again.
type RequestMatches struct {
	list   []requests.Match
	search *requests.Search
}

// Of is the best request of the item of document id, if one matched: a
// search of the matches, by the item's place among its kind's, which
// needs no table of ids however many matched.
func (ms RequestMatches) Of(id string) (requests.Match, bool) {
	_, ord, ok := schema.ParseDocID(id)
	if !ok {
		return requests.Match{}, false
	}
	i, found := slices.BinarySearchFunc(ms.list, ord, func(m requests.Match, ord int) int { return cmp.Compare(m.Ord, ord) })
	if !found {
		return requests.Match{}, false
	}
	return ms.list[i], true
}

// requestMatches returns each item's best written request for r, among
// the items the caller sees; none when the rule is off.
func (x searcher) requestMatches(ctx context.Context, r *Request) (RequestMatches, error) {
	idx := x.Requests()
	kind := r.Query.Kind
	if !r.Off.On(rules.WrittenRequests) || idx == nil || x.writtenAsked(kind) == 0 {
		return RequestMatches{}, nil
	}
	s := idx.Search(kind, x.RequestView(kind), x.maxPostings(kind))
	list, err := s.Best(ctx, requestTerms(r))
	if !r.Off.On(rules.OwnText) {
		list = slices.DeleteFunc(list, func(m requests.Match) bool { return idx.Own(m.Pos) })
	}
	return RequestMatches{list: list, search: s}, err
}

// writtenAsked counts the items of kind the caller sees that carry
// written requests. Where it sees none, the requests are not read at all,
// not even the items' own text (own-text), and search is what it was
// before requests: an item's own text as its request is there to make the
// items without requests compete with those that have them on equal
// terms, and where none has any, the own text would only count the
// item's words twice (metatool, all items' own text read: R@1 .445 →
// .432 with the no-match models off).
func (x searcher) writtenAsked(kind ext.Kind) int {
	idx := x.Requests()
	if idx == nil {
		return 0
	}
	if v := x.RequestView(kind); v != nil {
		return v.Asked()
	}
	return idx.ItemsWithRequests(kind)
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
func requestBonus(ms RequestMatches) []bm25.Bonus {
	out := make([]bm25.Bonus, 0, len(ms.list))
	for _, m := range ms.list {
		out = append(out, bm25.Bonus{Doc: m.Doc, Score: requestWeight * m.Share})
	}
	return out
}

// addRequestTerms marks held the terms of alternatives that the best
// written request of the item id holds (asked), when that request holds
// requestFitShare of the query's weight and the query
// requestFitCovered of the request's (request-fit): the two say the
// same thing, and for the no-match test and its hints the item holds what
// its own text or that request holds.
func (x searcher) addRequestTerms(kind ext.Kind, terms []requests.Term, held map[string]bool, asked RequestMatches, id string, alternatives []Term) {
	m, ok := asked.Of(id)
	if !ok || m.Share < requestFitShare || asked.search.Covered(m.Request, terms) < requestFitCovered {
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
	m, ok := res.Requests.Of(id)
	if !ok || res.Request == nil {
		return RequestMatch{}, false
	}
	out := res.explainRequest(src, m.Request, m.Share, requestWeight)
	out.Own = src.Requests().Own(m.Pos)
	return out, true
}

// serverMatchOf is the request that lifted the server of the item id, when
// it was lifted (server-requests), as explanations show it.
func (res *Result) serverMatchOf(src Source, id string) (RequestMatch, bool) {
	_, ord, ok := schema.ParseDocID(id)
	if !ok || len(res.Servers) == 0 || res.Request == nil {
		return RequestMatch{}, false
	}
	first, _ := src.Requests().Items(res.Request.Query.Kind)
	s, ok := res.Servers[src.Requests().ServerOf(first+ord)]
	if !ok {
		return RequestMatch{}, false
	}
	out := res.explainRequest(src, s.Request, s.Share, serverRequestWeight)
	out.Own = src.Requests().Own(s.pos)
	return out, true
}

// explainRequest is request req, of share share, weighed by weight, with
// what each term of the query added through it.
func (res *Result) explainRequest(src Source, req uint32, share, weight float64) RequestMatch {
	out := RequestMatch{Text: src.Requests().Text(req), Share: share}
	for _, ts := range res.Requests.search.Explain(requestTerms(res.Request), req) {
		out.Terms = append(out.Terms, TermMatch{Term: ts.Term, Score: weight * ts.Score})
	}
	return out
}

// LiftedServer is a server whose items' written requests fit the query
// (server-requests): every item of it the caller sees is lifted by
// serverRequestWeight times Share.
type LiftedServer struct {
	Share float64
	// Request is the request, of one of its items, that gave the share.
	Request uint32
	pos     int // the catalog position of that item
}

// liftedServers returns the servers whose items' requests fit the query
// (server-requests), by server (requests.Index.ServerOf): a server's
// share is the best share of its items' best requests, and the
// maxLiftedServers servers of the highest share are lifted when it is
// minServerShare or more. A request that names a product ("in our
// Airtable base") or only describes it lifts the product's other items
// too, though their own requests do not say it. The shares are of the
// items the caller sees (requests.Search.Best).
func (x searcher) liftedServers(ms RequestMatches, off rules.Set) map[int]LiftedServer {
	idx := x.Requests()
	if idx == nil || !off.On(rules.ServerRequests) || len(ms.list) == 0 {
		return nil
	}
	best := map[int]requests.Match{}
	for _, m := range ms.list {
		s := idx.ServerOf(m.Pos)
		if b, ok := best[s]; !ok || m.Share > b.Share || m.Share == b.Share && m.Pos < b.Pos {
			best[s] = m
		}
	}
	top := make([]int, 0, len(best))
	for s, m := range best {
		if m.Share >= minServerShare {
			top = append(top, s)
		}
	}
	slices.SortFunc(top, func(a, b int) int {
		if c := cmp.Compare(best[b].Share, best[a].Share); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := map[int]LiftedServer{}
	for _, s := range top[:min(len(top), maxLiftedServers)] {
		out[s] = LiftedServer{Share: best[s].Share, Request: best[s].Request, pos: best[s].Pos}
	}
	return out
}

// serverBonus is the lift of the items the caller sees of the lifted
// servers. A catalog holds the items of a kind by server, so each
// server's are the run around the item that lifted it: the walk costs the
// server's items, not the kind's.
func (x searcher) serverBonus(kind ext.Kind, lifted map[int]LiftedServer) []bm25.Bonus {
	if len(lifted) == 0 {
		return nil
	}
	idx := x.Requests()
	first, end := idx.Items(kind)
	sees := x.seesOf(kind)
	var out []bm25.Bonus
	for server, s := range lifted {
		from, to := s.pos, s.pos+1
		for from > first && idx.ServerOf(from-1) == server {
			from--
		}
		for to < end && idx.ServerOf(to) == server {
			to++
		}
		for pos := from; pos < to; pos++ {
			if sees == nil || sees(pos-first) {
				out = append(out, bm25.Bonus{Doc: idx.DocOf(pos), Score: serverRequestWeight * s.Share})
			}
		}
	}
	return out
}
