// Package searchclient is a client of the MCP search extension
// (tools/search, prompts/search, resources/search and
// resources/templates/search) for search-aware clients and gateways, built
// on mcp-go's client.
//
// [Connect] (or [New], over an mcp-go client you have initialized) reads the
// server's capabilities. [Client.Search] then iterates over pages of ranked
// results:
//
//   - Against a server that advertises the extension — the methods listed
//     in capabilities.extensions["io.github.mcpsearch/search"] or
//     capabilities.experimental["search"], or the flags tools.search,
//     prompts.search and resources.search — each page is one */search
//     request and the next page follows the server's nextCursor. (mcp-go's
//     typed capabilities drop those flags: Connect reads them from the
//     handshake's HTTP answer, New sees only the extensions and experimental
//     entries. A server that advertises the extension but answers a search
//     method with -32601 is searched by the fallback.)
//   - Against any other MCP server the fallback walks every page of the
//     matching list method (tools/list, …) and ranks the items locally with
//     [Rank], a small BM25 over names and descriptions, then serves the
//     ranking in pages of the requested size. Items that share no word with
//     the query are left out, as the extension leaves out weak matches.
//
// Both paths yield the same [Page] of [Item]s, best first, with a score.
// Kinds, filters, the extension id and the _meta keys are those of package
// ext, the extension's vocabulary.
//
// [FanOut] searches several servers at once and merges their first pages by
// normalised score: each server's scores are divided by that server's best
// score, so every server's best item scores 1 and scales as different as
// bleve's BM25 and the local ranking merge fairly. A server that fails is
// reported in [FanOutResult.Failures]; the search fails only when every
// server fails.
//
// [Select] turns a user's message into the tools to expose to the model for
// that turn, before the model is called: it searches every server with the
// message as FanOut does, puts the tools the application pins first
// (fetched by name with a "select:" search, or from tools/list), and keeps
// within a [Budget] of tools and tokens of definitions.
//
// The APIs' client-side tool search: [NewClaudeToolResult] answers the
// Claude Messages API's tool_use of a tool search tool ([ClaudeSearchTool])
// with tool_reference blocks naming the tools a page holds, which the
// request defines deferred ([ClaudeDeferredTools]); [NewOpenAIToolSearchOutput]
// answers the OpenAI Responses API's client-executed tool_search_call
// ([OpenAISearchTool]) with a tool_search_output holding their
// definitions. [ParseToolSearchInput] reads the model's input and
// [Client.ToolSearch] runs it. The wire types are the package's own,
// written from @anthropic-ai/sdk 1.15.0's and openai 7.59.0's types and
// type-checked against them (ext/README.md, "The APIs' client-side tool
// search").
//
// The package depends on the standard library, mcp-go and package ext only.
package searchclient

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Options configure a Client. A nil *Options means the defaults.
type Options struct {
	// Name labels the server in fan-out results and errors. If empty, the
	// server's own name from its initialize or discover result.
	Name string
	// ClientInfo identifies this client to the server. If empty,
	// "mcpsearch-searchclient" "dev". Used by Connect only.
	ClientInfo mcp.Implementation
	// ProtocolVersion pins the protocol revision Connect negotiates. If
	// empty, the newest both sides speak (server/discover first).
	ProtocolVersion string
	// Headers are sent with every HTTP request (Connect only), e.g. an
	// Authorization header.
	Headers map[string]string
	// ForceFallback ranks locally even when the server has the extension.
	ForceFallback bool
}

// Client searches one MCP server.
type Client struct {
	mc      *client.Client
	name    string
	info    mcp.Implementation // sent in _meta on 2026-07-28
	methods map[string]bool    // search methods the server advertises
	owned   bool               // Close closes mc
}

