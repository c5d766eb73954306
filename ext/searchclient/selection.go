package searchclient

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Budget bounds the tools a selection exposes to the model for one turn.
// At least one of Tools and Tokens must be set.
type Budget struct {
	// Tools is the most tools a selection holds, pinned tools included. If
	// zero, the count is not bounded.
	Tools int
	// Tokens is the most tokens the definitions of the selected tools may
	// cost together. If zero, the tokens are not bounded.
	Tokens int
	// Count returns the tokens of one tool definition (its JSON). If nil,
	// [EstimateTokens].
	Count func(definition json.RawMessage) int
}

// EstimateTokens estimates the tokens of a definition as its JSON bytes
// divided by 4, rounded up: the estimate of `mcpsearch-lab bench tokens`
// (about 4 bytes a token for English and JSON with common tokenizers).
func EstimateTokens(definition json.RawMessage) int { return (len(definition) + 3) / 4 }

func (b Budget) check() error {
	switch {
	case b.Tools < 0 || b.Tokens < 0:
		return fmt.Errorf("searchclient: budget of %d tools and %d tokens: want neither negative", b.Tools, b.Tokens)
	case b.Tools == 0 && b.Tokens == 0:
		return errors.New("searchclient: the budget bounds neither tools nor tokens")
	}
	return nil
}

// depth is how many candidates Select asks each server for: with a budget
// of tools alone, enough to fill it even when every pinned tool is among
// them; with a budget of tokens, the most a search page holds, for the
// smaller tools that may take the place of those too large.
func (b Budget) depth(pins int) int {
	if b.Tools > 0 && b.Tokens == 0 {
		return min(b.Tools+pins, ext.MaxLimit)
	}
	return ext.MaxLimit
}

// SelectOptions shape a selection. A nil *SelectOptions means the defaults.
type SelectOptions struct {
	// Pinned names the tools the application always exposes, in the order
	// they come first in the selection. A name is canonical, server__tool
	// (the names mcpsearch gives its catalog's tools); a tool of a server
	// that names it bare is pinned by its server's name (the client's, or
	// the one its _meta names), "__" and its name. If empty, nothing is
	// pinned.
	Pinned []string
}

// Selection is what to expose to the model for one turn.
type Selection struct {
	// Tools are the selected tools: the pinned tools in the order pinned,
	// then the best found by the search, best first.
	Tools []Tool
	// Tokens is the sum of the Tools' tokens.
	Tokens int
	// Skipped names (canonically) the tools left out to stay within the
	// budget although the budget reached them: pinned tools past the tool
	// count, and tools whose definition alone cost more than the tokens
	// left, which were skipped (never truncated) for smaller tools that
	// ranked after them.
	Skipped []string
	// Missing lists the pinned names no server answered with. A server in
	// Failures may hold them.
	Missing []string
	// Failures names each server that failed, with its error; what it gave
	// before it failed is used.
	Failures map[string]error
}

// Tool is one selected tool.
type Tool struct {
	// Canonical is the name to show the model, unique in a selection:
	// the tool's name when it begins with its server's name and "__" (as
	// mcpsearch names its catalog's tools), else server__name.
	Canonical string
	// Name is the tool's name as its server lists it: what tools/call takes.
	Name string
	// Server is the tool's server: the one the extension names, or the
	// client's name.
	Server string
	// Client is the server to call the tool on.
	Client *Client
	// Definition is the tool's MCP object as the server sent it, without
	// the search's score.
	Definition json.RawMessage
	// Tokens is what the definition costs, by the budget's Count.
	Tokens int
	// Score is the search score normalised as FanOut does (the best of
	// each server scores 1); pinned tools have none (0).
	Score  float64
	Pinned bool
}

