package ext

// The names the extension puts on the wire.

// ExtensionID names the search extension in capabilities.extensions.
const ExtensionID = "io.github.mcpsearch/search"

// SearchMethods lists the search methods, as advertised.
var SearchMethods = []string{"tools/search", "prompts/search", "resources/search", "resources/templates/search"}

// ListMethods lists the list methods that take a query, as advertised
// (listQuery in the extension's settings): a list with a query answers
// what the search of its kind answers (SEP-1821, "Dynamic Tool Discovery",
// a draft that proposes it for tools/list and capabilities.tools.dynamic).
var ListMethods = []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list"}

// SelectPrefix starts a select query. A search method asked for
// "select:a,b,…" answers the items named a, b, … that the caller may see
// (tools and prompts by canonical name, resources by URI, templates by
// URI template), in the order given and without score, instead of a
// ranked search; the names it has no item for are listed in the hint as
// unknown, hidden ones with them. The prefix is matched in any case, the
// names exactly; white space around names and empty names are ignored. A
// query names at most MaxLimit items, and a select answer has one page.
const SelectPrefix = "select:"

// Keys of the _meta entries of the extension.
const (
	// MetaScore, on an item of a search result, is its relevance score
	// (higher is better), rounded to four decimals.
	MetaScore = "io.github.mcpsearch/score"
	// MetaServer, on an item of a search or list result (and on a forwarded
	// call's result), names the catalog server it belongs to.
	MetaServer = "io.github.mcpsearch/server"
	// MetaHint, on a search result without items, says why nothing fits;
	// on the first page of a near miss, which words of the query the best
	// item lacks ("the best match lacks s3"); on the answer of a select:
	// query, it names the names that are not items the caller may see
	// ("unknown: a, b").
	MetaHint = "io.github.mcpsearch/hint"
	// MetaTruncated, on a search or list result, says that the page was
	// cut short to keep the answer under the server's response limit
	// (nextCursor then goes on with the items left out), or that an item
	// larger than that limit on its own was left out, naming it.
	MetaTruncated = "io.github.mcpsearch/truncated"
	// MetaExplain is the explain option. A search request whose params
	// carry "_meta": {"io.github.mcpsearch/explain": true} gets, on each item
	// of the page, an explanation of its rank under the same key: which
	// fields and terms matched with what weight, and the re-ranking signals.
	// The searcher computes it (for the page's items only, so the cost is
	// bounded by the page size) and the server passes it on opaquely. It is
	// off unless asked, and changes neither the ranking nor the cursors.
	MetaExplain = "io.github.mcpsearch/explain"
	// MetaVisibility, in the _meta of a catalog item as written, restricts
	// who sees it: {"groups": [...], "scopes": [...]} (see [Access]). The
	// index removes it from the object clients see.
	MetaVisibility = "io.github.mcpsearch/visibility"
	// MetaAlwaysLoad, true in the _meta of a listed tool, asks Claude Code
	// to load the tool's definition at the start rather than defer it
	// behind its own tool search, which it does for every other MCP tool.
	// The meta tools and the always-listed tools carry it: a search tool
	// hidden behind another search is found by that search's keywords only.
	MetaAlwaysLoad = "anthropic/alwaysLoad"
)

// Limits of the extension. A search page holds at most MaxLimit items; a
// query is at most MaxQueryBytes long and holds at most MaxQueryTerms words;
// a filter names at most MaxFilterServers servers (each costs the catalog a
// lookup) and MaxFilterAnnotations annotations (each a clause every match
// must pass).
const (
	DefaultLimit     = 10
	MaxLimit         = 50
	MaxQueryBytes    = 4096
	MaxQueryTerms    = 128
	MaxFilterServers = 1000
	// MaxFilterAnnotations bounds the annotations of a filter: MCP defines
	// five, and a catalog's tools seldom carry more than a few others.
	MaxFilterAnnotations = 16
	// MaxAnnotationBytes bounds an annotation's name and text value in a
	// filter: a catalog's tool title (annotations.title) holds at most as
	// many bytes.
	MaxAnnotationBytes = 1 << 10
	// MaxServerNameChars bounds a server name, in a catalog and in a
	// filter: a longer name names no server, and is refused.
	MaxServerNameChars = 64
	MaxSearchDepth     = 1000 // offset + limit of a search page never exceeds this
	DefaultPageSize    = 100  // items in a list page unless configured
	MaxPageSize        = 1000 // the largest configurable list page
	// MaxJSONDepth bounds the nesting of arrays and objects in a request
	// body, checked before the body is decoded.
	MaxJSONDepth = 64
	// MaxJSONValues bounds the values (numbers, strings, literals, arrays
	// and objects) in a request body, counted by the same scan: a body
	// of many small values costs its decoders far more than its bytes
	// say.
	MaxJSONValues = 10000
	// MaxArgumentsBytes bounds the arguments of a forwarded tools/call or
	// prompts/get.
	MaxArgumentsBytes = 256 << 10
)
