// Package ext implements the MCP search extension: tools/search,
// prompts/search, resources/search and resources/templates/search, plus the
// paginated tools/list, prompts/list, resources/list and
// resources/templates/list served from the same index.
//
// The extension is stateless. Every request is answered from a read-only
// [Catalog] and nothing is remembered between requests: cursors carry the
// index version, a binding to the query that made them and an offset, and are
// signed so that a garbled or forged cursor is refused with -32602.
//
// [Server] is an http.Handler for the Streamable HTTP transport (POST /mcp,
// JSON responses, no sessions). It answers the search and list methods
// itself and hands everything else (initialize, server/discover, ping,
// notifications) to mcp-go, whose initialize and server/discover results it
// extends with the search capability:
//
//	"capabilities": {
//	  "tools": {"listChanged": false, "search": true},
//	  "prompts": {"search": true}, "resources": {"search": true},
//	  "extensions": {"io.github.mcpsearch/search": {"methods": [...], "maxPageSize": 50, "index": "<version>"}},
//	  "experimental": {"search": {...the same object...}}
//	}
//
// The server is also a stateless gateway: tools/call, prompts/get and
// resources/read of an item whose server has an upstream are forwarded to
// it by a [Caller] (package ext/upstream), the item found by its canonical
// name or URI through the catalog's [Resolver]; an unknown item and an item
// that cannot be called get the same -32602. In meta-tool mode ([MetaTools])
// tools/list answers search_tools and call_tool, for clients that see only
// tools.
//
// Every Catalog and Resolver method serves one caller: the [Access] in its
// context (see [WithAccess]), which the authentication middleware (package
// ext/auth) sets. Items the caller may not see are never returned, counted
// or resolved, and cursors are bound to the caller's access.
//
// A search may ask, in its _meta, for an explanation of each item's rank
// ([MetaExplain]); the catalog computes it and the server passes it on. A
// catalog that is a [Describer] is described in the extension settings.
//
// Errors are coded (see [Error]): a method wraps one of the sentinel errors
// with context, and the boundary converts any error once into a JSON-RPC
// error, so internal details never reach a client.
//
// The package depends on the standard library and mcp-go only; the index
// behind [Catalog] lives elsewhere.
package ext

import (
	"context"
	"encoding/json"
)

// Kind is the kind of a catalog item.
type Kind string

// The four kinds of MCP items a catalog holds.
const (
	KindTool             Kind = "tool"
	KindPrompt           Kind = "prompt"
	KindResource         Kind = "resource"
	KindResourceTemplate Kind = "resourceTemplate"
)

// Kinds lists every kind, in the order lists and manifests use.
var Kinds = []Kind{KindTool, KindPrompt, KindResource, KindResourceTemplate}

// ResultKey is the key under which list and search results of kind k carry
// their items: "tools", "prompts", "resources" or "resourceTemplates".
func (k Kind) ResultKey() string {
	switch k {
	case KindTool:
		return "tools"
	case KindPrompt:
		return "prompts"
	case KindResource:
		return "resources"
	case KindResourceTemplate:
		return "resourceTemplates"
	}
	return string(k) + "s"
}

// Valid reports whether k is one of [Kinds].
func (k Kind) Valid() bool {
	switch k {
	case KindTool, KindPrompt, KindResource, KindResourceTemplate:
		return true
	}
	return false
}

// Limits of the extension. A search page holds at most MaxLimit items; a
// query is at most MaxQueryBytes long and holds at most MaxQueryTerms words;
// a filter names at most MaxFilterServers servers (each costs the catalog a
// lookup).
const (
	DefaultLimit     = 10
	MaxLimit         = 50
	MaxQueryBytes    = 4096
	MaxQueryTerms    = 128
	MaxFilterServers = 1000
	MaxSearchDepth   = 1000 // offset + limit of a search page never exceeds this
	DefaultPageSize  = 100  // items in a list page unless configured
	MaxPageSize      = 1000 // the largest configurable list page
	// MaxJSONDepth bounds the nesting of arrays and objects in a request
	// body, checked before the body is decoded.
	MaxJSONDepth = 64
	// MaxArgumentsBytes bounds the arguments of a forwarded tools/call or
	// prompts/get.
	MaxArgumentsBytes = 256 << 10
)

// Catalog is the read-only index the extension answers from. index.Index
// implements it.
type Catalog interface {
	// Search ranks the items of q.Kind that match q.Text and q.Filter, best
	// first, and returns those at q.Offset up to q.Limit of them. It returns
	// an error wrapping ErrInvalidParams when the filter cannot be applied.
	Search(ctx context.Context, q Query) (*Page, error)
	// List returns the items of kind k in their stable catalog order,
	// starting at offset, at most limit of them. Search and List return only
	// items the caller (AccessFrom(ctx)) may see; offsets count those only.
	List(ctx context.Context, k Kind, offset, limit int) (*Page, error)
	// Version identifies the index build; cursors carry it.
	Version() string
}

// Query is one search request, validated.
type Query struct {
	Kind   Kind
	Text   string
	Filter Filter
	Offset int
	Limit  int
	// Explain asks the catalog for an explanation of each hit of the page
	// (see [MetaExplain]).
	Explain bool
}

// Filter narrows a search. The zero Filter matches everything.
type Filter struct {
	// Servers keeps items of these servers only.
	Servers []string `json:"servers,omitempty"`
	// Annotations keeps tools whose annotations have these values. The
	// standard hints take their MCP defaults when a tool does not set them
	// (destructiveHint and openWorldHint true, the others false).
	Annotations map[string]any `json:"annotations,omitempty"`
}

// Page is a slice of ranked or listed items.
type Page struct {
	Items []Hit
	// More reports whether items follow the last one of this page.
	More bool
	// Hint, on a search page without items, says why nothing fits.
	Hint string
}

// Hit is one item of a page: the MCP object exactly as it was indexed (with
// its canonical name), the server it came from, and its relevance score (zero
// in lists).
type Hit struct {
	Object json.RawMessage
	Server string
	Score  float64
	// Explain, when the query asked for it, says why the item ranks where
	// it does; it is marshalled as JSON into _meta[MetaExplain] unchanged.
	Explain any
}
