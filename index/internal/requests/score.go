package requests

import (
	"cmp"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"sync"

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
	idf      float64
}

// Search is one search's view of the requests of a kind: what the caller
// sees of them, counted once, and each term's postings and idf among them,
// looked up once however many requests the search scores, explains or
// compares (Best, Explain, Covered). It is not safe for concurrent use.
type Search struct {
	x            *Index
	head         kindHead
	reqLo, reqHi uint32
	sees         func(ord int) bool
	visible      int // requests of the items the caller sees
	maxPostings  int
	avgLen       float64
	terms        map[string]termPostings // looked up, weight 1
	walked       int                     // postings walked to count what the caller sees
}

// Search starts a search of the requests of kind k for a caller who sees
// the items sees(ord) of k (ord an item's place among the items of k; nil
// sees all); the queries it scores walk at most maxPostings postings (0:
// no bound).
func (x *Index) Search(k ext.Kind, sees func(ord int) bool, maxPostings int) *Search {
	head := x.kinds[kindIndex(k)]
	s := &Search{x: x, head: head, sees: sees, maxPostings: maxPostings, terms: map[string]termPostings{}}
	s.reqLo, s.reqHi = u32At(x.itemFirst, int(head.first)), u32At(x.itemFirst, int(head.first+head.items))
	if head.requests > 0 {
		s.visible = x.visibleRequests(head, sees)
		s.avgLen = float64(head.length) / float64(head.requests)
	}
	return s
}

