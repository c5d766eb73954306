package index

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// BenchmarkWorstQuery searches each hostile query of worstQueries side by
// side with the ordinary mix of BenchmarkSearch, explained as it is: each
// round one ordinary request, then the hostile one. It reports the time of
// each (ordinary-µs: the mean over the mix of each request's fastest
// search; worst-µs: the hostile query's fastest), their ratio
// (x-ordinary), and what each allocates a search (ordinary-MB,
// worst-MB), at limit 10. The fastest of many rounds is the search least
// disturbed by the other work of a shared machine, which weighs more on a
// long search than on a short one.
//
//	go test ./index -run - -bench WorstQuery -benchtime 100x -cpu 1
func BenchmarkWorstQuery(b *testing.B) {
	x := defaultIndex(b)
	for _, wq := range worstQueries(b, x) {
		b.Run(wq.name, func(b *testing.B) {
			worst := ext.Query{Kind: ext.KindTool, Text: wq.text, Limit: 10, Explain: wq.explain}
			ordinary := make([]searchCosts, len(benchQueries))
			var hostile searchCosts
			runtime.GC() // what building and the last shape left is not collected while timing
			for i := 0; b.Loop(); i++ {
				ordinary[i%len(ordinary)].add(b, x, ext.Query{Kind: ext.KindTool, Text: benchQueries[i%len(benchQueries)], Limit: 10, Explain: wq.explain})
				hostile.add(b, x, worst)
			}
			o, w := mixCost(ordinary), hostile
			b.ReportMetric(o.fastest()/1e3, "ordinary-µs")
			b.ReportMetric(w.fastest()/1e3, "worst-µs")
			b.ReportMetric(w.fastest()/o.fastest(), "x-ordinary")
			b.ReportMetric(o.meanMB(), "ordinary-MB")
			b.ReportMetric(w.meanMB(), "worst-MB")
		})
	}
}

// searchCosts records the time and the bytes allocated of searches.
type searchCosts struct {
	best     time.Duration // the fastest
	searches int
	bytes    uint64
}

// add searches q and records what it cost.
func (c *searchCosts) add(b *testing.B, x *Index, q ext.Query) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	if _, err := x.Search(context.Background(), q); err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if c.searches == 0 || took < c.best {
		c.best = took
	}
	c.searches++
	c.bytes += after.TotalAlloc - before.TotalAlloc
}

// fastest is the fastest search, in nanoseconds.
func (c searchCosts) fastest() float64 { return float64(c.best) }

func (c searchCosts) meanMB() float64 {
	return float64(c.bytes) / float64(c.searches) / (1 << 20)
}

// mixCost is the cost of a mix of requests: the mean of the fastest
// searches of those searched, and their allocations together.
func mixCost(mix []searchCosts) searchCosts {
	var sum searchCosts
	var best time.Duration
	searched := 0
	for _, c := range mix {
		if c.searches > 0 {
			best += c.best
			searched++
		}
		sum.searches += c.searches
		sum.bytes += c.bytes
	}
	sum.best = best / time.Duration(max(searched, 1))
	return sum
}

// TestWorstQueryWork: what a search does with a query the limits allow is
// bounded by its words whatever their shape: the analyser reads at most
// ext.MaxQueryTerms words of the caller's text (and the whole of each
// identifier: at most twice as many terms), and correction takes at most
// retrieval.TypoQuerySteps steps and retrieval.TypoQueryLookups lookups.
func TestWorstQueryWork(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, wq := range worstQueries(t, x) {
		own := retrieval.ReadText(wq.text)
		if n := len(text.Tokens(own)); n > 2*ext.MaxQueryTerms {
			t.Errorf("%s: the analyser reads %d terms of the caller's text, want at most %d", wq.name, n, 2*ext.MaxQueryTerms)
		}
		cost := request(t, x, ext.Query{Kind: ext.KindTool, Text: wq.text}, ext.Access{All: true}).Cost
		t.Logf("%s: %d bytes read, correction %+v", wq.name, len(own), cost)
		if cost.Steps > retrieval.TypoQuerySteps || cost.Lookups > retrieval.TypoQueryLookups {
			t.Errorf("%s: correction took %d steps and %d lookups, want at most %d and %d",
				wq.name, cost.Steps, cost.Lookups, retrieval.TypoQuerySteps, retrieval.TypoQueryLookups)
		}
	}
}

// maxAllocRatio bounds how many times as many allocations as an ordinary
// request (the mean of the mix of BenchmarkSearch, explained alike) a
// search of the default catalog makes, whatever its words: a measure of
// its work that no load of the machine disturbs. Allocations run ahead of
// time (BenchmarkWorstQuery): 128 words of phrases allocate 12 times as
// often as an ordinary request and take 5 times as long. Before queries
// were read to their 128th word, an identifier of 700 parts allocated 31
// times as often.
const maxAllocRatio = 15

// TestWorstQueryAllocs: no query the limits allow makes a search allocate
// more than maxAllocRatio times as often as an ordinary request does. The
// bound holds under the race detector too (make test-race), which drops
// sync.Pool entries at random: the ordinary requests then allocate more as
// well, and the worst ratio was 7.1 (128 words of phrases).
func TestWorstQueryAllocs(t *testing.T) {
	x := defaultIndex(t)
	ordinary := map[bool]float64{}
	for _, explain := range []bool{false, true} {
		for _, request := range benchQueries {
			ordinary[explain] += searchAllocs(t, x, ext.Query{Kind: ext.KindTool, Text: request, Limit: 10, Explain: explain}) / float64(len(benchQueries))
		}
	}
	for _, wq := range worstQueries(t, x) {
		got := searchAllocs(t, x, ext.Query{Kind: ext.KindTool, Text: wq.text, Limit: 10, Explain: wq.explain})
		ratio := got / ordinary[wq.explain]
		t.Logf("%s: %.0f allocations a search, %.1f× an ordinary request", wq.name, got, ratio)
		if ratio > maxAllocRatio {
			t.Errorf("%s: %.0f allocations a search, %.1f× an ordinary request's %.0f; want at most %d×", wq.name, got, ratio, ordinary[wq.explain], maxAllocRatio)
		}
	}
}

// searchAllocs is the mean number of allocations of a search for q.
func searchAllocs(t *testing.T, x *Index, q ext.Query) float64 {
	t.Helper()
	var err error
	n := testing.AllocsPerRun(3, func() {
		if _, e := x.Search(context.Background(), q); e != nil {
			err = e
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
