package encoder

import "math"

// The projections multiply int8 weights by activations quantised, per
// token, to 14-bit integers, two tokens at a time in one int64 ("SIMD
// within a register"): with X = x₀ + x₁·2³², the product w·X is
// w·x₀ + (w·x₁)·2³², so one 64-bit multiply-add does two multiply-adds.
// The two sums stay apart as long as each stays below 2³¹ in magnitude:
// |w| ≤ 128, |x| ≤ activationLevels and at most maxProjectionInputs terms
// give 128 × 8191 × 1536 = 1,610,416,128 < 2³¹. The low sum is then the
// low 32 bits read as int32, and the high sum (X·w − low) >> 32.
//
// Four pairs of tokens share each weight load, and two weight rows each
// activation load: eight accumulators, sixteen multiply-adds per step.

// activationLevels is the largest magnitude of a quantised activation.
const activationLevels = 8191

// maxProjectionInputs bounds the input width of a projection (see above).
const maxProjectionInputs = 1536

// tilePairs is the number of token pairs that share a weight load.
const tilePairs = 4

// quantLinear is dst = src·Wᵀ + bias with int8 weights W [out][in].
type quantLinear struct {
	w    *int8Matrix
	bias []float32
}

func (l *quantLinear) dims() (out, in int) { return l.w.rows, l.w.cols }

// apply computes the projection of tokens rows of src (tokens×in) into dst
// (tokens×out).
func (l *quantLinear) apply(dst, src []float32, tokens int, s *scratch) {
	in, out := l.w.cols, l.w.rows
	packed, scales := packActivations(s, src, tokens, in)
	pairs := (tokens + 1) / 2
	tiles := pairs / tilePairs
	for o := 0; o < out; o += 2 {
		w0, w1 := l.w.row(o), l.w.row(min(o+1, out-1))
		for k := range tiles {
			tile := packed[k*tilePairs*in : (k+1)*tilePairs*in]
			s0, s1 := dotTile(w0, w1, tile)
			for j := range tilePairs {
				l.store(dst, scales, 2*(k*tilePairs+j), o, s0[j], s1[j], tokens)
			}
		}
		for p := tiles * tilePairs; p < pairs; p++ {
			a0, a1 := dotPair(w0, w1, packed[p*in:(p+1)*in])
			l.store(dst, scales, 2*p, o, a0, a1, tokens)
		}
	}
}

// store writes the outputs o and o+1 of tokens t and t+1 from their packed
// sums a0 (row o) and a1 (row o+1).
func (l *quantLinear) store(dst, scales []float32, t, o int, a0, a1 int64, tokens int) {
	out := l.w.rows
	lo0, hi0 := unpack(a0)
	lo1, hi1 := unpack(a1)
	ws0, ws1 := l.w.scales[o], l.w.scales[min(o+1, out-1)]
	dst[t*out+o] = float32(lo0)*scales[t]*ws0 + l.bias[o]
	if o+1 < out {
		dst[t*out+o+1] = float32(lo1)*scales[t]*ws1 + l.bias[o+1]
	}
	if t+1 < tokens {
		dst[(t+1)*out+o] = float32(hi0)*scales[t+1]*ws0 + l.bias[o]
		if o+1 < out {
			dst[(t+1)*out+o+1] = float32(hi1)*scales[t+1]*ws1 + l.bias[o+1]
		}
	}
}

// unpack splits a packed sum into the sums of its low and high token.
func unpack(acc int64) (lo, hi int64) {
	lo = int64(int32(acc))
	return lo, (acc - lo) >> 32
}

// packActivations quantises each token row of src to ±activationLevels
// and packs token pairs: first whole tiles, laid out [tile][i][pair],
// then the remaining pairs, laid out [pair][i]. It returns the packed
// values and each token's scale.
func packActivations(s *scratch, src []float32, tokens, in int) ([]int64, []float32) {
	pairs := (tokens + 1) / 2
	packed := grow(&s.packed, pairs*in)
	scales := grow(&s.activationScales, tokens+1)
	quant := grow(&s.quant, 2*in)
	tiles := pairs / tilePairs
	for p := range pairs {
		x0 := quantiseRow(quant[:in], src, p*2, tokens, in, scales)
		x1 := quantiseRow(quant[in:], src, p*2+1, tokens, in, scales)
		if p < tiles*tilePairs {
			tile, j := p/tilePairs, p%tilePairs
			base := tile * tilePairs * in
			for i := range in {
				packed[base+i*tilePairs+j] = x0[i] + x1[i]<<32
			}
			continue
		}
		row := packed[p*in : (p+1)*in]
		for i := range row {
			row[i] = x0[i] + x1[i]<<32
		}
	}
	return packed, scales
}

// quantiseRow quantises row t of src into q and sets scales[t]; a row past
// the last token is all zeros.
func quantiseRow(q []int64, src []float32, t, tokens, in int, scales []float32) []int64 {
	if t >= tokens {
		clear(q)
		scales[t] = 0
		return q
	}
	row := src[t*in : (t+1)*in]
	var peak float32
	for _, v := range row {
		peak = max(peak, float32(math.Abs(float64(v))))
	}
	if peak == 0 {
		clear(q)
		scales[t] = 0
		return q
	}
	inverse := float64(activationLevels / peak)
	for i, v := range row {
		q[i] = int64(math.RoundToEven(float64(v) * inverse))
	}
	scales[t] = peak / activationLevels
	return q
}

// dotTile returns the packed sums of weight rows w0 and w1 over a tile of
// tilePairs token pairs laid out [i][pair].
func dotTile(w0, w1 string, tile []int64) (s0, s1 [tilePairs]int64) {
	n := len(w0)
	w1 = w1[:n]
	tile = tile[:n*tilePairs]
	var a0, a1, a2, a3, b0, b1, b2, b3 int64
	for i := 0; i < n; i++ {
		x := (*[tilePairs]int64)(tile[i*tilePairs:])
		u, v := int64(int8(w0[i])), int64(int8(w1[i]))
		x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
		a0 += u * x0
		b0 += v * x0
		a1 += u * x1
		b1 += v * x1
		a2 += u * x2
		b2 += v * x2
		a3 += u * x3
		b3 += v * x3
	}
	return [tilePairs]int64{a0, a1, a2, a3}, [tilePairs]int64{b0, b1, b2, b3}
}

// dotPair returns the packed sums of weight rows w0 and w1 over one token
// pair.
func dotPair(w0, w1 string, pair []int64) (s0, s1 int64) {
	n := len(w0)
	w1 = w1[:n]
	pair = pair[:n]
	for i, x := range pair {
		s0 += int64(int8(w0[i])) * x
		s1 += int64(int8(w1[i])) * x
	}
	return s0, s1
}
