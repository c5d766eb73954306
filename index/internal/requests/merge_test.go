package requests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// randomItems are n tools and n/10 resources, of random requests over a
// small vocabulary (seeded): some items carry none (and get their own
// text), some several, and the words repeat within a request; between
// them n/10 prompts, none of which carries requests (nor gets its own
// text: OwnTextKinds).
func randomItems(n int) []catalog.Item {
	words := []string{"page", "screenshot", "take", "issue", "create", "list", "file", "read", "send", "mail", "query", "table"}
	rng := rand.New(rand.NewPCG(34, 1))
	var its []catalog.Item
	for i := range n + n/5 {
		it := catalog.Item{Kind: ext.KindTool, Name: fmt.Sprintf("s%d__t%d", i/7, i), Description: "does " + words[i%len(words)]}
		switch {
		case i >= n+n/10:
			it.Kind = ext.KindResource
		case i >= n:
			it.Kind = ext.KindPrompt
			its = append(its, it)
			continue
		}
		for range rng.IntN(5) {
			r := ""
			for range 1 + rng.IntN(6) {
				r += words[rng.IntN(len(words))] + " "
			}
			it.Requests = append(it.Requests, r)
		}
		its = append(its, it)
	}
	return its
}

// accumulated is what Best returned before it merged the terms' postings
// (a score a request, summed term by term, then each item's first request
// of the highest score), computed here from the postings themselves.
func accumulated(s *Search, terms []Term) []Match {
	ps, full := s.lookUp(terms)
	ps = bounded(ps, s.maxPostings)
	x := s.x
	sum := map[uint32]float64{}
	for _, tp := range ps {
		x.eachSpan(s.view, tp, func(from, to int) {
			for p := from; p < to; p++ {
				req := u32At(x.postReq, p)
				sum[req] += x.score(tp, req, p, s.avgLen)
			}
		})
	}
	reqs := slices.Sorted(func(yield func(uint32) bool) {
		for r := range sum {
			if !yield(r) {
				return
			}
		}
	})
	var out []Match
	for _, req := range reqs {
		pos := x.Item(req)
		if n := len(out); n > 0 && out[n-1].Pos == pos {
			if sum[req] > out[n-1].Score {
				out[n-1].Request, out[n-1].Score = req, sum[req]
			}
			continue
		}
		out = append(out, Match{Pos: pos, Ord: pos - int(s.head.first), Doc: u32At(x.itemDoc, pos), Request: req, Score: sum[req]})
	}
	for i := range out {
		out[i].Share = out[i].Score / full
	}
	return out
}

// TestBestIsTheAccumulatedBest: merging the terms' postings in request
// order finds, for every item, the same best request with the same score,
// to the bit, as summing every request's terms in an accumulator did;
// for callers who see every item or some, bounded or not.
func TestBestIsTheAccumulatedBest(t *testing.T) {
	its := randomItems(600)
	x := build(t, its)
	views := map[string]func(int) bool{"all": nil, "odd servers": func(ord int) bool { return ord/7%2 == 1 }, "first half": func(ord int) bool { return ord < 300 }}
	queries := [][]string{{"take screenshot page"}, {"page"}, {"list issue create file read send mail query table"}, {"nothing", "page"}, {"mail mail"}}
	for name, sees := range views {
		for _, k := range []ext.Kind{ext.KindTool, ext.KindResource} {
			var v *View
			if sees != nil {
				v = x.View(k, sees)
			}
			for _, q := range queries {
				for _, bound := range []int{0, 50} {
					got, err := x.Search(k, v, bound).Best(context.Background(), terms(q...))
					if err != nil {
						t.Fatal(err)
					}
					if want := accumulated(x.Search(k, v, bound), terms(q...)); !slices.Equal(got, want) {
						t.Errorf("%s, %s, %q, bound %d: %d matches %v\nwant %d %v", name, k, q, bound, len(got), head(got), len(want), head(want))
					}
				}
			}
		}
	}
}

