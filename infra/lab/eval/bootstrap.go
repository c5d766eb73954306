package eval

import (
	"math/rand/v2"
	"slices"
)

// Figures are one query's figures: recall at 1 and 5, nDCG@10, and
// whether it got no items (Empty: 1 or 0).
type Figures struct {
	R1, R5, NDCG10, Empty float64
	// RightFirst is 1 when the first item is relevant, and Hinted 1 when
	// such a page carries a hint too (Metrics.HintedRightFirst).
	RightFirst, Hinted float64
}

// PerQuery returns the figures of each result, in order.
func PerQuery(results []Result) []Figures {
	out := make([]Figures, len(results))
	for i, r := range results {
		out[i] = Figures{R1: recallAt(r, 1), R5: recallAt(r, 5), NDCG10: ndcgAt(r, 10)}
		if len(r.Ranked) == 0 {
			out[i].Empty = 1
		} else if Relevant(r.Query, r.Ranked[0]) {
			out[i].RightFirst = 1
			if r.Hint != "" {
				out[i].Hinted = 1
			}
		}
	}
	return out
}

// Delta is the change of a mean figure between two runs of the same
// queries, with its 95% interval by the paired bootstrap.
type Delta struct {
	Mean, Lo, Hi float64
}

// Significant reports whether the interval excludes no change.
func (d Delta) Significant() bool { return d.Lo > 0 || d.Hi < 0 }

// PairedBootstrap returns the mean of alt[i]-base[i] and its 95% interval:
// the 2.5th and 97.5th percentiles of the mean over rounds resamples of
// the queries with replacement, drawn from seed. Search is deterministic
// (two runs of one index give the same figures), so the only noise in a
// set's figure is which queries the set happens to hold; this interval is
// that noise.
func PairedBootstrap(base, alt []float64, rounds int, seed uint64) Delta {
	n := len(base)
	if n == 0 || n != len(alt) {
		return Delta{}
	}
	diff := make([]float64, n)
	mean := 0.0
	for i := range diff {
		diff[i] = alt[i] - base[i]
		mean += diff[i]
	}
	mean /= float64(n)
	if allZero(diff) {
		return Delta{}
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	means := make([]float64, rounds)
	for r := range means {
		sum := 0.0
		for range n {
			sum += diff[rng.IntN(n)]
		}
		means[r] = sum / float64(n)
	}
	slices.Sort(means)
	return Delta{Mean: mean, Lo: means[int(0.025*float64(rounds))], Hi: means[min(rounds-1, int(0.975*float64(rounds)))]}
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}
