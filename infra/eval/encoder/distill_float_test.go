package encoder

import (
	"fmt"
	"testing"
)

// TestFloatReferenceMatchesJS runs the network with the package's float32
// weights: it checks the reading of the graph, apart from quantisation.
func TestFloatReferenceMatchesJS(t *testing.T) {
	g := mustReadGraph(t)
	e := newEncoder(newTokenizer(g.pieces, g.scores), g.floatNetwork())
	worst := 1.0
	for _, f := range mustReadFixtures(t) {
		got := e.Encode(f.Text)
		c := cosine(got, f.vector())
		worst = min(worst, c)
		if c < 0.9999 {
			t.Errorf("%.40q: cosine %.6f with the reference, want ≥ 0.9999", f.Text, c)
		}
	}
	t.Logf("float32 weights: worst cosine with the reference %.6f", worst)
}

// floatNetwork is the network with the graph's float32 weights.
func (g *graph) floatNetwork() *network {
	linear := func(name string) projection {
		values, rows, cols := g.matrix(name)
		return &floatLinear{w: values, out: rows, in: cols, bias: g.tensors[graphNames()[name+".bias"]].values}
	}
	norm := func(name string) layerNorm {
		names := graphNames()
		return layerNorm{scale: g.tensors[names[name+".scale"]].values, bias: g.tensors[names[name+".bias"]].values}
	}
	values, _, cols := g.matrix("embeddings")
	n := &network{
		embeddings: floatEmbeddings{values: values, dims: cols},
		timing:     g.tensors[graphNames()["timing"]].values,
		head:       linear("head"),
	}
	for l := range n.layers {
		name := fmt.Sprintf("l%d.", l)
		n.layers[l] = transformerLayer{
			attentionNorm: norm(name + "attention.norm"),
			qkv:           linear(name + "attention.qkv"),
			out:           linear(name + "attention.out"),
			ffnNorm:       norm(name + "ffn.norm"),
			ffnIn:         linear(name + "ffn.in"),
			ffnOut:        linear(name + "ffn.out"),
		}
	}
	n.layers[0].residual = linear("l0.residual")
	return n
}

// floatLinear is a projection with float32 weights [out][in].
type floatLinear struct {
	w       []float32
	out, in int
	bias    []float32
}

func (l *floatLinear) dims() (out, in int) { return l.out, l.in }

// apply walks the weights once for all tokens: a row of w stays in the
// cache while every token reads it.
func (l *floatLinear) apply(dst, src []float32, tokens int, _ *scratch) {
	for o := range l.out {
		w := l.w[o*l.in : (o+1)*l.in]
		for t := range tokens {
			dst[t*l.out+o] = dot4(src[t*l.in:(t+1)*l.in], w) + l.bias[o]
		}
	}
}

// dot4 is dot with four running sums, which the processor adds in
// parallel (a few times faster than one sum; the order of the additions,
// and so the last bits, differ from dot's).
func dot4(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

type floatEmbeddings struct {
	values []float32
	dims   int
}

func (f floatEmbeddings) lookup(dst []float32, id int) { copy(dst, f.values[id*f.dims:]) }
