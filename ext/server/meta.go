package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Meta-tool mode serves clients that see only tools (most LLM hosts):
// tools/list answers two meta tools, search_tools and call_tool, plus a
// configured set of always-listed tools, instead of the whole catalog. The
// model searches with search_tools and calls what it found with call_tool.
// Both are answered statelessly, like every other request.

// ListMode chooses what tools/list answers.
type ListMode string

// The list modes.
const (
	ListFull ListMode = "full" // every tool of the catalog, paginated
	ListMeta ListMode = "meta" // the meta tools and the always-listed tools
	ListAuto ListMode = "auto" // meta when the full list is larger than MetaOptions.ThresholdChars
)

// DefaultMetaThreshold is the size, in characters of JSON, of the tool
// definitions above which auto mode chooses meta. It is Claude Code's own
// bar, past which that client defers MCP tools to its tool search: a tenth
// of a 180,000-token context at 2.5 characters a token, 45,000 characters.
const DefaultMetaThreshold = 45_000

// Names of the meta tools.
const (
	SearchToolsName = "search_tools"
	CallToolName    = "call_tool"
)

// MetaOptions configure meta-tool mode.
type MetaOptions struct {
	// Mode is the list mode. If empty, ListFull.
	Mode ListMode
	// Always holds canonical names of tools listed beside the meta tools.
	Always []string
	// ThresholdChars is auto mode's bar: meta is chosen when the JSON of all
	// tool definitions is longer. If zero, DefaultMetaThreshold.
	ThresholdChars int
	// Proxy lists call_tool. Set it when calls can be forwarded: a Caller
	// is configured and some server of the catalog has an upstream.
	Proxy bool
	// Servers, with Proxy, are the servers whose tools call_tool reaches:
	// search_tools returns theirs only. If empty, it searches every tool.
	Servers []string
	// Logger is told the list mode chosen and why (auto: the size of the
	// tool definitions against the threshold). If nil, nothing is told.
	Logger *slog.Logger
}

// MetaTools is the tools/list of meta-tool mode.
type MetaTools struct {
	tools     []json.RawMessage // the meta tools
	always    []string          // canonical names of the always-listed tools
	proxy     bool
	servers   []string       // search_tools searches these servers' tools; nil: all
	auto      bool           // auto mode: each caller's choice is made on the tools it sees
	threshold int            // auto mode's bar
	choices   ext.Memo[bool] // auto mode's choice of each caller, by access key (metacaller.go)
}

// NewMetaTools checks o against cat and returns the meta-tool list, or nil
// when the mode is (or, for auto, resolves to) full. Unknown names in
// o.Always are an error in every mode. Auto mode measures the tool list
// here, over every item whatever its visibility: when that is short, every
// caller gets the full list; otherwise each caller's choice is made on the
// tools it sees (metacaller.go).
func NewMetaTools(ctx context.Context, cat ext.Searcher, o MetaOptions) (*MetaTools, error) {
	ctx = ext.WithAccess(ctx, ext.Access{All: true})
	if _, err := alwaysTools(ctx, cat, o.Always); err != nil {
		return nil, err
	}
	mode := cmp.Or(o.Mode, ListFull)
	chosen, reason := mode, "configured"
	limit := cmp.Or(o.ThresholdChars, DefaultMetaThreshold)
	switch mode {
	case ListFull, ListMeta:
	case ListAuto:
		chars, big, err := listExceeds(ctx, cat, limit)
		if err != nil {
			return nil, err
		}
		chosen, reason = ListMeta, fmt.Sprintf("the tool definitions are more than the threshold of %d characters of JSON", limit)
		if !big {
			chosen, reason = ListFull, fmt.Sprintf("the tool definitions are %d characters of JSON, not more than the threshold of %d", chars, limit)
		}
	default:
		return nil, fmt.Errorf("list mode %q: want full, meta or auto", o.Mode)
	}
	if o.Logger != nil {
		o.Logger.Info("list mode", "configured", string(mode), "chosen", string(chosen), "reason", reason)
	}
	if chosen == ListFull {
		return nil, nil
	}
	if err := checkMetaNames(ctx, cat); err != nil {
		return nil, err
	}
	m := &MetaTools{proxy: o.Proxy, tools: []json.RawMessage{searchToolsDefinition(o.Proxy)}, auto: mode == ListAuto, threshold: limit}
	if o.Proxy {
		m.tools = append(m.tools, json.RawMessage(callToolDef))
		m.servers = normalizeFilter(ext.Filter{Servers: o.Servers}).Servers
	}
	m.always = o.Always
	return m, nil
}

