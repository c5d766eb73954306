package train

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/index"
)

// WordKindModelFile is where the embedded word-kind model lives in the
// repository, which mcpsearch-lab wordkind writes.
const WordKindModelFile = "index/internal/wordkind/model.json"

// The word-kind model's training (logistic): full-batch gradient descent
// on the logistic loss, each class weighed so that both count alike, with
// a little L2.
const (
	wordKindEpochs       = 2000
	wordKindLearningRate = 0.5
	wordKindL2           = 1e-3
)

// WordKind trains the word-kind model on tool, words that name what tools
// deal with, against said, words requests say in passing, in the order
// given. Words the word vectors do not hold are left out; it returns the
// model and how many of each it used.
func WordKind(tool, said []string) (index.WordKindModel, int, int, error) {
	var xs [][]float64
	var labels []float64
	add := func(words []string, label float64) int {
		n := 0
		for _, w := range words {
			if f, ok := index.WordKindFeatures(w); ok {
				xs, labels = append(xs, f[:]), append(labels, label)
				n++
			}
		}
		return n
	}
	nTool, nSaid := add(tool, 1), add(said, 0)
	if nTool == 0 || nSaid == 0 {
		return index.WordKindModel{}, nTool, nSaid, fmt.Errorf("the word vectors hold %d of the tool words and %d of the words said in passing; want some of each", nTool, nSaid)
	}
	weights := make([]float64, len(labels))
	for i, label := range labels {
		weights[i] = 1 / float64(nSaid)
		if label == 1 {
			weights[i] = 1 / float64(nTool)
		}
	}
	w, bias := logistic(xs, labels, weights, wordKindEpochs, wordKindLearningRate, wordKindL2)
	var m index.WordKindModel
	copy(m.Weights[:], w)
	m.Bias = bias
	return m, nTool, nSaid, nil
}