func head(ms []Match) []Match { return ms[:min(len(ms), 3)] }

// TestBestKeepsNoAccumulator: what Best allocates grows with its matches,
// not with the requests of the kind: a query that matches a few requests
// of 20,000 allocates far less than an 8-byte accumulator a request.
func TestBestKeepsNoAccumulator(t *testing.T) {
	its := make([]catalog.Item, 10_000)
	for i := range its {
		its[i] = catalog.Item{Kind: ext.KindTool, Name: fmt.Sprintf("t%d", i), Requests: []string{"some words", "other words"}}
	}
	its[77].Requests = append(its[77].Requests, "a rare zebra")
	x := build(t, its)
	if _, err := x.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("zebra")); err != nil { // the full view, once
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC() // emptied pools allocate again
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ms, err := x.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("zebra"))
	runtime.ReadMemStats(&after)
	if err != nil || len(ms) != 1 {
		t.Fatalf("%d matches, %v", len(ms), err)
	}
	requests := x.Count(ext.KindTool)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(requests) {
		t.Errorf("a search of one match among %d requests allocated %d bytes, want under 1 a request", requests, got)
	}
}

// TestWholeViewIsView: the view of a caller who sees every item, made
// from the file's head, is the view a pass over every item and request
// makes, for every kind (none of whose items, the first or the last carry
// requests).
func TestWholeViewIsView(t *testing.T) {
	its := randomItems(300)
	its[0].Requests, its[len(its)-1].Requests = nil, nil
	for name, its := range map[string][]catalog.Item{"small": items(), "random": its} {
		x := build(t, its)
		for _, k := range ext.Kinds {
			if got, want := x.wholeView(k), x.View(k, nil); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: %+v, want %+v", name, k, got, want)
			}
		}
	}
}

// TestItemFrom: the item of each request, found from any item at or
// before it, is the item whose requests hold it, past items without
// requests.
func TestItemFrom(t *testing.T) {
	its := randomItems(200)
	x := build(t, its)
	for pos := range its {
		for req := u32At(x.itemFirst, pos); req < u32At(x.itemFirst, pos+1); req++ {
			for _, from := range []int{0, pos / 2, max(0, pos-1), pos} {
				if got := x.itemFrom(from, req); got != pos {
					t.Fatalf("request %d from item %d: item %d, want %d", req, from, got, pos)
				}
			}
		}
	}
	if x.Count(ext.KindPrompt) != 0 {
		t.Fatalf("%d requests of prompts, want none", x.Count(ext.KindPrompt))
	}
	if got := x.Item(uint32(x.Count(ext.KindTool) + x.Count(ext.KindResource))); got != len(its) {
		t.Errorf("a request past the file's: item %d, want %d", got, len(its))
	}
}

// TestMatchesAtMost checks the capacity bestOfItems starts from: the
// postings of every term, at most twice the most of one, at most the
// items.
func TestMatchesAtMost(t *testing.T) {
	walk := func(lens ...int) *cursor {
		c, from := &cursor{}, 0
		for _, n := range lens {
			c.spans = append(c.spans, span{from, from + n})
			from += n + 3
		}
		return c
	}
	for _, tc := range []struct {
		cs          []*cursor
		items, want int
	}{
		{nil, 100, 0},
		{[]*cursor{walk(4, 6)}, 100, 10},
		{[]*cursor{walk(10), walk(3)}, 100, 13},
		{[]*cursor{walk(10), walk(8), walk(9)}, 100, 20},
		{[]*cursor{walk(10), walk(8)}, 12, 12},
	} {
		if got := matchesAtMost(tc.cs, tc.items); got != tc.want {
			t.Errorf("matchesAtMost(%d cursors, %d items) = %d, want %d", len(tc.cs), tc.items, got, tc.want)
		}
	}
}