// Connect connects to the Streamable HTTP endpoint url, initializes (or
// discovers, on 2026-07-28), and reads the server's capabilities.
func Connect(ctx context.Context, url string, opts *Options) (*Client, error) {
	opts = cmp.Or(opts, &Options{})
	rec := &capsRecorder{base: http.DefaultTransport}
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(&http.Client{Transport: rec})}
	if len(opts.Headers) > 0 {
		topts = append(topts, transport.WithHTTPHeaders(opts.Headers))
	}
	var copts []client.ClientOption
	if opts.ProtocolVersion != "" {
		copts = append(copts, client.WithProtocolVersion(opts.ProtocolVersion))
	}
	mc, err := client.NewStreamableHttpClient(url, topts...)
	if err != nil {
		return nil, fmt.Errorf("searchclient: %s: %w", url, err)
	}
	c, err := connect(ctx, mc, opts, copts)
	if err != nil {
		mc.Close()
		return nil, fmt.Errorf("searchclient: %s: %w", url, err)
	}
	c.owned = true
	if !opts.ForceFallback {
		maps.Copy(c.methods, rec.searchFlags())
	}
	return c, nil
}

func connect(ctx context.Context, mc *client.Client, opts *Options, copts []client.ClientOption) (*Client, error) {
	for _, o := range copts {
		o(mc)
	}
	if err := mc.Start(ctx); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = opts.ProtocolVersion
	req.Params.ClientInfo = opts.ClientInfo
	if req.Params.ClientInfo.Name == "" {
		req.Params.ClientInfo = defaultInfo
	}
	res, err := mc.Initialize(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("initializing: %w", err)
	}
	return New(mc, cmp.Or(opts.Name, res.ServerInfo.Name), opts), nil
}

var defaultInfo = mcp.Implementation{Name: "mcpsearch-searchclient", Version: "dev"}

// New wraps an mcp-go client that has been initialized; name labels the
// server in fan-out results. It reads the capabilities the client
// received. Close does not close mc.
func New(mc *client.Client, name string, opts *Options) *Client {
	opts = cmp.Or(opts, &Options{})
	c := &Client{mc: mc, name: name, info: opts.ClientInfo, methods: map[string]bool{}}
	if c.info.Name == "" {
		c.info = defaultInfo
	}
	if !opts.ForceFallback {
		c.methods = advertised(mc.GetServerCapabilities())
	}
	return c
}

// advertised returns the search methods named by the extension entry (or,
// for older servers, the experimental one).
func advertised(caps mcp.ServerCapabilities) map[string]bool {
	out := map[string]bool{}
	for _, entry := range []any{caps.Extensions[ext.ExtensionID], caps.Experimental["search"]} {
		var info struct {
			Methods []string `json:"methods"`
		}
		raw, _ := json.Marshal(entry)
		if json.Unmarshal(raw, &info) != nil {
			continue
		}
		for _, m := range info.Methods {
			out[m] = true
		}
	}
	return out
}

// Name is the label of the server.
func (c *Client) Name() string { return c.name }

// HasExtension reports whether the server advertises the search method of
// kind k.
func (c *Client) HasExtension(k ext.Kind) bool { return c.methods[k.SearchMethod()] }

// MCP is the underlying mcp-go client, for calls beyond search.
func (c *Client) MCP() *client.Client { return c.mc }

// Close closes the connection Connect opened.
func (c *Client) Close() error {
	if c.owned {
		return c.mc.Close()
	}
	return nil
}

// SearchOptions shape a search. A nil *SearchOptions means the defaults.
type SearchOptions struct {
	// Limit is the number of items a page holds: 1 to ext.MaxLimit. If
	// zero, ext.DefaultLimit.
	Limit int
	// Filter is passed to the extension as params.filter; the fallback
	// applies Servers (against each item's server: the one its _meta
	// names, else the client's name) and Annotations (tools, with the MCP
	// defaults of the standard hints).
	Filter *ext.Filter
}

// Page is one page of results, best first.
type Page struct {
	Items []Item
	// NextCursor is the server's cursor for the next page (extension only;
	// the fallback pages through its local ranking without cursors).
	NextCursor string
	// Hint is the server's explanation of an empty page, if it gave one.
	Hint string
	// Fallback reports that the page was ranked locally from list results.
	Fallback bool
}

