package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
)

// What meta-tool mode shows one caller. A caller learns nothing of what it
// may not see, so meta-tool mode answers it as it would answer over a
// catalog without the items hidden from it:
//
//   - call_tool reaches, for it, the servers of MetaOptions.Servers of
//     which it may see an item (its directory, ext.Directory);
//     search_tools searches their tools only, and no hint names another.
//     When it sees none of them, call_tool is not listed for it and
//     search_tools searches every tool it sees, as without upstreams.
//   - Auto mode measures the tools it sees: a caller who sees few tools
//     gets the full list, whatever the catalog holds besides.

// callerMeta is meta-tool mode as one caller sees it.
type callerMeta struct {
	proxy   bool     // call_tool is listed
	servers []string // the servers search_tools searches, sorted; nil: every one
}

// forCaller is meta-tool mode for the caller in ctx.
func (m *MetaTools) forCaller(ctx context.Context, h *Handler) (callerMeta, error) {
	d, ok := h.searcher.(ext.Directory)
	if !m.proxy || m.servers == nil || !ok || ext.AccessFrom(ctx).All {
		return callerMeta{proxy: m.proxy, servers: m.servers}, nil
	}
	entries, err := d.Directory(ctx)
	if err != nil {
		return callerMeta{}, fmt.Errorf("servers call_tool reaches: %w", err)
	}
	var seen []string
	for _, e := range entries {
		if slices.Contains(m.servers, e.Name) {
			seen = append(seen, e.Name)
		}
	}
	if len(seen) == 0 {
		return callerMeta{}, nil
	}
	slices.Sort(seen)
	return callerMeta{proxy: true, servers: seen}, nil
}

// isMetaTool reports whether name is a meta tool of this caller's.
func (c callerMeta) isMetaTool(name string) bool {
	return name == SearchToolsName || (c.proxy && name == CallToolName)
}

// reaches reports whether search_tools returns the tools of server.
func (c callerMeta) reaches(server string) bool {
	return c.servers == nil || slices.Contains(c.servers, server)
}

// servesMeta reports whether the caller in ctx gets meta-tool mode: always
// in meta mode; in auto mode, when the JSON of the tools it sees is longer
// than the threshold (every tool is, for a caller who sees them all:
// NewMetaTools measured them).
func (m *MetaTools) servesMeta(ctx context.Context, h *Handler) (bool, error) {
	a := ext.AccessFrom(ctx)
	if !m.auto || a.All {
		return true, nil
	}
	return m.choices.Get(a.Key(), func() (bool, error) {
		_, big, err := listExceeds(ctx, h.searcher, m.threshold)
		return big, err
	})
}

// orFull answers req with full, the method's handler outside meta-tool
// mode, unless err.
func orFull(ctx context.Context, h *Handler, req *request, full handlerFunc, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return full(ctx, h, req)
}
