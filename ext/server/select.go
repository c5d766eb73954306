package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Select queries. A search whose query starts with select: (in any case)
// names the items it wants instead of describing them, as Claude Code's
// tool search does: "select:gitlab__create_issue, gitlab__get_issue". The
// answer holds, in the order named and without duplicates, the named items
// the caller may see, each with its server in _meta and no score, on one
// page; the names that give none are listed in the hint, "unknown: a, b",
// whether nothing has that name or the caller may not see it (the two take
// the same lookups).
//
// Names are split at commas; white space around a name is dropped, and so
// is an empty name (a trailing comma). Names are matched exactly, case
// included: tools and prompts by canonical name (server__tool), also
// written as Claude Code writes an MCP tool, mcp__<the client's name for
// this server>__<canonical name>; resources by URI, templates by URI
// template. A bare tool name is not accepted: which tool it means would
// change as servers are added.

// maxClientPrefixes bounds the ways a name of the form mcp__a__b__c is cut
// into the client's name for this server and a canonical name.
const maxClientPrefixes = 4

// claudePrefix starts a tool or prompt name as Claude Code writes it.
const claudePrefix = "mcp__"

// parseSelect returns the names of a select query, or ok false when the
// query is not one. It is checked as every query is (validateQueryText).
// Duplicate names are kept: the same item may be named in two ways.
func parseSelect(query string) (names []string, ok bool, err error) {
	query = strings.TrimSpace(query)
	if len(query) < len(ext.SelectPrefix) || !strings.EqualFold(query[:len(ext.SelectPrefix)], ext.SelectPrefix) {
		return nil, false, nil
	}
	if err := validateQueryText(query); err != nil {
		return nil, true, err
	}
	for _, name := range strings.Split(query[len(ext.SelectPrefix):], ",") {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
		}
	}
	switch {
	case len(names) == 0:
		return nil, true, fmt.Errorf("%w: select: names no item; write select:name1,name2", ext.ErrInvalidParams)
	case len(names) > ext.MaxLimit:
		return nil, true, fmt.Errorf("%w: select: names %d items, at most %d are allowed", ext.ErrInvalidParams, len(names), ext.MaxLimit)
	}
	return names, true, nil
}

// selected finds the items of kind k that names name, in order and once
// each, of those keep accepts (nil: all); it returns them and the names
// that found none.
func (h *Handler) selected(ctx context.Context, k ext.Kind, names []string, keep func(ext.Hit) bool) ([]ext.Hit, []string, error) {
	sel, _ := h.searcher.(ext.Selector)
	var hits []ext.Hit
	var unknown []string
	seen := map[string]bool{}
	for _, name := range names {
		found, key, err := selectOne(ctx, sel, k, name, keep)
		if err != nil {
			return nil, nil, fmt.Errorf("select %s %q: %w", k, name, err)
		}
		if len(found) == 0 {
			unknown = append(unknown, name)
		}
		for _, hit := range found {
			if id := hit.Server + "\x00" + key; !seen[id] {
				seen[id] = true
				hits = append(hits, hit)
			}
		}
	}
	return hits, unknown, nil
}

// selectOne finds the items one name names, trying each name it may stand
// for until one gives items keep accepts; it returns them and that name.
func selectOne(ctx context.Context, sel ext.Selector, k ext.Kind, name string, keep func(ext.Hit) bool) ([]ext.Hit, string, error) {
	if sel == nil {
		return nil, "", nil
	}
	for _, candidate := range selectCandidates(k, name) {
		found, err := sel.Select(ctx, k, candidate)
		if err != nil {
			return nil, "", err
		}
		var kept []ext.Hit
		for _, hit := range found {
			if keep == nil || keep(hit) {
				kept = append(kept, hit)
			}
		}
		if len(kept) > 0 {
			return kept, candidate, nil
		}
	}
	return nil, "", nil
}

// selectCandidates lists the names a selected name may stand for: itself,
// then, for a tool or prompt written mcp__<client's name>__<rest>, each
// rest, the shortest client's name first.
func selectCandidates(k ext.Kind, name string) []string {
	out := []string{name}
	if k != ext.KindTool && k != ext.KindPrompt || !strings.HasPrefix(name, claudePrefix) {
		return out
	}
	rest := name[len(claudePrefix):]
	for from := 1; len(out) <= maxClientPrefixes; {
		i := strings.Index(rest[from:], "__")
		if i < 0 {
			break
		}
		cut := from + i + len("__")
		if cut < len(rest) {
			out = append(out, rest[cut:])
		}
		from = cut
	}
	return out
}

// unknownHint is the hint of a select answer whose names unknown found
// nothing.
func unknownHint(unknown []string) string {
	if len(unknown) == 0 {
		return ""
	}
	return "unknown: " + strings.Join(unknown, ", ")
}

// selectMethod answers a select query of the search method of kind k:
// the named items keep accepts (nil: all).
func (h *Handler) selectMethod(ctx context.Context, req *request, k ext.Kind, p *SearchParams, names []string, keep func(ext.Hit) bool) (any, error) {
	switch {
	case p.Cursor != "":
		return nil, fmt.Errorf("%w: a select: answer has a single page; the cursor is not one of it", ext.ErrInvalidParams)
	case p.Filter != nil:
		return nil, fmt.Errorf("%w: a select: query takes no filter: it names the items it wants", ext.ErrInvalidParams)
	}
	explain, err := explainRequested(p.Meta)
	if err != nil {
		return nil, err
	}
	if explain {
		return nil, fmt.Errorf("%w: a select: query is not ranked, there is nothing to explain", ext.ErrInvalidParams)
	}
	if _, err := validateLimit(p.Limit); err != nil {
		return nil, err
	}
	hits, unknown, err := h.selected(ctx, k, names, keep)
	if err != nil {
		return nil, err
	}
	return h.pageResult(req, k, &ext.Page{Items: hits, Hint: unknownHint(unknown)}, 0, [8]byte{}, false)
}