// Item is one result: the MCP object as the server sent it, with its name
// (a resource's URI when it has no name), its relevance score (higher is
// better; scales differ between servers) and the server it came from.
type Item struct {
	Name   string
	Object json.RawMessage
	Score  float64
	// Server is the item's server as the extension reports it, or the
	// client's name.
	Server string

	client *Client // the server Select found it on
}

// Search iterates over the pages of results for query among the items of
// kind k. Stop ranging to stop fetching; an error ends the iteration. An
// unknown kind, an empty query or a limit out of range is an error before
// anything is sent.
func (c *Client) Search(ctx context.Context, k ext.Kind, query string, opts *SearchOptions) iter.Seq2[*Page, error] {
	opts = cmp.Or(opts, &SearchOptions{})
	limit := cmp.Or(opts.Limit, ext.DefaultLimit)
	return func(yield func(*Page, error) bool) {
		if err := checkSearch(k, query, limit); err != nil {
			yield(nil, err)
			return
		}
		if c.HasExtension(k) {
			fellBack, ok := c.searchRemote(ctx, k, query, limit, opts.Filter, yield)
			if !fellBack || !ok {
				return
			}
		}
		c.searchLocal(ctx, k, query, limit, opts.Filter, yield)
	}
}

func checkSearch(k ext.Kind, query string, limit int) error {
	switch {
	case !k.Valid():
		return fmt.Errorf("searchclient: unknown kind %q (want tool, prompt, resource or resourceTemplate)", k)
	case strings.TrimSpace(query) == "":
		return errors.New("searchclient: empty query")
	case limit < 1 || limit > ext.MaxLimit:
		return fmt.Errorf("searchclient: limit %d not in [1,%d]", limit, ext.MaxLimit)
	}
	return nil
}

// searchRemote pages through the server's search method. It reports
// whether the server refused the method before any page was yielded (then
// the caller falls back) and whether iteration should go on.
func (c *Client) searchRemote(ctx context.Context, k ext.Kind, query string, limit int, f *ext.Filter, yield func(*Page, error) bool) (fellBack, ok bool) {
	cursor := ""
	for first := true; ; first = false {
		page, err := c.searchPage(ctx, k, query, limit, f, cursor)
		if first && c.isMethodNotFound(err) {
			return true, true
		}
		if err != nil {
			return false, yield(nil, fmt.Errorf("searchclient: %s %s: %w", c.name, k.SearchMethod(), err))
		}
		if !yield(page, nil) || page.NextCursor == "" {
			return false, false
		}
		cursor = page.NextCursor
	}
}

// isMethodNotFound reports whether err is -32601. On 2026-07-28 the
// server answers it with HTTP 404, which mcp-go's transport reports as a
// terminated session; that era has no sessions, so it means the same.
func (c *Client) isMethodNotFound(err error) bool {
	return errors.Is(err, mcp.ErrMethodNotFound) ||
		mcp.IsModernProtocol(c.mc.ProtocolVersion()) && errors.Is(err, transport.ErrSessionTerminated)
}

// searchPage sends one */search request. On 2026-07-28 connections it adds
// the protocol _meta and the standard headers that mcp-go adds to its own
// requests (custom methods go around that).
func (c *Client) searchPage(ctx context.Context, k ext.Kind, query string, limit int, f *ext.Filter, cursor string) (*Page, error) {
	params := map[string]any{"query": query, "limit": limit}
	if cursor != "" {
		params["cursor"] = cursor
	}
	if f != nil {
		params["filter"] = f
	}
	var header http.Header
	if v := c.mc.ProtocolVersion(); mcp.IsModernProtocol(v) {
		params["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion:    v,
			mcp.MetaKeyClientCapabilities: c.mc.GetClientCapabilities(),
			mcp.MetaKeyClientInfo:         c.info,
		}
		raw, _ := json.Marshal(params)
		header = http.Header{}
		for name, value := range mcp.StandardHeaders(v, mcp.MCPMethod(k.SearchMethod()), raw) {
			header.Set(name, value)
		}
	}
	resp, err := c.mc.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(nextID()), Method: k.SearchMethod(), Params: params, Header: header,
	})
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error.AsError()
	}
	return c.decodePage(k, resp.Result)
}
