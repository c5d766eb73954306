package server

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The directory of servers tells the model which servers it can reach
// through this one, so that it searches with their words and does not
// search for what is not there. It is the caller's own (the servers of
// which it may see an item, from an [ext.Directory]), and ends the
// instructions of the initialize and server/discover results and, in
// meta-tool mode, the description of search_tools.
//
// It is written within a budget of characters ([DirectoryText]), which
// decides its shape:
//
//  1. Every server on a line of its own with what it is about (cut at
//     MaxAboutChars), when all fit; servers without a phrase are named on
//     a last line, "Also: a, b.".
//  2. Otherwise every server is named, and the servers with the most items
//     get a line with their phrase as long as the budget allows (most
//     items first, ties in name order); the others are on the "Also" line.
//  3. When even the names do not fit, the servers with the most items are
//     named, as many as fit, and the text ends "and N more: search to find
//     them.".
//
// Servers are listed in catalog order in every shape.

// DefaultDirectoryChars is the directory's budget unless configured, about
// 350 tokens. Claude Code cuts a server's instructions and each tool's
// description at ClientTextChars; the default instructions and
// search_tools' description, with a directory of this size after them,
// stay within that (TestDirectoryFitsClaudeCode).
const DefaultDirectoryChars = 1400

// ClientTextChars is where Claude Code cuts a server's instructions and a
// tool's description ("… [truncated]").
const ClientTextChars = 2048

// MaxAboutChars bounds a server's phrase in the directory.
const MaxAboutChars = 60

// The words that begin a directory: of servers indexed for search, and of
// servers whose items the caller can call through this one.
const (
	indexedHere   = "Servers indexed here"
	reachableHere = "Servers you can reach here"
)

// DirectoryText writes the directory of entries within budget characters
// (see the shapes above), as servers indexed here; "" when there is no
// entry or the budget cannot hold one name.
func DirectoryText(entries []ext.ServerEntry, budget int) string {
	return directoryText(entries, budget, indexedHere)
}

// ReachableDirectoryText is DirectoryText for a caller that can call the
// servers' items through this one (meta-tool mode with call_tool).
func ReachableDirectoryText(entries []ext.ServerEntry, budget int) string {
	return directoryText(entries, budget, reachableHere)
}

// directoryText writes the directory, beginning with the words head.
func directoryText(entries []ext.ServerEntry, budget int, head string) string {
	if len(entries) == 0 {
		return ""
	}
	lined := make([]bool, len(entries))
	used := runes(directoryHeader(head, len(entries))) + runes(alsoLine(entries, lined))
	if used > budget {
		return shortDirectory(entries, budget, head)
	}
	for _, i := range byItems(entries) {
		if entries[i].About == "" {
			continue
		}
		cost := runes(entryLine(entries[i])) - runes(entries[i].Name) - len(", ")
		if used+cost <= budget {
			lined[i], used = true, used+cost
		}
	}
	if !slices.Contains(lined, true) {
		return fmt.Sprintf("%s (%d): %s.", head, len(entries), strings.Join(names(entries, nil), ", "))
	}
	var b strings.Builder
	b.WriteString(directoryHeader(head, len(entries)))
	for i, e := range entries {
		if lined[i] {
			b.WriteString(entryLine(e))
		}
	}
	b.WriteString(alsoLine(entries, lined))
	return strings.TrimSuffix(b.String(), "\n")
}

// names are the names of the entries not skipped (skip may be nil).
func names(entries []ext.ServerEntry, skip []bool) []string {
	var out []string
	for i, e := range entries {
		if skip == nil || !skip[i] {
			out = append(out, e.Name)
		}
	}
	return out
}

func directoryHeader(head string, n int) string {
	return fmt.Sprintf("%s (%d), with what each is about:\n", head, n)
}

func entryLine(e ext.ServerEntry) string {
	return "- " + e.Name + ": " + cutAbout(e.About) + "\n"
}

// alsoLine names the entries without a line of their own.
func alsoLine(entries []ext.ServerEntry, lined []bool) string {
	rest := names(entries, lined)
	if len(rest) == 0 {
		return ""
	}
	return "Also: " + strings.Join(rest, ", ") + ".\n"
}

// shortDirectory names the servers with the most items, as many as fit
// within budget, and counts the others.
func shortDirectory(entries []ext.ServerEntry, budget int, words string) string {
	head := fmt.Sprintf("%s (%d), those with the most items: ", words, len(entries))
	tail := func(more int) string { return fmt.Sprintf(" and %d more: search to find them.", more) }
	used := runes(head) + runes(tail(len(entries)))
	keep := make([]bool, len(entries))
	kept := 0
	for _, i := range byItems(entries) {
		cost := runes(entries[i].Name) + len(", ")
		if used+cost > budget {
			break
		}
		keep[i], used, kept = true, used+cost, kept+1
	}
	if kept == 0 {
		return ""
	}
	var shown []string
	for i, e := range entries {
		if keep[i] {
			shown = append(shown, e.Name)
		}
	}
	return head + strings.Join(shown, ", ") + "," + tail(len(entries)-kept)
}

// byItems returns the indexes of entries, the most items first, ties in
// name order.
func byItems(entries []ext.ServerEntry) []int {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(entries[b].Items-entries[a].Items, strings.Compare(entries[a].Name, entries[b].Name))
	})
	return order
}

// cutAbout cuts a phrase to MaxAboutChars, after a word.
func cutAbout(s string) string {
	r := []rune(s)
	if len(r) <= MaxAboutChars {
		return s
	}
	cut := string(r[:MaxAboutChars-1])
	if i := strings.LastIndex(cut, " "); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ",;:") + "…"
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// directoryFor returns the directory of the caller in ctx, "" when the
// searcher is no ext.Directory or the directory is off. It names the
// servers as reachable only for a caller that meta-tool mode gives
// call_tool; for any other they are servers indexed here, whose items it
// finds by searching, whatever it may call (what it is is the caller's
// own, as its access key is: kept by it).
func (h *Handler) directoryFor(ctx context.Context) (string, error) {
	d, ok := h.searcher.(ext.Directory)
	if !ok || h.directoryChars < 0 {
		return "", nil
	}
	return h.directories.Get(ext.AccessFrom(ctx).Key(), func() (string, error) {
		entries, err := d.Directory(ctx)
		if err != nil {
			return "", fmt.Errorf("directory of servers: %w", err)
		}
		reach, err := h.callsForwarded(ctx)
		if err != nil {
			return "", err
		}
		if reach {
			return ReachableDirectoryText(entries, h.directoryChars), nil
		}
		return DirectoryText(entries, h.directoryChars), nil
	})
}

// callsForwarded reports whether the caller in ctx gets call_tool: meta-tool
// mode serves it, with upstreams it may reach.
func (h *Handler) callsForwarded(ctx context.Context) (bool, error) {
	if h.meta == nil || h.caller == nil {
		return false, nil
	}
	if meta, err := h.meta.servesMeta(ctx, h); err != nil || !meta {
		return false, err
	}
	mine, err := h.meta.forCaller(ctx, h)
	return mine.proxy, err
}

// instructionsFor is the instructions of the caller in ctx: the server's,
// then the caller's directory of servers.
func (h *Handler) instructionsFor(ctx context.Context) (string, error) {
	dir, err := h.directoryFor(ctx)
	if err != nil || dir == "" {
		return h.instructions, err
	}
	return h.instructions + "\n\n" + dir, nil
}
