package encoder_test

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/infra/eval/encoder"
)

func Example() {
	enc, err := encoder.Load()
	if err != nil {
		fmt.Println(err)
		return
	}
	request := enc.Encode("schedule a meeting")
	for _, tool := range []string{
		"find meeting times: Suggests meeting times for attendees",
		"create pull request: Create a new pull request in a GitHub repository",
		"order food: Orders a meal from a nearby restaurant",
	} {
		fmt.Printf("%.2f %s\n", cosine(request, enc.Encode(tool)), tool)
	}
	// Output:
	// 0.78 find meeting times: Suggests meeting times for attendees
	// 0.28 create pull request: Create a new pull request in a GitHub repository
	// 0.40 order food: Orders a meal from a nearby restaurant
}

// cosine is the dot product: embeddings have unit length.
func cosine(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
