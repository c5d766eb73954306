package requests

import (
	"encoding/binary"
	"math/bits"

	"github.com/mcpsearch/mcpsearch/ext"
)

// View is what one caller sees of the requests of one kind: the runs of
// consecutive requests of the items it sees (a catalog restricts whole
// servers, whose items stand together, so the runs are few), and what
// BM25 counts over them — how many requests there are, their total
// length, and the items that carry one. Every count, idf and average a
// search of the view weighs is computed over it alone, as over a catalog
// of the items it holds, and no search of it walks a posting of a request
// outside it but to find where the runs begin and end (Index.View).
// A View is made once for each combination of what callers see, and is
// safe for concurrent use.
type View struct {
	kind     ext.Kind
	runs     []reqRun // ascending, disjoint, none empty
	requests int      // the requests in runs
	length   int      // their total length in terms
	items    int      // the items of the kind seen
	asked    int      // those of them that carry a written request
	own      int      // those whose requests are their own text
	// steps bounds the work of counting a term's postings in the view by
	// its runs (two binary searches a run); a term with fewer postings is
	// walked instead (visibleDocFreq).
	steps int
}

// reqRun is a run of consecutive requests [lo, hi).
type reqRun struct{ lo, hi uint32 }

// View makes the view of kind k of a caller who sees the items sees(ord)
// (ord an item's place among the items of k; nil sees every one): a pass
// over the kind's items and the requests of those it sees.
func (x *Index) View(k ext.Kind, sees func(ord int) bool) *View {
	head := x.kinds[kindIndex(k)]
	v := &View{kind: k}
	for ord := range int(head.items) {
		if sees != nil && !sees(ord) {
			continue
		}
		pos := int(head.first) + ord
		lo, hi := u32At(x.itemFirst, pos), u32At(x.itemFirst, pos+1)
		v.items++
		if hi == lo {
			continue
		}
		if x.Own(pos) {
			v.own++
		} else {
			v.asked++
		}
		v.requests += int(hi - lo)
		for req := lo; req < hi; req++ {
			v.length += int(binary.LittleEndian.Uint16(x.reqLen[2*req:]))
		}
		if n := len(v.runs); n > 0 && v.runs[n-1].hi == lo {
			v.runs[n-1].hi = hi
		} else {
			v.runs = append(v.runs, reqRun{lo, hi})
		}
	}
	v.steps = 2 * len(v.runs) * bits.Len(uint(max(1, x.kinds[kindIndex(k)].requests)))
	return v
}

// wholeView is View(k, nil), the view of a caller who sees every item,
// from the file's head alone: the kind's requests are one run, and their
// count, their total length and the items that carry requests are the
// head's (which Open checks by its CRC, and the counts against the
// items'). View(k, nil) passes over every item and every request's
// length (623,099 at 100,000 tools), which a cold start's first search
// paid.
func (x *Index) wholeView(k ext.Kind) *View {
	head := x.kinds[kindIndex(k)]
	v := &View{kind: k, items: int(head.items), requests: int(head.requests), length: int(head.length), asked: int(head.asked), own: int(head.own)}
	if lo, hi := u32At(x.itemFirst, int(head.first)), u32At(x.itemFirst, int(head.first+head.items)); hi > lo {
		v.runs = []reqRun{{lo, hi}}
	}
	v.steps = 2 * len(v.runs) * bits.Len(uint(max(1, head.requests)))
	return v
}

// Items is the number of items of the view's kind the caller sees.
func (v *View) Items() int { return v.items }

// Asked is the number of them that carry a written request.
func (v *View) Asked() int { return v.asked }

// Own is the number of them whose requests are their own text
// (OwnRequests).
func (v *View) Own() int { return v.own }

// Requests is the number of requests of the items the caller sees.
func (v *View) Requests() int { return v.requests }

// lookupCost is what Search charges for one term's count in the view,
// whichever way it is counted: the bound of counting it by the view's
// runs. It depends on the view and the bundle's size alone, never on how
// many postings the term has, so the terms a search counts exactly before
// its budget is spent are the same whatever hidden items hold.
func (v *View) lookupCost() int { return max(1, v.steps) }

// holds reports whether the view holds request req (a binary search of
// its runs).
func (v *View) holds(req uint32) bool {
	lo, hi := 0, len(v.runs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if v.runs[mid].hi <= req {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo < len(v.runs) && v.runs[lo].lo <= req
}

// eachSpan calls fn with the spans [from, to) of tp's postings that the
// view holds, in order, and returns how many postings it examined one by
// one to find them. A term of few postings (no more than the view's
// steps) is walked posting by posting; another is cut by two binary
// searches a run, examining none. Either way finding the spans costs
// about the view's steps at most, whatever the postings outside them.
func (x *Index) eachSpan(v *View, tp termPostings, fn func(from, to int)) (examined int) {
	if tp.to <= tp.from {
		return 0
	}
	if tp.to-tp.from <= v.steps {
		for p := tp.from; p < tp.to; {
			for p < tp.to && !v.holds(u32At(x.postReq, p)) {
				p++
			}
			start := p
			for p < tp.to && v.holds(u32At(x.postReq, p)) {
				p++
			}
			if p > start {
				fn(start, p)
			}
		}
		return tp.to - tp.from
	}
	postReq := x.postReq[4*tp.from : 4*tp.to]
	for _, run := range v.runs {
		from := searchReq(postReq, run.lo)
		if from == len(postReq)/4 {
			break
		}
		if to := searchReq(postReq, run.hi); to > from {
			fn(tp.from+from, tp.from+to)
		}
	}
	return 0
}