// alwaysTools resolves the always-listed tools into their listed objects.
// Tools the caller in ctx may not see are an unknown name.
func alwaysTools(ctx context.Context, cat ext.Searcher, names []string) ([]json.RawMessage, error) {
	if len(names) == 0 {
		return nil, nil
	}
	r, ok := cat.(ext.Resolver)
	if !ok {
		return nil, errors.New("always-listed tools: the catalog cannot look tools up by name")
	}
	var out []json.RawMessage
	for _, name := range names {
		t, err := r.Resolve(ctx, ext.KindTool, name)
		if errors.Is(err, ext.ErrNotFound) {
			return nil, fmt.Errorf("%w: always-listed tool %q is not in the catalog (use canonical names, such as server__tool)", errNotListed, name)
		}
		if err != nil {
			return nil, fmt.Errorf("always-listed tool %q: %w", name, err)
		}
		obj, err := withMeta(t.Object, map[string]any{ext.MetaServer: t.Server, ext.MetaAlwaysLoad: true})
		if err != nil {
			return nil, fmt.Errorf("always-listed tool %q: %w", name, err)
		}
		out = append(out, obj)
	}
	return out, nil
}

// errNotListed is wrapped by alwaysTools for a name the caller cannot see.
var errNotListed = errors.New("not listed")

// listExceeds reports whether the JSON of all tools is longer than limit
// characters, and how long it found it; it stops reading once it is.
func listExceeds(ctx context.Context, cat ext.Searcher, limit int) (chars int, exceeds bool, err error) {
	for offset := 0; ; offset += ext.DefaultPageSize {
		page, err := cat.List(ctx, ext.KindTool, offset, ext.DefaultPageSize)
		if err != nil {
			return chars, false, fmt.Errorf("measuring the tool list: %w", err)
		}
		for _, h := range page.Items {
			chars += len(h.Object)
		}
		if chars > limit {
			return chars, true, nil
		}
		if !page.More || len(page.Items) == 0 {
			return chars, false, nil
		}
	}
}

// checkMetaNames refuses a catalog with a tool named like a meta tool.
func checkMetaNames(ctx context.Context, cat ext.Searcher) error {
	r, ok := cat.(ext.Resolver)
	if !ok {
		return nil
	}
	for _, name := range []string{SearchToolsName, CallToolName} {
		if _, err := r.Resolve(ctx, ext.KindTool, name); err == nil {
			return fmt.Errorf("meta-tool mode: the catalog has a tool named %q, as a meta tool is", name)
		}
	}
	return nil
}

// metaList answers tools/list in meta-tool mode: one page, no cursor; the
// meta tools of the caller's (metacaller.go), and of the always-listed
// tools, those the caller may see. A list with a query (listquery.go)
// answers what tools/search answers over the tools search_tools searches
// for the caller: those of the servers call_tool reaches, or every tool
// when there is no call_tool. A caller that auto mode serves the full list
// gets it.
func metaList(ctx context.Context, h *Handler, req *request) (any, error) {
	if meta, err := h.meta.servesMeta(ctx, h); err != nil || !meta {
		return orFull(ctx, h, req, listMethod(ext.KindTool), err)
	}
	q, withQuery, err := decodeListQuery(req.Params)
	if err != nil {
		return nil, err
	}
	mine, err := h.meta.forCaller(ctx, h)
	if err != nil {
		return nil, err
	}
	if withQuery {
		return h.search(ctx, req, ext.KindTool, q, searchScope{bindAs: "meta-tool mode's list with a query", servers: mine.servers})
	}
	p, err := decodeParams[ListParams](req.Params)
	if err != nil {
		return nil, err
	}
	if p.Cursor != "" {
		return nil, fmt.Errorf("%w: in meta-tool mode tools/list has a single page; the cursor is not one of this server's", ext.ErrInvalidParams)
	}
	items := slices.Clone(h.meta.tools[:1])
	if mine.proxy {
		items = append(items, h.meta.tools[1])
	}
	if items[0], err = searchToolsFor(ctx, h, mine.proxy); err != nil {
		return nil, err
	}
	for _, name := range h.meta.always {
		obj, err := alwaysTools(ctx, h.searcher, []string{name})
		if errors.Is(err, errNotListed) {
			continue
		}
		if err != nil {
			return nil, err
		}
		items = append(items, obj...)
	}
	return h.newPageResult(req, ext.KindTool.ResultKey(), items), nil
}

// metaCall answers tools/call in meta-tool mode: a call of a meta tool is
// answered here, any other is forwarded. Problems with a meta tool's
// arguments, and failures of the tool call_tool calls, are tool results
// with isError set, which the model reads.
func metaCall(ctx context.Context, h *Handler, req *request) (any, error) {
	if meta, err := h.meta.servesMeta(ctx, h); err != nil || !meta {
		return orFull(ctx, h, req, callMethod(ext.KindTool), err)
	}
	p, err := decodeCall(ext.KindTool, req.Params)
	if err != nil {
		return nil, err
	}
	mine, err := h.meta.forCaller(ctx, h)
	if err != nil {
		return nil, err
	}
	switch {
	case !mine.isMetaTool(*p.Name):
		return h.forward(ctx, req, ext.KindTool, *p.Name, rawParams(req.Params))
	case *p.Name == SearchToolsName:
		return h.meta.searchTools(ctx, h, req, mine, p.Arguments)
	}
	return h.meta.callTool(ctx, h, req, mine, p.Arguments)
}