// Select chooses the tools to expose to the model for one turn of a
// conversation: the pinned tools, then the tools of every server that best
// match the user's message, within the budget.
//
// Every server is asked at once, bounded by ctx. A server with the
// extension is searched through it (tools/search); any other is searched
// by the fallback (its tools/list ranked locally with [Rank]). Each
// server's first page is normalised and merged as [FanOut] merges
// (the best of each server scores 1; ties by server, then name, then the
// order of clients). A tool that several servers (or pins) give under one
// canonical name is kept once, the first in that order (a pin before
// them all). Tools of different servers that share a bare name are all
// kept, told apart by their canonical names.
//
// Pinned tools are fetched by name: from a server with the extension by a
// tools/search for "select:name,…" (ext.SelectPrefix) and, when its answer
// is not a select answer (one of pinned tools only whose hint names the
// pins it lacks as unknown: a server from before select: searches the
// names as words) or it has no tools/search, from its tools/list; from any
// other server, from the tools/list its search walks anyway. They come
// first and count against the budget.
//
// The budget is never exceeded: tools are taken in order until the count
// is reached, and a tool whose definition costs more than the tokens left
// is skipped (see Selection.Skipped) while smaller tools after it may
// still fit. The message is cut to the limits of a search query
// (ext.MaxQueryTerms words, ext.MaxQueryBytes bytes); an empty message
// selects the pinned tools only.
//
// A server that fails, or does not answer before ctx is done, is reported
// in Selection.Failures and the others are used, as is what it gave
// before it failed. Select returns an error only for a bad budget, no
// servers, or when every server is in Failures (then with the Selection
// all the same).
func Select(ctx context.Context, clients []*Client, message string, b Budget, opts *SelectOptions) (*Selection, error) {
	opts = cmp.Or(opts, &SelectOptions{})
	if err := b.check(); err != nil {
		return nil, err
	}
	if len(clients) == 0 {
		return nil, errors.New("searchclient: selection over no servers")
	}
	if b.Count == nil {
		b.Count = EstimateTokens
	}
	pins := uniquePins(opts.Pinned)
	found := gather(ctx, clients, clip(message), pins, b.depth(len(pins)))
	sel := &Selection{Failures: map[string]error{}}
	var errs []error
	ranked := make([][]Item, len(clients))
	for i, f := range found {
		if f.err != nil {
			sel.Failures[clients[i].Name()] = f.err
			errs = append(errs, f.err)
		}
		ranked[i] = f.ranked
	}
	pinned, missing := resolvePins(pins, found)
	sel.Missing = missing
	sel.fill(b, slices.Concat(b.tools(pinned, true), b.tools(merge(ranked), false)))
	if len(errs) == len(clients) {
		return sel, fmt.Errorf("searchclient: every server failed: %w", errors.Join(errs...))
	}
	return sel, nil
}

// fill takes the candidates in order within the budget.
func (s *Selection) fill(b Budget, candidates []Tool) {
	seen := map[string]bool{}
	var pending []string // skipped for tokens; reported if a later tool is taken
	for _, t := range candidates {
		if seen[t.Canonical] {
			continue
		}
		seen[t.Canonical] = true
		full := b.Tools > 0 && len(s.Tools) == b.Tools
		switch {
		case full && !t.Pinned:
			return
		case full || b.Tokens > 0 && s.Tokens+t.Tokens > b.Tokens:
			if t.Pinned {
				s.Skipped = append(s.Skipped, t.Canonical)
			} else {
				pending = append(pending, t.Canonical)
			}
		default:
			s.Tools = append(s.Tools, t)
			s.Tokens += t.Tokens
			s.Skipped, pending = append(s.Skipped, pending...), nil
		}
	}
}

// candidates is what one server gave: the tools matching pins and the
// first page of its search, best first.
type candidates struct {
	pinned, ranked []Item
	err            error
}

// gather asks every client at once.
func gather(ctx context.Context, clients []*Client, query string, pins []string, depth int) []candidates {
	found := make([]candidates, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() { found[i] = c.candidates(ctx, query, pins, depth) })
	}
	wg.Wait()
	return found
}

// tools turns items into candidate tools.
func (b Budget) tools(items []Item, pinned bool) []Tool {
	var out []Tool
	for _, it := range items {
		def := definition(it.Object)
		t := Tool{Canonical: canonicalName(it), Name: it.Name, Server: it.Server, Client: it.client,
			Definition: def, Tokens: b.Count(def), Pinned: pinned}
		if !pinned {
			t.Score = it.Score
		}
		out = append(out, t)
	}
	return out
}

// canonicalName is it's name if it begins with its server's name and
// "__", else server__name.
func canonicalName(it Item) string {
	if strings.HasPrefix(it.Name, it.Server+separator) {
		return it.Name
	}
	return it.Server + separator + it.Name
}

// separator joins a server's name and a tool's in a canonical name, as
// index.DefaultSeparator does.
const separator = "__"

// definition is obj without the search's score (and explanation) in its
// _meta: the tool's definition as tools/list gives it. An object without
// them is returned as it is.
func definition(obj json.RawMessage) json.RawMessage {
	var o map[string]json.RawMessage
	var meta map[string]json.RawMessage
	if json.Unmarshal(obj, &o) != nil || json.Unmarshal(o["_meta"], &meta) != nil {
		return obj
	}
	_, score := meta[ext.MetaScore]
	_, explain := meta[ext.MetaExplain]
	if !score && !explain {
		return obj
	}
	delete(meta, ext.MetaScore)
	delete(meta, ext.MetaExplain)
	o["_meta"], _ = json.Marshal(meta)
	if len(meta) == 0 {
		delete(o, "_meta")
	}
	out, err := json.Marshal(o)
	if err != nil {
		return obj
	}
	return out
}

// clip cuts a message to the limits of a search query.
func clip(message string) string {
	words := strings.Fields(message)
	words = words[:min(len(words), ext.MaxQueryTerms)]
	for len(strings.Join(words, " ")) > ext.MaxQueryBytes {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " ")
}
