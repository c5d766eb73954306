package fit

import (
	"math"
	"slices"

	"github.com/mcpsearch/mcpsearch/index/internal/errand"
)

// Training, at development time (fitmodel): full-batch gradient descent
// on the logistic loss over the standardised signals, each class weighed
// so that both count alike, with a little L2; products rounded by
// conversions (which Go never fuses), so every machine trains the same
// figures.
const (
	epochs       = 400
	learningRate = 1.0
	l2           = 1e-3
)

// EmptiedShare is the share of the training's requests some item fits
// that the threshold may give no items: the dev halves' emptied rate with
// the rules before the model (.014), so that the model trades no emptied
// requests for the requests no item fits it catches.
const EmptiedShare = 0.015

// Train returns the model that scores the signals of fits (requests some
// item fits) above those of misfits (requests no item fits), its
// threshold the score below which EmptiedShare of fits fall. Either list
// empty gives the zero model with a threshold of -Inf: everything fits.
func Train(fits, misfits []Signals) Model {
	m := Model{Threshold: math.Inf(-1)}
	for i := range m.Scale {
		m.Scale[i] = 1
	}
	if len(fits) == 0 || len(misfits) == 0 {
		return m
	}
	all := append(slices.Clone(fits), misfits...)
	m.Mean, m.Scale = standardisation(all)
	xs := make([][NumSignals]float64, len(all))
	for i, s := range all {
		v := s.vector()
		for j := range v {
			xs[i][j] = float64(v[j]-m.Mean[j]) / m.Scale[j]
		}
	}
	weightOf := func(i int) (label, weight float64) {
		if i < len(fits) {
			return 1, 1 / float64(len(fits))
		}
		return 0, 1 / float64(len(misfits))
	}
	for range epochs {
		var grad [NumSignals]float64
		gradBias := 0.0
		for i, x := range xs {
			z := m.Bias
			for j := range x {
				z += float64(m.Weights[j] * x[j])
			}
			label, weight := weightOf(i)
			g := float64((errand.Sigmoid(z) - label) * weight)
			for j := range x {
				grad[j] += float64(g * x[j])
			}
			gradBias += g
		}
		for j := range m.Weights {
			m.Weights[j] -= float64(learningRate * (grad[j] + float64(l2*m.Weights[j])))
		}
		m.Bias -= learningRate * gradBias
	}
	m.Threshold = threshold(m, fits)
	return m
}

// standardisation returns the mean and standard deviation of each signal
// (a signal that does not vary, by more than rounding, is scaled by 1).
func standardisation(all []Signals) (mean, scale [NumSignals]float64) {
	n := float64(len(all))
	for _, s := range all {
		for j, x := range s.vector() {
			mean[j] += x / n
		}
	}
	for _, s := range all {
		for j, x := range s.vector() {
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
func threshold(m Model, fits []Signals) float64 {
	scores := make([]float64, len(fits))
	for i, s := range fits {
		scores[i] = m.Score(s)
	}
	slices.Sort(scores)
	return scores[int(EmptiedShare*float64(len(scores)))]
}