// Best returns, for each item the caller sees of which a request holds a
// term of terms, its best request: the one of highest BM25 score. It walks
// at most the search's maxPostings postings: past that, the terms with the
// most postings are left out, most first, never the last; they still
// count in the query's full weight. Matches come in catalog order.
func (s *Search) Best(ctx context.Context, terms []Term) ([]Match, error) {
	if s.head.requests == 0 || len(terms) == 0 {
		return nil, nil
	}
	postings, full := s.lookUp(terms)
	postings = bounded(postings, s.maxPostings)
	acc := getScratch(int(s.reqHi - s.reqLo))
	defer putScratch(acc)
	if err := s.x.accumulate(ctx, acc, postings, s.reqLo, s.avgLen, s.head, s.sees); err != nil {
		return nil, err
	}
	return s.x.bestOfItems(acc, s.reqLo, int(s.head.first), full), nil
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
	if s.head.requests == 0 || req < s.reqLo || req >= s.reqHi {
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
	if s.head.requests == 0 || req < s.reqLo || req >= s.reqHi {
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

// ItemsHolding counts the items of kind k that the caller sees (sees; nil
// sees all) of which a request holds term.
func (x *Index) ItemsHolding(k ext.Kind, term string, sees func(ord int) bool) int {
	head := x.kinds[kindIndex(k)]
	i, ok := x.term(term)
	if !ok || head.requests == 0 {
		return 0
	}
	reqLo, reqHi := u32At(x.itemFirst, int(head.first)), u32At(x.itemFirst, int(head.first+head.items))
	from, to := int(u32At(x.postOff, i)), int(u32At(x.postOff, i+1))
	tp := termPostings{from: from + searchReq(x.postReq[4*from:4*to], reqLo), to: from + searchReq(x.postReq[4*from:4*to], reqHi), lo: reqLo, hi: reqHi}
	n, last := 0, -1
	for p := tp.from; p < tp.to; p++ {
		req, ok := x.request(tp, p)
		if !ok {
			continue
		}
		pos := x.Item(req)
		if pos != last && (sees == nil || sees(pos-int(head.first))) {
			n++
			last = pos
		}
	}
	return n
}

// visibleRequests counts the requests of the items of head that the
// caller sees.
func (x *Index) visibleRequests(head kindHead, sees func(int) bool) int {
	if sees == nil {
		return int(head.requests)
	}
	n := 0
	for ord := range int(head.items) {
		if sees(ord) {
			pos := int(head.first) + ord
			n += int(u32At(x.itemFirst, pos+1) - u32At(x.itemFirst, pos))
		}
	}
	return n
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
// request holding it).
func (s *Search) term(term string) termPostings {
	x := s.x
	tp := termPostings{Term: Term{Text: term, Weight: 1}, lo: s.reqLo, hi: s.reqHi}
	if i, ok := x.term(term); ok {
		from, to := int(u32At(x.postOff, i)), int(u32At(x.postOff, i+1))
		tp.from = from + searchReq(x.postReq[4*from:4*to], s.reqLo)
		tp.to = from + searchReq(x.postReq[4*from:4*to], s.reqHi)
	}
	df := s.visibleDocFreq(tp)
	tp.idf = math.Log(1 + (float64(s.visible)-float64(df)+0.5)/(float64(df)+0.5))
	if df == 0 {
		tp.to = tp.from
	}
	return tp
}

// visibleDocFreq counts the requests holding tp's term among those the
// caller sees. For a caller who does not see every item that walks the
// term's postings, and a search walks at most its maxPostings of them for
// all its terms together: past that budget a term's count is that of
// every request (at most the requests the caller sees), so that the worst
// query — 48 terms, then 64 of each request compared — costs no more than
// the bound its scoring has; a word common enough to pass it tells
// nothing of any one item.
func (s *Search) visibleDocFreq(tp termPostings) int {
	n := tp.to - tp.from
	if s.sees == nil {
		return n
	}
	if s.maxPostings > 0 && s.walked+n > s.maxPostings {
		return min(n, s.visible)
	}
	s.walked += n
	return s.x.visiblePostings(tp, s.head, s.sees)
}

// visiblePostings counts the postings of tp whose item the caller sees.
func (x *Index) visiblePostings(tp termPostings, head kindHead, sees func(int) bool) int {
	if sees == nil {
		return tp.to - tp.from
	}
	df := 0
	for p := tp.from; p < tp.to; p++ {
		if req, ok := x.request(tp, p); ok && sees(x.Item(req)-int(head.first)) {
			df++
		}
	}
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

// bounded leaves out the terms with the most postings, most first, until
// the rest fit maxPostings (0: no bound); never the last term.
func bounded(ps []termPostings, maxPostings int) []termPostings {
	total := 0
	for _, p := range ps {
		total += p.to - p.from
	}
	if maxPostings <= 0 || total <= maxPostings {
		return ps
	}
	byCount := slices.Clone(ps)
	slices.SortStableFunc(byCount, func(a, b termPostings) int { return cmp.Compare(b.to-b.from, a.to-a.from) })
	left := map[string]bool{}
	for _, p := range byCount[:len(byCount)-1] {
		if total <= maxPostings {
			break
		}
		left[p.Text] = true
		total -= p.to - p.from
	}
	return slices.DeleteFunc(ps, func(p termPostings) bool { return left[p.Text] })
}

// accumulate adds each posting's BM25 score to its request's.
func (x *Index) accumulate(ctx context.Context, acc *scratch, ps []termPostings, reqLo uint32, avgLen float64, head kindHead, sees func(int) bool) error {
	walked := 0
	for _, tp := range ps {
		for p := tp.from; p < tp.to; p++ {
			if walked++; walked%ctxCheckEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			req, ok := x.request(tp, p)
			if !ok || sees != nil && !sees(x.Item(req)-int(head.first)) {
				continue
			}
			score := x.score(tp, req, p, avgLen)
			at := req - reqLo
			if acc.sum[at] == 0 {
				acc.touched = append(acc.touched, at)
			}
			acc.sum[at] += score
		}
	}
	return nil
}

// bestOfItems keeps each item's best request, in catalog order.
func (x *Index) bestOfItems(acc *scratch, reqLo uint32, first int, full float64) []Match {
	slices.Sort(acc.touched)
	var out []Match
	for _, at := range acc.touched {
		req := reqLo + at
		pos := x.Item(req)
		score := acc.sum[at]
		if len(out) > 0 && out[len(out)-1].Pos == pos {
			if m := &out[len(out)-1]; score > m.Score {
				m.Request, m.Score = req, score
			}
			continue
		}
		out = append(out, Match{Pos: pos, Ord: pos - first, Doc: u32At(x.itemDoc, pos), Request: req, Score: score})
	}
	for i := range out {
		out[i].Share = out[i].Score / full
	}
	return out
}

// scratch holds one search's accumulators, one a request of the kind.
type scratch struct {
	sum     []float64
	touched []uint32
}

var scratchPool sync.Pool

func getScratch(n int) *scratch {
	if s, ok := scratchPool.Get().(*scratch); ok && len(s.sum) >= n {
		return s
	}
	return &scratch{sum: make([]float64, n)}
}

// putScratch zeroes what a search left and pools the accumulators.
func putScratch(s *scratch) {
	for _, at := range s.touched {
		s.sum[at] = 0
	}
	s.touched = s.touched[:0]
	scratchPool.Put(s)
}
