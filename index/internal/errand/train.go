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
			g := float64(float64(sigmoid(z)-e.label)*e.weight) * step
			for _, f := range e.features {
				w[f] -= g + float64(l2*w[f])
			}
			b -= g
		}
	}
	return w, b
}

// sigmoid is 1/(1+e^-z), computed the same way on every machine: Go may
// fuse a multiplication and an addition where the processor can (arm64,
// not amd64), and math.Exp is written in assembly for some processors, so
// the training computes e^x itself, each product rounded by a conversion
// (which the language forbids fusing), and trains the same bytes
// everywhere (TestErrandModelIsTheTrainedOne).
func sigmoid(z float64) float64 {
	return 1 / (1 + exp(-z))
}

// Sigmoid is 1/(1+e^-z), bit for bit the same on every machine (see
// sigmoid): for other models trained at development time whose bytes a
// test checks.
func Sigmoid(z float64) float64 { return sigmoid(z) }

// exp is e^x by range reduction (x = k ln 2 + r, |r| ≤ ln 2 / 2) and the
// Taylor series of e^r to its 14th term: within a few ulps of math.Exp,
// and bit for bit the same on every machine.
func exp(x float64) float64 {
	x = max(-700, min(700, x))
	const ln2 = 0.6931471805599453
	k := math.Round(x / ln2)
	r := x - float64(k*ln2)
	sum, term := 1.0, 1.0
	for n := 1; n <= 14; n++ {
		term = float64(term*r) / float64(n)
		sum += term
	}
	return math.Ldexp(sum, int(k))
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
