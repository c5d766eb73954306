// Package errand tells a request for software apart from an everyday
// errand ("book a table for two tonight", "how do I get red wine out of
// silk"): a logistic model over the hashed words and word pairs of a
// text, as the text analyser reads them, trained at development time on
// the default catalog's written requests against a reviewed set of
// everyday errands (infra/lab/data/errands), and embedded in the binary
// (model.bin, int8 weights).
//
// The no-match test (package retrieval, rule errand-model) gives no items
// to a request the model reads as an errand, on a bundle whose items carry
// written requests: the model knows what people ask of software through
// them, and on catalogs without requests (the public benchmarks) it
// emptied answerable tasks (measured: livemcpbench emptied 0 → .223), so
// it is not asked there.
//
//	go run ./infra/lab/cmd/mcpsearch-lab errandmodel
//
// trains it again (package infra/lab/train, seeded: the same data give
// the same bytes; TestErrandModelIsTheTrainedOne checks the embedded
// model is what the repository's data and code train).
package errand

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sync"

	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Dims is the number of hashed features.
const Dims = 1 << 18

// magic opens a model file.
const magic = "MCPSER1\n"

// maxFeatureText bounds the text a model reads (a query is read to its
// 128th word before; a written request is at most 1 KiB).
const maxFeatureText = 4096

//go:embed model.bin
var embedded []byte

// Model is a trained model: Score(text) > 0 reads as software, < 0 as an
// errand.
type Model struct {
	weights []int8
	scale   float32 // a weight is weights[i] × scale
	bias    float32
}

// Default is the embedded model.
var Default = sync.OnceValues(func() (*Model, error) { return Decode(embedded) })

// Features returns the hashed features of s: each analysed word, and each
// pair of successive words.
func Features(s string) []uint32 {
	words := text.Analyze(text.Normalize(s, maxFeatureText))
	out := make([]uint32, 0, 2*len(words))
	for i, w := range words {
		out = append(out, hash("u:"+w))
		if i > 0 {
			out = append(out, hash("b:"+words[i-1]+" "+w))
		}
	}
	return out
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32() % Dims
}

// Score is the model's log-odds that s asks for software rather than an
// errand.
func (m *Model) Score(s string) float64 {
	z := float64(m.bias)
	for _, f := range Features(s) {
		z += float64(m.weights[f]) * float64(m.scale)
	}
	return z
}

// Encode quantises weights w (Dims of them) and bias b into a model file:
// magic, u32 Dims, f32 scale, f32 bias, Dims int8 weights.
func Encode(w []float64, b float64) []byte {
	largest := 0.0
	for _, x := range w {
		largest = max(largest, math.Abs(x))
	}
	scale := largest / 127
	if scale == 0 {
		scale = 1
	}
	out := []byte(magic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(w)))
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(scale)))
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(b)))
	for _, x := range w {
		out = append(out, byte(int8(math.Round(x/scale))))
	}
	return out
}

// Decode reads a model file.
func Decode(data []byte) (*Model, error) {
	head := len(magic) + 12
	if len(data) < head || string(data[:len(magic)]) != magic {
		return nil, errors.New("errand model: not a model file")
	}
	if n := binary.LittleEndian.Uint32(data[len(magic):]); n != Dims || len(data) != head+Dims {
		return nil, fmt.Errorf("errand model: %d weights in %d bytes, want %d", n, len(data)-head, Dims)
	}
	m := &Model{
		scale:   math.Float32frombits(binary.LittleEndian.Uint32(data[len(magic)+4:])),
		bias:    math.Float32frombits(binary.LittleEndian.Uint32(data[len(magic)+8:])),
		weights: make([]int8, Dims),
	}
	for i, b := range data[head:] {
		m.weights[i] = int8(b)
	}
	return m, nil
}