type searchToolsArgs struct {
	Query string   `json:"query"`
	Limit *Integer `json:"limit"`
}

// compactTool is a tool as search_tools returns it.
type compactTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func (m *MetaTools) searchTools(ctx context.Context, h *Handler, req *request, mine callerMeta, raw json.RawMessage) (any, error) {
	a, err := decodeArgs[searchToolsArgs](raw)
	if err != nil {
		return h.toolError(req, err.Error()), nil
	}
	text := strings.TrimSpace(a.Query)
	if err := validateQueryText(text); err != nil {
		return h.toolError(req, err.Error()), nil
	}
	limit, err := validateLimit(a.Limit)
	if err != nil {
		return h.toolError(req, err.Error()), nil
	}
	var page *ext.Page
	if names, ok, err := parseSelect(text); ok {
		if err != nil {
			return h.toolError(req, err.Error()), nil
		}
		page, err = selectTools(ctx, h, mine, names)
		if err != nil {
			return nil, err
		}
	} else if page, err = h.searcher.Search(ctx, ext.Query{Kind: ext.KindTool, Text: text, Limit: limit, Filter: ext.Filter{Servers: mine.servers}}); err != nil {
		return nil, fmt.Errorf("search_tools: %w", err)
	}
	return m.foundTools(h, req, page)
}

// selectTools answers a select: query of search_tools: the named tools of
// the servers call_tool reaches for the caller.
func selectTools(ctx context.Context, h *Handler, mine callerMeta, names []string) (*ext.Page, error) {
	keep := func(hit ext.Hit) bool { return mine.reaches(hit.Server) }
	hits, unknown, err := h.selected(ctx, ext.KindTool, names, keep)
	if err != nil {
		return nil, fmt.Errorf("search_tools: %w", err)
	}
	return &ext.Page{Items: hits, Hint: unknownHint(unknown)}, nil
}

// foundTools is the result of search_tools: the tools of page, compact.
func (m *MetaTools) foundTools(h *Handler, req *request, page *ext.Page) (any, error) {
	tools := make([]compactTool, 0, len(page.Items))
	for _, hit := range page.Items {
		var t compactTool
		if err := json.Unmarshal(hit.Object, &t); err != nil {
			return nil, fmt.Errorf("search_tools: stored tool: %w", err)
		}
		tools = append(tools, t)
	}
	out := map[string]any{"tools": tools}
	if page.Hint != "" {
		out["hint"] = page.Hint
	}
	return h.toolResult(req, out), nil
}

type callToolArgs struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func (m *MetaTools) callTool(ctx context.Context, h *Handler, req *request, mine callerMeta, raw json.RawMessage) (any, error) {
	a, err := decodeArgs[callToolArgs](raw)
	if err != nil {
		return h.toolError(req, err.Error()), nil
	}
	if a.Name == "" || mine.isMetaTool(a.Name) {
		return h.toolError(req, `name must be the name of a tool that search_tools returned`), nil
	}
	if err := checkArguments(ext.KindTool, a.Arguments); err != nil {
		return h.toolError(req, strings.TrimPrefix(err.Error(), ext.ErrInvalidParams.Message+": ")), nil
	}
	t, err := h.resolveCallable(ctx, ext.KindTool, a.Name)
	if errors.Is(err, errNoUpstream) {
		return h.toolError(req, strings.TrimPrefix(err.Error(), ext.ErrInvalidParams.Message+": ")), nil
	}
	if errors.Is(err, ext.ErrInvalidParams) {
		return h.toolError(req, fmt.Sprintf("unknown tool %q: use a name that search_tools returned", a.Name)), nil
	}
	if err != nil {
		return nil, err
	}
	args := a.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	params, _ := json.Marshal(map[string]any{"name": a.Name, "arguments": args})
	out, err := h.callUpstream(ctx, t, "tools/call", params)
	if err != nil {
		return h.toolError(req, err.Error()), nil
	}
	return h.upstreamResult(req, t, out)
}

// decodeArgs decodes tool arguments; an absent object is the zero value.
func decodeArgs[A any](raw json.RawMessage) (*A, error) {
	a, err := decodeParams[A](raw)
	if err != nil {
		return nil, fmt.Errorf("arguments: %s", strings.TrimPrefix(err.Error(), ext.ErrInvalidParams.Message+": "))
	}
	return a, nil
}

// toolResult is a successful tool result carrying v as structured content
// and as its JSON text.
func (h *Handler) toolResult(req *request, v any) json.RawMessage {
	text, _ := json.Marshal(v)
	body, _ := json.Marshal(map[string]any{
		"content":           []map[string]string{{"type": "text", "text": string(text)}},
		"structuredContent": v,
	})
	return h.rawResult(req, body)
}

// toolError is a tool result with isError set.
func (h *Handler) toolError(req *request, msg string) json.RawMessage {
	body, _ := json.Marshal(map[string]any{
		"content": []map[string]string{{"type": "text", "text": msg}},
		"isError": true,
	})
	return h.rawResult(req, body)
}
