package encoder

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestProjectionIsExact checks the packed arithmetic against plain sums,
// at the extremes of weights and activations, for the widest input, an
// odd one, and every count of tokens up to past three tiles.
func TestProjectionIsExact(t *testing.T) {
	random := rand.New(rand.NewPCG(3, 4))
	for _, in := range []int{ffnDims, 67} {
		for tokens := 1; tokens <= 3*lanes*tileGroups+lanes+1; tokens++ {
			t.Run(fmt.Sprintf("%d inputs, %d tokens", in, tokens), func(t *testing.T) {
				checkProjection(t, random, in, tokens)
			})
		}
	}
}

func checkProjection(t *testing.T, random *rand.Rand, in, tokens int) {
	const out = 5
	weights := make([]byte, in*out)
	for i := range weights {
		weights[i] = byte(int8([]int{-128, 127, -127}[random.IntN(3)]))
	}
	l := &quantLinear{
		w:    &int8Matrix{rows: out, cols: in, scales: []float32{1, 1, 1, 1, 1}, data: string(weights)},
		bias: make([]float32, out),
	}
	src := make([]float32, tokens*in)
	for i := range src {
		src[i] = float32([]int{-activationLevels, activationLevels}[random.IntN(2)])
	}
	dst := make([]float32, tokens*out)
	l.apply(dst, src, tokens, new(scratch))
	for tk := range tokens {
		for o := range out {
			var want int64
			for i := range in {
				want += int64(int8(weights[o*in+i])) * int64(src[tk*in+i])
			}
			if got := dst[tk*out+o]; got != float32(want) {
				t.Fatalf("output (%d, %d) = %v, want %d", tk, o, got, want)
			}
		}
	}
}
