package encoder

import (
	"math/rand/v2"
	"testing"
)

// TestProjectionIsExact checks the packed arithmetic against plain sums,
// at the extremes of weights and activations and for every count of
// tokens up to three tiles.
func TestProjectionIsExact(t *testing.T) {
	random := rand.New(rand.NewPCG(3, 4))
	const in, out = maxProjectionInputs, 6
	weights := make([]byte, in*out)
	for i := range weights {
		weights[i] = byte(int8([]int{-128, 127, -127}[random.IntN(3)]))
	}
	scales := []float32{1, 1, 1, 1, 1, 1}
	l := &quantLinear{w: &int8Matrix{rows: out, cols: in, scales: scales, data: string(weights)}, bias: make([]float32, out)}
	s := new(scratch)
	for tokens := 1; tokens <= 3*2*tilePairs+1; tokens++ {
		src := make([]float32, tokens*in)
		for i := range src {
			src[i] = float32([]int{-activationLevels, activationLevels}[random.IntN(2)])
		}
		src[0] = activationLevels // every row's peak is activationLevels: its scale is 1
		for tk := range tokens {
			src[tk*in] = activationLevels
		}
		dst := make([]float32, tokens*out)
		l.apply(dst, src, tokens, s)
		for tk := range tokens {
			for o := range out {
				var want int64
				for i := range in {
					want += int64(int8(weights[o*in+i])) * int64(src[tk*in+i])
				}
				if got := dst[tk*out+o]; got != float32(want) {
					t.Fatalf("%d tokens: output (%d, %d) = %v, want %d", tokens, tk, o, got, want)
				}
			}
		}
	}
}
