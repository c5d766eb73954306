package errand

import (
	"math"
	"math/rand/v2"
)

// Training, at development time (errandmodel): stochastic gradient descent
// on the logistic loss, each class weighed so that both count alike, the
// step shrinking as 1/√epoch; seeded, one goroutine, so that the same
// texts give the same weights.
const (
	epochs       = 8
	learningRate = 0.1
	l2           = 1e-6
)

// Train returns the weights (Dims) and bias of a model that scores the
// texts of software above 0 and errands below.
func Train(software, errands []string, seed uint64) ([]float64, float64) {
	type example struct {
		features []uint32
		label    float64
		weight   float64
	}
	var data []example
	balance := float64(len(software)) / float64(max(1, len(errands)))
	for _, s := range software {
		data = append(data, example{Features(s), 1, 1})
	}
	for _, s := range errands {
		data = append(data, example{Features(s), 0, balance})
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w := make([]float64, Dims)
	b := 0.0
	for epoch := range epochs {
		rng.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
		step := learningRate / math.Sqrt(float64(epoch+1))
		for _, e := range data {
			z := b
			for _, f := range e.features {
				z += w[f]
			}
			g := (1/(1+math.Exp(-z)) - e.label) * e.weight * step
			for _, f := range e.features {
				w[f] -= g + l2*w[f]
			}
			b -= g
		}
	}
	return w, b
}

// Float is an unquantised model, what Train returns, for comparing with
// the quantised one.
func Float(w []float64, b float64, s string) float64 {
	z := b
	for _, f := range Features(s) {
		z += w[f]
	}
	return z
}
