// Package ext is the vocabulary of the MCP search extension: what a search
// asks ([Query], [Filter]) and answers ([Page], [Hit]), the kinds of items
// ([Kind]), the limits, the coded errors ([Error]), who is asking
// ([Access]), the names the extension puts on the wire (its [ExtensionID],
// [SearchMethods] and _meta keys such as [MetaScore]), and the interfaces
// the server is written against: the [Searcher] an index implements (and
// [Resolver], [Selector], [Describer] and [Directory] when it can), and the
// [Caller] that forwards calls to upstream servers.
//
// The extension adds tools/search, prompts/search, resources/search and
// resources/templates/search to MCP, and serves the paginated tools/list,
// prompts/list, resources/list and resources/templates/list from the same
// index. It is stateless: every request is answered from a read-only
// [Searcher], and a cursor carries the index version, a binding to the
// query that made it (and to the caller's [Access.Key]) and an offset,
// signed so that a garbled or forged cursor is refused with -32602. A server
// advertises it as
//
//	"capabilities": {
//	  "tools": {"listChanged": false, "search": true},
//	  "prompts": {"search": true}, "resources": {"search": true},
//	  "extensions": {"io.github.mcpsearch/search": {"methods": [...], "maxPageSize": 50, "index": "<version>"}},
//	  "experimental": {"search": {...the same object...}}
//	}
//
// Every Searcher and Resolver method serves one caller: the [Access] in its
// context (see [WithAccess]). Items the caller may not see are never
// returned, counted or resolved.
//
// Errors are coded: a method wraps one of the sentinel errors with context,
// as in fmt.Errorf("%w: limit %d", ErrInvalidParams, n), and the server
// converts any error once into a JSON-RPC error, so internal details never
// reach a client.
//
// The package imports the standard library only. The MCP server is package
// ext/server, authentication ext/auth, the upstream client ext/upstream and
// a client of the extension ext/searchclient; the index behind [Searcher]
// is package index.
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

// SearchMethod is the search method of kind k: "tools/search",
// "prompts/search", "resources/search" or "resources/templates/search".
func (k Kind) SearchMethod() string {
	if k == KindResourceTemplate {
		return "resources/templates/search"
	}
	return k.ResultKey() + "/search"
}

// Valid reports whether k is one of [Kinds].
func (k Kind) Valid() bool {
	switch k {
	case KindTool, KindPrompt, KindResource, KindResourceTemplate:
		return true
	}
	return false
}

// Searcher is the read-only index the extension answers from. index.Index
// implements it.
type Searcher interface {
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
	// Explain asks the searcher for an explanation of each hit of the page
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
	// Hint, on a search page without items, says why nothing fits; on the
	// first page of a near miss, what the best item lacks; on a select
	// answer, the names that gave no item.
	Hint string
	// Explain, on a search page, is the searcher's word on why the page
	// holds items or none (package index: the no-match decision reached,
	// index.PageExplanation), or nil. It stays in the process: the
	// protocol's answer does not carry it.
	Explain any
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
