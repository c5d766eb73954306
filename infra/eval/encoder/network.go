package encoder

import (
	"fmt"
	"math"
)

// The network is the graph of Universal Sentence Encoder lite as its
// TF.js model.json spells it (module_apply_default/Encoder_en/
// KonaTransformer), for one text of T tokens (the graph's batch of one has
// no padding, so its masks are all ones):
//
//	x₀ = 2·E[id] + timing(position)      Encode/Scatter + AddTimingSignal: the
//	                                     embedding is added twice
//	layer 0 (256 → 512), layer 1 (512 → 512), each:
//	  a = attention(norm(x))·Wo + bo     4 heads, q scaled by 1/√(head dims)
//	  y = a + residual(x)                layer 0: x·Wr + br (AdjustResidualInput); layer 1: x
//	  x = y + relu(norm(y)·W₁ + b₁)·W₂ + b₂
//	pooled = mean of x over the tokens
//	out = l2normalise(tanh(pooled·Wh + bh))
//
// Norms are layer norms over the channels with ε = 1e-6; timing(p) is
// [sin(p·τ), cos(p·τ)] for the graph's 128 inverse timescales τ.
const (
	// Dims is the length of an embedding.
	Dims = 512
	// MaxTokens is the number of tokens the model reads: the graph's
	// ClipToMaxLength drops the rest, and so does Encode.
	MaxTokens = 128

	embeddingDims    = 256
	hiddenDims       = 512
	ffnDims          = 1536
	heads            = 4
	timescales       = embeddingDims / 2
	layerNormEpsilon = 1e-6
	l2Epsilon        = 1e-12
)

// projection is a dense layer; the float32 reference of the tests is the
// other implementation.
type projection interface {
	// apply computes tokens rows of dst (tokens×out) from src (tokens×in).
	apply(dst, src []float32, tokens int, s *scratch)
	dims() (out, in int)
}

// embeddingTable maps a vocabulary id to its vector.
type embeddingTable interface {
	lookup(dst []float32, id int)
}

type layerNorm struct{ scale, bias []float32 }

// transformerLayer is one KonaTransformer layer; residual is nil when the
// layer keeps its width.
type transformerLayer struct {
	attentionNorm, ffnNorm            layerNorm
	qkv, out, residual, ffnIn, ffnOut projection
}

// network holds the weights of the whole graph.
type network struct {
	embeddings embeddingTable
	timing     []float32
	layers     [2]transformerLayer
	head       projection
}

// lookup dequantises the embedding of id into dst.
func (m *int8Matrix) lookup(dst []float32, id int) {
	row, scale := m.row(id), m.scales[id]
	for i := range dst {
		dst[i] = float32(int8(row[i])) * scale
	}
}

// newNetwork takes the graph's tensors from the weights file.
func newNetwork(w *weightSet, vocabulary int) (*network, error) {
	n := &network{
		embeddings: w.matrix("embeddings", vocabulary, embeddingDims),
		timing:     w.vector("timing", timescales),
		head:       w.linear("head", Dims, hiddenDims),
	}
	for l := range n.layers {
		in := hiddenDims
		if l == 0 {
			in = embeddingDims
		}
		name := fmt.Sprintf("l%d.", l)
		layer := &n.layers[l]
		layer.attentionNorm = w.norm(name+"attention.norm", in)
		layer.qkv = w.linear(name+"attention.qkv", 3*in, in)
		layer.out = w.linear(name+"attention.out", hiddenDims, in)
		if in != hiddenDims {
			layer.residual = w.linear(name+"residual", hiddenDims, in)
		}
		layer.ffnNorm = w.norm(name+"ffn.norm", hiddenDims)
		layer.ffnIn = w.linear(name+"ffn.in", ffnDims, hiddenDims)
		layer.ffnOut = w.linear(name+"ffn.out", hiddenDims, ffnDims)
	}
	if w.err != nil {
		return nil, w.err
	}
	return n, nil
}

// forward sets dst (Dims) to the unit-length embedding of the token ids.
func (n *network) forward(dst []float32, ids []int32, s *scratch) {
	tokens := len(ids)
	x := grow(&s.stream[0], tokens*hiddenDims)[:tokens*embeddingDims]
	n.embed(x, ids)
	x = n.layers[0].apply(grow(&s.stream[1], tokens*hiddenDims), x, tokens, s)
	x = n.layers[1].apply(grow(&s.stream[0], tokens*hiddenDims), x, tokens, s)
	pooled := grow(&s.pooled, hiddenDims)
	meanRows(pooled, x, tokens)
	n.head.apply(dst, pooled, 1, s)
	for i, v := range dst {
		dst[i] = float32(math.Tanh(float64(v)))
	}
	normaliseL2(dst)
}

