package searchclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// candidates asks c for its part of a selection: the first page (depth
// items) of its search for query, unless query is empty, and the tools it
// holds that pins name.
func (c *Client) candidates(ctx context.Context, query string, pins []string, depth int) candidates {
	if !c.HasExtension(ext.KindTool) {
		return c.localCandidates(ctx, query, pins, depth)
	}
	var out candidates
	var errs []error
	if query != "" {
		items, err := firstPage(ctx, c, ext.KindTool, query, &SearchOptions{Limit: depth})
		out.ranked, errs = items, append(errs, err)
	}
	if len(pins) > 0 {
		items, err := c.remotePins(ctx, pins)
		out.pinned, errs = items, append(errs, err)
	}
	out.err = errors.Join(errs...)
	return out.from(c)
}

// localCandidates lists c's tools once, for both the local ranking and the
// pinned tools.
func (c *Client) localCandidates(ctx context.Context, query string, pins []string, depth int) candidates {
	if query == "" && len(pins) == 0 {
		return candidates{}
	}
	objects, err := c.listAll(ctx, ext.KindTool)
	if err != nil {
		return candidates{err: fmt.Errorf("searchclient: %s: listing tools for the local ranking: %w", c.name, err)}
	}
	var out candidates
	if query != "" {
		ranked := c.rank(query, objects)
		out.ranked = ranked[:min(depth, len(ranked))]
	}
	out.pinned = c.pinsIn(objects, pins)
	return out.from(c)
}

// from marks every item as found on c.
func (f candidates) from(c *Client) candidates {
	for i := range f.ranked {
		f.ranked[i].client = c
	}
	for i := range f.pinned {
		f.pinned[i].client = c
	}
	return f
}

// remotePins fetches the pinned tools c holds with a tools/search for
// "select:a,b,…" (ext.SelectPrefix). The answer is taken as a selection
// when it holds only pinned tools and its hint names every pin it lacks as
// unknown ("unknown: a, b"): those c does not hold (or hides). Otherwise
// (a server that read the names as words, or one without tools/search) the
// pins the answer lacks are looked up in its tools/list.
func (c *Client) remotePins(ctx context.Context, pins []string) ([]Item, error) {
	var found []Item
	var rest []string // pins to look up in tools/list
	for _, chunk := range selectChunks(pins) {
		page, err := c.searchPage(ctx, ext.KindTool, ext.SelectPrefix+strings.Join(chunk, ","), len(chunk), nil, "")
		if c.isMethodNotFound(err) {
			rest = append(rest, chunk...)
			continue
		}
		if err != nil {
			return found, fmt.Errorf("searchclient: %s: %s of pinned tools: %w", c.name, ext.KindTool.SearchMethod(), err)
		}
		hits, exact := pinnedAmong(page.Items, chunk)
		found = append(found, hits...)
		if lacking := unmatched(chunk, hits); !exact || !namedUnknown(page.Hint, lacking) {
			rest = append(rest, lacking...)
		}
	}
	if len(rest) == 0 {
		return found, nil
	}
	objects, err := c.listAll(ctx, ext.KindTool)
	if err != nil {
		return found, fmt.Errorf("searchclient: %s: listing tools for pinned %q: %w", c.name, rest, err)
	}
	return append(found, c.pinsIn(objects, rest)...), nil
}

// namedUnknown reports whether hint, the hint of a select answer, names
// every one of names as unknown ("unknown: a, b").
func namedUnknown(hint string, names []string) bool {
	list, ok := strings.CutPrefix(hint, "unknown:")
	if !ok {
		return len(names) == 0
	}
	unknown := strings.Split(list, ",")
	for i := range unknown {
		unknown[i] = strings.TrimSpace(unknown[i])
	}
	return !slices.ContainsFunc(names, func(n string) bool { return !slices.Contains(unknown, n) })
}

// selectChunks cuts pins into the queries of select searches: at most
// ext.MaxLimit names (a page's most) and ext.MaxQueryBytes bytes each.
func selectChunks(pins []string) [][]string {
	var out [][]string
	var cur []string
	size := len(ext.SelectPrefix)
	for _, p := range pins {
		if len(cur) == ext.MaxLimit || len(cur) > 0 && size+1+len(p) > ext.MaxQueryBytes {
			out, cur, size = append(out, cur), nil, len(ext.SelectPrefix)
		}
		cur, size = append(cur, p), size+1+len(p)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// pinsIn returns the listed objects that pins name.
func (c *Client) pinsIn(objects []json.RawMessage, pins []string) []Item {
	var out []Item
	for _, obj := range objects {
		it, err := c.item(obj)
		if err == nil && namedBy(it, pins) {
			out = append(out, it)
		}
	}
	return out
}

// pinnedAmong returns the items that pins name, and whether every item is
// one of them.
func pinnedAmong(items []Item, pins []string) (hits []Item, exact bool) {
	exact = true
	for _, it := range items {
		if namedBy(it, pins) {
			hits = append(hits, it)
		} else {
			exact = false
		}
	}
	return hits, exact
}

// unmatched returns the pins that name none of hits.
func unmatched(pins []string, hits []Item) []string {
	return slices.DeleteFunc(slices.Clone(pins), func(p string) bool {
		return slices.ContainsFunc(hits, names(p))
	})
}

// names returns whether pin p names an item: its name, or its canonical
// name.
func names(p string) func(Item) bool {
	return func(it Item) bool { return p == it.Name || p == canonicalName(it) }
}

// namedBy reports whether one of pins names it.
func namedBy(it Item, pins []string) bool {
	return slices.ContainsFunc(pins, func(p string) bool { return names(p)(it) })
}

// uniquePins drops empty and repeated names, keeping the first of each.
func uniquePins(names []string) []string {
	var out []string
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// resolvePins takes, for each pin in order, the first tool that names it
// on the first server that holds one; missing are the pins none held.
func resolvePins(pins []string, found []candidates) (pinned []Item, missing []string) {
	for _, p := range pins {
		i := slices.IndexFunc(found, func(f candidates) bool { return slices.ContainsFunc(f.pinned, names(p)) })
		if i < 0 {
			missing = append(missing, p)
			continue
		}
		pinned = append(pinned, found[i].pinned[slices.IndexFunc(found[i].pinned, names(p))])
	}
	return pinned, missing
}
