package train

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mcpsearch/mcpsearch/index"
)

// FitModelFile is where the embedded fit model lives in the repository,
// which mcpsearch-lab fitmodel writes.
const FitModelFile = "index/internal/fit/model.json"

// Fit trains the fit model of the no-match test on the signals of x's
// searches, as a caller who sees every item: of fits, requests some item
// fits, and of misfits, requests none fits. Requests whose search the
// model is not asked about (no word found, an unread Chinese or Japanese
// query, a bundle whose items carry no requests) are left out. It returns
// the model file and how many of each were used.
func Fit(ctx context.Context, x *index.Index, fits, misfits []string) ([]byte, int, int, error) {
	return FitOver(ctx, x, nil, fits, misfits)
}

// FitOver trains the fit model as Fit does on x, the catalog as shipped,
// and sets its threshold for searches whose first items mostly compete by
// their own text (OwnThreshold) on the fits of those searches over x and
// over mixed, the same catalog with the requests of some of its servers
// removed: EmptiedShare of them fall below it, as of the others below
// Threshold. Without such searches it is Threshold.
func FitOver(ctx context.Context, x *index.Index, mixed []*index.Index, fits, misfits []string) ([]byte, int, int, error) {
	fs, err := fitSignals(ctx, x, fits)
	if err != nil {
		return nil, 0, 0, err
	}
	ms, err := fitSignals(ctx, x, misfits)
	if err != nil {
		return nil, 0, 0, err
	}
	if len(fs) == 0 || len(ms) == 0 {
		return nil, 0, 0, fmt.Errorf("the fit model is asked about %d of the fitting and %d of the other requests; want some of each (do the items carry written requests?)", len(fs), len(ms))
	}
	own := ownWindowFits(fs)
	for _, y := range mixed {
		more, err := fitSignals(ctx, y, fits)
		if err != nil {
			return nil, 0, 0, err
		}
		own = append(own, ownWindowFits(more)...)
	}
	return withOwnThreshold(fitModel(fs, ms), own).Encode(), len(fs), len(ms), nil
}

// withOwnThreshold returns m with its OwnThreshold where EmptiedShare of
// own, the signals of fits whose first items mostly compete by their own
// text, fall below it; without any, the model's Threshold.
func withOwnThreshold(m index.FitModel, own []index.FitSignals) index.FitModel {
	m.OwnThreshold = m.Threshold
	if len(own) > 0 && !math.IsInf(m.Threshold, -1) {
		m.OwnThreshold = threshold(m, own)
	}
	return m
}

// ownWindowFits are the signals of fits whose searches' first items
// mostly compete by their own text.
func ownWindowFits(fits []index.FitSignals) []index.FitSignals {
	var out []index.FitSignals
	for _, s := range fits {
		if s.OwnWindow {
			out = append(out, s)
		}
	}
	return out
}

// fitSignals are the fit model's signals of the tool searches of texts
// that it is asked about.
func fitSignals(ctx context.Context, x *index.Index, texts []string) ([]index.FitSignals, error) {
	var out []index.FitSignals
	for _, text := range texts {
		s, asked, err := x.FitSignalsOfSearch(ctx, text)
		if err != nil {
			return nil, err
		}
		if asked {
			out = append(out, s)
		}
	}
	return out, nil
}

// The fit model's training (logistic): full-batch gradient descent
// on the logistic loss over the standardised signals, each class weighed
// so that both count alike, with a little L2.
const (
	fitEpochs       = 400
	fitLearningRate = 1.0
	fitL2           = 1e-3
)

// EmptiedShare is the share of the training's requests some item fits
// that the threshold may give no items: about the dev halves' emptied rate
// with the rules before the model (.014; .007 and .000 on everyday's and
// fresh's dev halves once request frames are stripped, which the share
// follows: at .015 the model retrained on frame-stripped signals emptied
// broad's test half .127 → .160; at .010, .140, 2 December), so that the
// model trades few emptied requests for the requests no item fits it
// catches.
const EmptiedShare = 0.010

// fitModel returns the model that scores the signals of fits (requests some
// item fits) above those of misfits (requests no item fits), its
// threshold the score below which EmptiedShare of fits fall. Either list
// empty gives the zero model with a threshold of -Inf: everything fits.
func fitModel(fits, misfits []index.FitSignals) index.FitModel {
	m := index.FitModel{Threshold: math.Inf(-1), OwnThreshold: math.Inf(-1)}
	for i := range m.Scale {
		m.Scale[i] = 1
	}
	if len(fits) == 0 || len(misfits) == 0 {
		return m
	}
	all := append(slices.Clone(fits), misfits...)
	m.Mean, m.Scale = standardisation(all)
	xs := make([][]float64, len(all))
	labels, weights := make([]float64, len(all)), make([]float64, len(all))
	for i, s := range all {
		v := s.Vector()
		xs[i] = make([]float64, len(v))
		for j := range v {
			xs[i][j] = float64(v[j]-m.Mean[j]) / m.Scale[j]
		}
		labels[i], weights[i] = 0, 1/float64(len(misfits))
		if i < len(fits) {
			labels[i], weights[i] = 1, 1/float64(len(fits))
		}
	}
	w, bias := logistic(xs, labels, weights, fitEpochs, fitLearningRate, fitL2)
	copy(m.Weights[:], w)
	m.Bias = bias
	m.Threshold = threshold(m, fits)
	m.OwnThreshold = m.Threshold
	return m
}

// standardisation returns the mean and standard deviation of each signal
// (a signal that does not vary, by more than rounding, is scaled by 1).
func standardisation(all []index.FitSignals) (mean, scale [index.FitSignalCount]float64) {
	n := float64(len(all))
	for _, s := range all {
		for j, x := range s.Vector() {
			mean[j] += x / n
		}
	}
	for _, s := range all {
		for j, x := range s.Vector() {
			d := x - mean[j]
			scale[j] += float64(d*d) / n
		}
	}
	for j := range scale {
		scale[j] = math.Sqrt(scale[j])
		if scale[j] < 1e-9 {
			scale[j] = 1
		}
	}
	return mean, scale
}

// threshold is the score of the fit at the EmptiedShare quantile of fits'
// scores: the fits scoring below it are the ones the model empties.
func threshold(m index.FitModel, fits []index.FitSignals) float64 {
	scores := make([]float64, len(fits))
	for i, s := range fits {
		scores[i] = m.Score(s)
	}
	slices.Sort(scores)
	return scores[int(EmptiedShare*float64(len(scores)))]
}
