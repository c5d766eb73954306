package requests

import (
	"context"
)

// Best walks the postings of a query's terms together, in the order of
// their requests (a merge of the terms' ascending lists), so that each
// request's score is complete when the walk leaves it and each item's
// best request is known when the walk leaves the item: no accumulator a
// request of the kind, and no sort of the requests touched. A search at
// 100,000 tools (623,099 requests) used to zero and write into 5 MB of
// accumulators and sort the requests it touched; a cold start paid the
// pages of both.

// span is a run [from, to) of a term's postings, indices into postReq.
type span struct{ from, to int }

// cursor walks the postings of one term of a search, those in the
// caller's view (its spans), in ascending request order.
type cursor struct {
	term    int // its place among the search's terms: requests sum their terms' scores in that order
	tp      termPostings
	spans   []span // none empty
	si, p   int    // the span and the posting it stands at
	req     uint32 // that posting's request
	started bool
}

// cursorsOf returns a cursor standing at the first posting of each term
// of ps in view, leaving out the terms it holds none of.
func (x *Index) cursorsOf(ps []termPostings, view *View) []*cursor {
	out := make([]*cursor, 0, len(ps))
	for i, tp := range ps {
		c := &cursor{term: i, tp: tp}
		x.eachSpan(view, tp, func(from, to int) { c.spans = append(c.spans, span{from, to}) })
		if len(c.spans) == 0 {
			continue
		}
		c.p = c.spans[0].from - 1
		if x.next(c) {
			out = append(out, c)
		}
	}
	return out
}

// next moves c to its next posting; false at the end of its spans. A
// posting whose request is not one of the kind's, or does not ascend past
// the one before, is skipped: a damaged file's (Open checks not every
// posting; see request).
func (x *Index) next(c *cursor) bool {
	for {
		c.p++
		for c.p >= c.spans[c.si].to {
			if c.si++; c.si == len(c.spans) {
				return false
			}
			c.p = c.spans[c.si].from
		}
		req, ok := x.request(c.tp, c.p)
		if !ok || c.started && req <= c.req {
			continue
		}
		c.req, c.started = req, true
		return true
	}
}

// merge walks the cursors' postings in the order of their requests and
// calls emit with each request that holds a term and its score, the sum
// of its terms' scores in the order of the terms. It checks ctx every
// ctxCheckEvery postings.
func (x *Index) merge(ctx context.Context, cs []*cursor, avgLen float64, emit func(req uint32, score float64)) error {
	h := cursorHeap(cs)
	h.init()
	walked := 0
	for len(h) > 0 {
		req, score := h[0].req, 0.0
		for len(h) > 0 && h[0].req == req {
			if walked++; walked%ctxCheckEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			c := h[0]
			score += x.score(c.tp, req, c.p, avgLen)
			if x.next(c) {
				h.down(0)
			} else {
				h = h.popFirst()
			}
		}
		emit(req, score)
	}
	return nil
}

// bestOfItems keeps each item's best request among those merge emits, in
// catalog order: the first of the highest score.
func (x *Index) bestOfItems(ctx context.Context, cs []*cursor, avgLen float64, first int, full float64) ([]Match, error) {
	out := make([]Match, 0, matchesAtMost(cs, len(x.itemDoc)/4))
	pos := first
	err := x.merge(ctx, cs, avgLen, func(req uint32, score float64) {
		pos = x.itemFrom(pos, req)
		if n := len(out); n > 0 && out[n-1].Pos == pos {
			if m := &out[n-1]; score > m.Score {
				m.Request, m.Score = req, score
			}
			return
		}
		out = append(out, Match{Pos: pos, Ord: pos - first, Doc: u32At(x.itemDoc, pos), Request: req, Score: score})
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Share = out[i].Score / full
	}
	return out, nil
}

// matchesAtMost is the capacity of bestOfItems' answer: the items the
// cursors' postings can match (one an item, at most the postings of every
// term together), but no more than twice the postings of the term with
// the most, so that a query of many words that share their requests
// allocates little more than it keeps; past that the answer grows as
// appending grows it. Appending from nothing, at 100,000 tools a search of
// 11,721 matches allocated 2.4 MB, which a cold start pages in.
func matchesAtMost(cs []*cursor, items int) int {
	sum, most := 0, 0
	for _, c := range cs {
		n := 0
		for _, s := range c.spans {
			n += s.to - s.from
		}
		sum, most = sum+n, max(most, n)
	}
	return min(sum, 2*most, items)
}

// cursorHeap is a min-heap of cursors by request, then term.
type cursorHeap []*cursor

func (h cursorHeap) less(i, j int) bool {
	if h[i].req != h[j].req {
		return h[i].req < h[j].req
	}
	return h[i].term < h[j].term
}

func (h cursorHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down moves the cursor at i down to its place.
func (h cursorHeap) down(i int) {
	for {
		least := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h) && h.less(c, least) {
				least = c
			}
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// popFirst removes the least cursor.
func (h cursorHeap) popFirst() cursorHeap {
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	h.down(0)
	return h
}
