package embed

import (
	"context"
	"fmt"
	"sync"
)

// EmbedItems returns the vectors of texts, in their order: calls of the
// client's batch each, the client's concurrency at once, each retried as
// its Calls say. The first failure cancels the calls under way and is
// returned, naming the texts of its batch; no partial result is returned.
func (c *Client) EmbedItems(ctx context.Context, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := make([][]float32, len(texts))
	starts := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range min(c.concurrency, (len(texts)+c.batch-1)/c.batch) {
		wg.Go(func() {
			for start := range starts {
				end := min(start+c.batch, len(texts))
				vecs, err := c.embed(ctx, c.calls, texts[start:end])
				if err != nil {
					once.Do(func() { first = fmt.Errorf("texts %d to %d of %d: %w", start+1, end, len(texts), err) })
					cancel(err)
					continue
				}
				copy(out[start:end], vecs)
			}
		})
	}
	for start := 0; start < len(texts) && ctx.Err() == nil; start += c.batch {
		select {
		case starts <- start:
		case <-ctx.Done():
		}
	}
	close(starts)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	return out, checkSameDims(out)
}

// checkSameDims checks that the batches agree on the dimensions (each
// call checked its own).
func checkSameDims(vecs [][]float32) error {
	for i, v := range vecs {
		if len(v) != len(vecs[0]) {
			return fmt.Errorf("text %d got %d dimensions, text 1 %d", i+1, len(v), len(vecs[0]))
		}
	}
	return nil
}
