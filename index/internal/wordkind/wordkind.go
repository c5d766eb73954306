// Package wordkind tells a word that names what tools deal with (an
// object, an action, a product: invoice, deploy, salesforce) from a word
// that requests say in passing (a person, a place, an occasion, a
// manner: Hanna, Lisbon, celebrate, fancy): a logistic model over the
// word's vector (the embedded word vectors of package text) and its
// frequency rank.
//
// A kept page's hint names what the catalog lacks (rule missing-hints);
// a word no item the caller sees holds is such a thing only if it is of
// the first kind: "the best match lacks Hanna" tells the caller nothing
// it can act on, and a model that obeys the hint drops the right tool
// (issue 36). Only words the table holds are read: a word it does not
// hold (a rarer product, a word of another language) is not judged.
//
// The model is trained at development time on the library of public
// servers' names, descriptions and written requests, no query read (go run
// ./infra/lab/cmd/mcpsearch-lab wordkind; package infra/lab/train):
// the words of tool, prompt and server names against the words written in
// requests that no name or description of any library item uses. Training
// is deterministic, so every machine trains the same bytes
// (TestWordKindModelIsTheTrainedOne).
package wordkind

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// NumFeatures is the number of features the model weighs: the word's
// vector and its scaled frequency rank.
const NumFeatures = text.WordDims + 1

// Model is a trained model: Score(word) > 0 reads as a word that names
// what tools deal with.
type Model struct {
	Weights [NumFeatures]float64
	Bias    float64
}

// Features returns the features of word, lower-cased, and false where the
// word vectors do not hold it: its vector's components (each within ±1)
// and log(1+rank)/10 of its frequency rank.
func Features(word string) ([NumFeatures]float64, bool) {
	var f [NumFeatures]float64
	wt, err := text.WordTable()
	if err != nil {
		return f, false
	}
	i := wt.Find(strings.ToLower(word))
	if i < 0 {
		return f, false
	}
	var v [text.WordDims]float64
	wt.Vector(i, &v)
	for d, x := range v {
		f[d] = x / 7 // the table's components are four-bit, ±7
	}
	f[text.WordDims] = math.Log1p(float64(wt.FrequencyRank(i))) / 10
	return f, true
}

// Score is the model's log-odds that word names what tools deal with, and
// false where the word vectors do not hold it.
func (m *Model) Score(word string) (float64, bool) {
	f, ok := Features(word)
	if !ok {
		return 0, false
	}
	z := m.Bias
	for i, x := range f {
		z += m.Weights[i] * x
	}
	return z, true
}

// SaidInPassing reports whether the model reads word as one requests say
// in passing, not one that names what tools deal with; a word the vectors
// do not hold is not.
func (m *Model) SaidInPassing(word string) bool {
	z, ok := m.Score(word)
	return ok && z < 0
}

//go:embed model.json
var embedded []byte

// Default is the embedded model.
var Default = sync.OnceValues(func() (*Model, error) { return Decode(embedded) })

// Decode reads a model file, refusing a field it does not know, a list of
// weights that is not NumFeatures long or a figure that is not finite.
func Decode(data []byte) (*Model, error) {
	var f struct {
		Weights []float64
		Bias    float64
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("word-kind model: %w", err)
	}
	if len(f.Weights) != NumFeatures {
		return nil, fmt.Errorf("word-kind model: Weights holds %d figures, want %d", len(f.Weights), NumFeatures)
	}
	var m Model
	copy(m.Weights[:], f.Weights)
	m.Bias = f.Bias
	for _, x := range append(m.Weights[:], m.Bias) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("word-kind model: a figure is %v", x)
		}
	}
	return &m, nil
}

// Encode writes m in its file's form, each figure to six significant
// digits.
func (m Model) Encode() []byte {
	for i, x := range m.Weights {
		m.Weights[i] = roundFigure(x)
	}
	m.Bias = roundFigure(m.Bias)
	data, _ := json.MarshalIndent(m, "", "  ")
	return append(data, '\n')
}

func roundFigure(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return r
}