// embed sets x (tokens×embeddingDims) to twice each token's embedding plus
// its position's timing signal.
func (n *network) embed(x []float32, ids []int32) {
	for t, id := range ids {
		row := x[t*embeddingDims : (t+1)*embeddingDims]
		n.embeddings.lookup(row, int(id))
		for i, tau := range n.timing {
			angle := float64(float32(t) * tau)
			row[i] = 2*row[i] + float32(math.Sin(angle))
			row[i+timescales] = 2*row[i+timescales] + float32(math.Cos(angle))
		}
	}
}

// apply runs the layer on x (tokens×in) into out (tokens×hiddenDims) and
// returns out.
func (l *transformerLayer) apply(out, x []float32, tokens int, s *scratch) []float32 {
	_, in := l.qkv.dims()
	normed := grow(&s.normed, tokens*hiddenDims)[:tokens*in]
	l.attentionNorm.apply(normed, x, in)
	qkv := grow(&s.qkv, tokens*3*in)
	l.qkv.apply(qkv, normed, tokens, s)
	attended := grow(&s.attended, tokens*in)
	attend(attended, qkv, tokens, in, s)
	l.out.apply(out, attended, tokens, s)
	if l.residual != nil {
		residual := grow(&s.residual, tokens*hiddenDims)
		l.residual.apply(residual, x, tokens, s)
		addInto(out, residual)
	} else {
		addInto(out, x)
	}
	normed = normed[:tokens*hiddenDims]
	l.ffnNorm.apply(normed, out, hiddenDims)
	hidden := grow(&s.ffn, tokens*ffnDims)
	l.ffnIn.apply(hidden, normed, tokens, s)
	for i, v := range hidden {
		hidden[i] = max(v, 0)
	}
	ffnOut := grow(&s.residual, tokens*hiddenDims)
	l.ffnOut.apply(ffnOut, hidden, tokens, s)
	addInto(out, ffnOut)
	return out
}

// apply normalises each row of x (width dims) into dst.
func (n layerNorm) apply(dst, x []float32, dims int) {
	for start := 0; start < len(x); start += dims {
		row, out := x[start:start+dims], dst[start:start+dims]
		var sum float64
		for _, v := range row {
			sum += float64(v)
		}
		mean := sum / float64(dims)
		var squares float64
		for _, v := range row {
			d := float64(v) - mean
			squares += d * d
		}
		inverse := 1 / math.Sqrt(squares/float64(dims)+layerNormEpsilon)
		for i, v := range row {
			out[i] = float32((float64(v)-mean)*inverse)*n.scale[i] + n.bias[i]
		}
	}
}

// attend computes multi-head attention over all tokens from qkv
// (tokens × 3·width: queries, keys, values) into dst (tokens×width).
func attend(dst, qkv []float32, tokens, width int, s *scratch) {
	headDims := width / heads
	scale := float32(1 / math.Sqrt(float64(headDims)))
	weights := grow(&s.weights, tokens)
	stride := 3 * width
	for h := range heads {
		for t := range tokens {
			q := qkv[t*stride+h*headDims : t*stride+(h+1)*headDims]
			for u := range tokens {
				k := qkv[u*stride+width+h*headDims : u*stride+width+(h+1)*headDims]
				weights[u] = dot(q, k) * scale
			}
			softmax(weights)
			out := dst[t*width+h*headDims : t*width+(h+1)*headDims]
			clear(out)
			for u, p := range weights {
				v := qkv[u*stride+2*width+h*headDims : u*stride+2*width+(h+1)*headDims]
				axpy(out, v, p)
			}
		}
	}
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s float32
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// axpy adds p·x to y.
func axpy(y, x []float32, p float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += p * x[i]
	}
}

func softmax(x []float32) {
	peak := x[0]
	for _, v := range x {
		peak = max(peak, v)
	}
	var sum float64
	for i, v := range x {
		e := math.Exp(float64(v - peak))
		x[i] = float32(e)
		sum += e
	}
	inverse := float32(1 / sum)
	for i := range x {
		x[i] *= inverse
	}
}

func addInto(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

// meanRows sets dst to the mean of the first tokens rows of x; with no
// rows it is zero, as the graph divides by max(tokens, 1).
func meanRows(dst, x []float32, tokens int) {
	clear(dst)
	for t := range tokens {
		addInto(dst, x[t*len(dst):(t+1)*len(dst)])
	}
	inverse := 1 / float32(max(tokens, 1))
	for i := range dst {
		dst[i] *= inverse
	}
}

// normaliseL2 scales x to unit length, as the graph's l2_normalize does.
func normaliseL2(x []float32) {
	var sum float64
	for _, v := range x {
		sum += float64(v) * float64(v)
	}
	inverse := float32(1 / math.Sqrt(max(sum, l2Epsilon)))
	for i := range x {
		x[i] *= inverse
	}
}
