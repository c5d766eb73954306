package requests

import (
	"cmp"
	"context"
	"encoding/binary"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Term is a term of a query and its weight (rank.TermWeight).
type Term struct {
	Text   string
	Weight float64
}

// Match is an item's best request for a query.
type Match struct {
	Pos     int     // the item's catalog position
	Ord     int     // its place among the items of its kind
	Doc     uint32  // its document number
	Request uint32  // its best request
	Score   float64 // that request's BM25 score
	// Share is Score over the query's full weight: the sum, over the
	// query's terms, of weight × idf, what a request of average length
	// holding each term once would score. 1 is every word matched.
	Share float64
}

// ctxCheckEvery is how many postings pass between checks of the deadline.
const ctxCheckEvery = 4096

// termPostings are the postings of one query term among a kind's
// requests.
type termPostings struct {
	Term
	from, to int    // its postings, indices into postReq and postTF
	lo, hi   uint32 // the requests of the kind searched
	df       int    // its postings in the caller's view
	idf      float64
}

// maxLookupSteps bounds the work a search spends counting its terms'
// postings in the caller's view (View.lookupCost a term, each term once
// a search): about a million binary-search steps, a few milliseconds. A
// caller who sees every item, or runs of a few hundred servers, never
// reaches it with the longest query and the requests the no-match test
// compares; past it, in a catalog whose visibility alternates item by
// item, every further term weighs nothing, alike.
const maxLookupSteps = 1 << 20

// Search is one search's view of the requests of a kind: what the caller
// sees of them (a View), and each term's postings and idf among them,
// looked up once however many requests the search scores, explains or
// compares (Best, Explain, Covered). It is not safe for concurrent use.
type Search struct {
	x            *Index
	head         kindHead
	reqLo, reqHi uint32
	view         *View
	maxPostings  int
	avgLen       float64
	terms        map[string]termPostings // looked up, weight 1
	spent        int                     // lookup steps charged (maxLookupSteps)
	examined     int                     // postings examined one by one to count terms in the view
}

// Search starts a search of the requests of kind k for a caller who sees
// what view holds (nil: every item); the queries it scores walk at most
// maxPostings postings of the view (0: no bound).
func (x *Index) Search(k ext.Kind, view *View, maxPostings int) *Search {
	head := x.kinds[kindIndex(k)]
	if view == nil {
		view = x.fullView(k)
	}
	s := &Search{x: x, head: head, view: view, maxPostings: maxPostings, terms: map[string]termPostings{}}
	s.reqLo, s.reqHi = u32At(x.itemFirst, int(head.first)), u32At(x.itemFirst, int(head.first+head.items))
	if view.requests > 0 {
		s.avgLen = float64(view.length) / float64(view.requests)
	}
	return s
}

// Best returns, for each item the caller sees of which a request holds a
// term of terms, its best request: the one of highest BM25 score. It walks
// at most the search's maxPostings postings: past that, the terms with the
// most postings are left out, most first, never the last; they still
// count in the query's full weight. Matches come in catalog order.
func (s *Search) Best(ctx context.Context, terms []Term) ([]Match, error) {
	if s.view.requests == 0 || len(terms) == 0 {
		return nil, nil
	}
	postings, full := s.lookUp(terms)
	postings = bounded(postings, s.maxPostings)
	return s.x.bestOfItems(ctx, s.x.cursorsOf(postings, s.view), s.avgLen, int(s.head.first), full)
}

// TermScore is the part of a request's score one query term gave.
type TermScore struct {
	Term  string
	Score float64
}

// Explain splits the score of request req for terms, as Best computes it,
// by term, each divided by the query's full weight: the parts add up to
// the request's Share.
func (s *Search) Explain(terms []Term, req uint32) []TermScore {
	if s.view.requests == 0 || req < s.reqLo || req >= s.reqHi {
		return nil
	}
	postings, full := s.lookUp(terms)
	postings = bounded(postings, s.maxPostings)
	x := s.x
	var out []TermScore
	for _, tp := range postings {
		i := tp.from + searchReq(x.postReq[4*tp.from:4*tp.to], req)
		if i < tp.to && u32At(x.postReq, i) == req {
			out = append(out, TermScore{Term: tp.Text, Score: x.score(tp, req, i, s.avgLen) / full})
		}
	}
	return out
}

// score is the BM25 score of the term of tp in request req, of posting p.
func (x *Index) score(tp termPostings, req uint32, p int, avgLen float64) float64 {
	tf := float64(x.postTF[p])
	length := float64(binary.LittleEndian.Uint16(x.reqLen[2*req:]))
	return tp.Weight * tp.idf * tf * (search.BM25_k1 + 1) /
		(tf + search.BM25_k1*(1-search.BM25_b+search.BM25_b*length/avgLen))
}

// maxCoveredTerms bounds the distinct terms of a request that Covered
// weighs (a request is at most 1 KiB: about 150 words).
const maxCoveredTerms = 64

// Covered is the share of request req's own weight (the idf, among the
// requests the caller sees, of each of its distinct terms, its first
// maxCoveredTerms) that terms hold: 1 when the query says all the request
// says. A request holding the query's words may still be about something
// else ("the receipts of my flight to Lisbon" holds "a flight to Lisbon").
func (s *Search) Covered(req uint32, terms []Term) float64 {
	if s.view.requests == 0 || req < s.reqLo || req >= s.reqHi {
		return 0
	}
	own := make([]Term, 0, 16)
	for _, t := range text.Analyze(text.Normalize(s.x.Text(req), math.MaxInt)) {
		if own = append(own, Term{Text: t, Weight: 1}); len(own) == maxCoveredTerms {
			break
		}
	}
	ps, all := s.lookUp(own)
	asked := map[string]bool{}
	for _, t := range terms {
		asked[t.Text] = true
	}
	held := 0.0
	for _, p := range ps {
		if asked[p.Text] {
			held += p.idf
		}
	}
	if all == 0 {
		return 0
	}
	return held / all
}

// ItemsHolding counts the items of the view's kind that the caller sees
// (view; nil sees all) of which a request holds term, walking the term's
// postings in the view only.
func (x *Index) ItemsHolding(k ext.Kind, term string, view *View) int {
	if view == nil {
		view = x.fullView(k)
	}
	head := x.kinds[kindIndex(k)]
	i, ok := x.term(term)
	if !ok || view.requests == 0 {
		return 0
	}
	tp := x.postingsOf(i, u32At(x.itemFirst, int(head.first)), u32At(x.itemFirst, int(head.first+head.items)))
	n, last := 0, -1
	x.eachSpan(view, tp, func(from, to int) {
		for p := from; p < to; p++ {
			req, ok := x.request(tp, p)
			if !ok {
				continue
			}
			if pos := x.Item(req); pos != last {
				n++
				last = pos
			}
		}
	})
	return n
}

// postingsOf are the postings of the i-th term among the requests
// [lo, hi).
func (x *Index) postingsOf(i int, lo, hi uint32) termPostings {
	from, to := int(u32At(x.postOff, i)), int(u32At(x.postOff, i+1))
	return termPostings{
		from: from + searchReq(x.postReq[4*from:4*to], lo), to: from + searchReq(x.postReq[4*from:4*to], hi),
		lo: lo, hi: hi,
	}
}

// lookUp finds each term's postings among the kind's requests and its idf
// among the requests the caller sees (each term once a search), and
// returns those a request holds with the query's full weight (the sum of
// weight × idf over every term).
func (s *Search) lookUp(terms []Term) ([]termPostings, float64) {
	out := make([]termPostings, 0, len(terms))
	full := 0.0
	for _, t := range terms {
		tp, ok := s.terms[t.Text]
		if !ok {
			tp = s.term(t.Text)
			s.terms[t.Text] = tp
		}
		tp.Weight = t.Weight
		full += t.Weight * tp.idf
		if tp.to > tp.from {
			out = append(out, tp)
		}
	}
	return out, full
}

// term looks term up: its postings among the kind's requests, and its idf
// among the requests the caller sees (0 postings when the caller sees no
// request holding it, or when the search has spent its maxLookupSteps:
// then the term weighs nothing, as every term past the bound does).
func (s *Search) term(term string) termPostings {
	x := s.x
	tp := termPostings{lo: s.reqLo, hi: s.reqHi}
	if i, ok := x.term(term); ok {
		tp = x.postingsOf(i, s.reqLo, s.reqHi)
	}
	tp.Term = Term{Text: term, Weight: 1}
	if s.spent += s.view.lookupCost(); s.spent > maxLookupSteps {
		tp.to = tp.from
		return tp
	}
	tp.df = s.viewDocFreq(tp)
	tp.idf = math.Log(1 + (float64(s.view.requests)-float64(tp.df)+0.5)/(float64(tp.df)+0.5))
	if tp.df == 0 {
		tp.to = tp.from
	}
	return tp
}

// viewDocFreq counts the postings of tp that the caller's view holds.
func (s *Search) viewDocFreq(tp termPostings) int {
	df := 0
	s.examined += s.x.eachSpan(s.view, tp, func(from, to int) { df += to - from })
	return df
}

// request is the request of posting p of tp, if it is one of the kind's.
// Open does not check the request of every posting (4.7 million at
// 100,000 tools; see check), so a damaged file's posting that names a
// request outside the kind's, or out of order, is skipped here: no request
// number read from a posting indexes past what the file holds or into
// another kind's requests.
func (x *Index) request(tp termPostings, p int) (uint32, bool) {
	req := u32At(x.postReq, p)
	return req, req >= tp.lo && req < tp.hi
}

// searchReq is the first place in postReq (ascending request numbers) of
// a request ≥ req.
func searchReq(postReq []byte, req uint32) int {
	n := len(postReq) / 4
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if binary.LittleEndian.Uint32(postReq[4*mid:]) < req {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// bounded leaves out the terms with the most postings in the caller's
// view, most first, until the rest fit maxPostings (0: no bound); never
// the last term.
func bounded(ps []termPostings, maxPostings int) []termPostings {
	total := 0
	for _, p := range ps {
		total += p.df
	}
	if maxPostings <= 0 || total <= maxPostings {
		return ps
	}
	byCount := slices.Clone(ps)
	slices.SortStableFunc(byCount, func(a, b termPostings) int { return cmp.Compare(b.df, a.df) })
	left := map[string]bool{}
	for _, p := range byCount[:len(byCount)-1] {
		if total <= maxPostings {
			break
		}
		left[p.Text] = true
		total -= p.df
	}
	return slices.DeleteFunc(ps, func(p termPostings) bool { return left[p.Text] })
}
