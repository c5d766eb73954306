// Package train trains the no-match test's two models at development
// time, seeded and bit for bit the same on every machine, and writes
// their files: the errand model (index/internal/errand/model.bin), which
// tells a request for software from an everyday errand, on a catalog's
// written requests against the errands of infra/lab/data/errands; and the
// fit model (index/internal/fit/model.json) on the signals of a catalog's
// searches. It reads the index through what package index exports for
// it (ErrandFeatures, EncodeErrandModel, FitSignalsOfSearch, FitModel);
// the index only reads the embedded models.
package train

import (
	"math"
	"math/rand/v2"

	"github.com/mcpsearch/mcpsearch/index"
)

// ErrandModelFile is where the embedded errand model lives in the
// repository, which mcpsearch-lab errandmodel writes.
const ErrandModelFile = "index/internal/errand/model.bin"

// Errand trains the model that tells a request for software from an
// everyday errand (the no-match test's errand-model) on the texts of
// both, seeded, and returns the model file's bytes: the same texts give
// the same bytes.
func Errand(software, errands []string, seed uint64) []byte {
	w, b := errandWeights(software, errands, seed)
	return index.EncodeErrandModel(w, b)
}

// The errand model's training: stochastic gradient descent
// on the logistic loss, each class weighed so that both count alike, the
// step shrinking as 1/√epoch; seeded, one goroutine, so that the same
// texts give the same weights.
const (
	errandEpochs       = 8
	errandLearningRate = 0.1
	errandL2           = 1e-6
)

// errandWeights returns the weights (index.ErrandFeatureDims) and bias of
// a model that scores the texts of software above 0 and errands below.
func errandWeights(software, errands []string, seed uint64) ([]float64, float64) {
	type example struct {
		features []uint32
		label    float64
		weight   float64
	}
	var data []example
	balance := float64(len(software)) / float64(max(1, len(errands)))
	for _, s := range software {
		data = append(data, example{index.ErrandFeatures(s), 1, 1})
	}
	for _, s := range errands {
		data = append(data, example{index.ErrandFeatures(s), 0, balance})
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w := make([]float64, index.ErrandFeatureDims)
	b := 0.0
	for epoch := range errandEpochs {
		rng.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
		step := errandLearningRate / math.Sqrt(float64(epoch+1))
		for _, e := range data {
			z := b
			for _, f := range e.features {
				z += w[f]
			}
			g := float64(float64(sigmoid(z)-e.label)*e.weight) * step
			for _, f := range e.features {
				w[f] -= g + float64(errandL2*w[f])
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
// everywhere (TestErrandModelIsTheTrainedOne, in infra/lab/cmd/mcpsearch-lab).
func sigmoid(z float64) float64 {
	return 1 / (1 + exp(-z))
}

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

// floatScore is an unquantised model, what errandWeights returns, for
// comparing with the quantised one.
func floatScore(w []float64, b float64, s string) float64 {
	z := b
	for _, f := range index.ErrandFeatures(s) {
		z += w[f]
	}
	return z
}
