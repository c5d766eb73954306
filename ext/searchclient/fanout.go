package searchclient

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
)

// FanOutResult is the merged first page of a search over several servers.
type FanOutResult struct {
	// Items are the best Limit items of all servers, by normalised score
	// (each server's scores divided by its best), ties by server name then
	// item name. Item.Score is the normalised score, in (0, 1].
	Items []Item
	// Failures names each server whose search failed, with its error.
	Failures map[string]error
}

// FanOut searches every client for query at once, takes each one's first
// page (opts.Limit items), normalises each server's scores by dividing
// them by that server's best score, and merges the pages into one of
// opts.Limit items, best first. A server that fails is reported in
// Failures and the others are merged anyway; FanOut returns an error only
// when every server failed, or there are none. Bound the time a slow
// server may take with ctx.
func FanOut(ctx context.Context, clients []*Client, k ext.Kind, query string, opts *SearchOptions) (*FanOutResult, error) {
	opts = cmp.Or(opts, &SearchOptions{})
	if len(clients) == 0 {
		return nil, errors.New("searchclient: fan-out over no servers")
	}
	pages := make([][]Item, len(clients))
	errs := make([]error, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() { pages[i], errs[i] = firstPage(ctx, c, k, query, opts) })
	}
	wg.Wait()
	res := &FanOutResult{Failures: map[string]error{}}
	for i, c := range clients {
		if errs[i] != nil {
			res.Failures[c.Name()] = errs[i]
		}
	}
	if len(res.Failures) == len(clients) {
		return res, fmt.Errorf("searchclient: every server failed: %w", errors.Join(errs...))
	}
	res.Items = merge(pages)
	res.Items = res.Items[:min(len(res.Items), cmp.Or(opts.Limit, ext.DefaultLimit))]
	return res, nil
}

// merge normalises each server's page (see normalise) and merges the pages
// into one ranking: best normalised score first, ties by server name, then
// item name, then the order of the pages.
func merge(pages [][]Item) []Item {
	var out []Item
	for _, p := range pages {
		out = append(out, normalise(p)...)
	}
	slices.SortStableFunc(out, func(a, b Item) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Server, b.Server), cmp.Compare(a.Name, b.Name))
	})
	return out
}

func firstPage(ctx context.Context, c *Client, k ext.Kind, query string, opts *SearchOptions) ([]Item, error) {
	for page, err := range c.Search(ctx, k, query, opts) {
		if err != nil {
			return nil, err
		}
		return page.Items, nil
	}
	return nil, nil
}

// normalise divides every score by the best one, so the best item of each
// server scores 1.
func normalise(items []Item) []Item {
	best := 0.0
	for _, it := range items {
		best = max(best, it.Score)
	}
	out := slices.Clone(items)
	for i := range out {
		if best > 0 {
			out[i].Score /= best
		}
	}
	return out
}
