// Package server is the MCP server of the search extension: [Handler], an
// http.Handler for the Streamable HTTP transport (POST /mcp, one JSON-RPC
// message in, one JSON response out, no sessions), answering from an
// [ext.Searcher]. [New] makes one.
//
// Every method the server answers is an entry of one method table
// (table.go), in both protocol eras: the lifecycle (initialize for
// protocols up to 2025-11-25, server/discover for 2026-07-28, ping,
// subscriptions/listen, notifications), the search methods (tools/search,
// prompts/search, resources/search, resources/templates/search), the
// paginated lists served from the same index, and the calls forwarded to
// upstream servers (tools/call, prompts/get, resources/read). Each entry
// says in which era the method exists, whether it runs under the request
// deadline, whether its 2026-07-28 result carries caching hints, and what
// answers it in meta-tool mode. The initialize and server/discover results
// are built here, with the search capability:
//
//	"capabilities": {
//	  "tools": {"listChanged": false, "search": true, "dynamic": true},
//	  "prompts": {"search": true}, "resources": {"search": true},
//	  "extensions": {"io.github.mcpsearch/search": {"methods": [...], "maxPageSize": 50, "index": "<version>"}},
//	  "experimental": {"search": {...the same object...}}
//	}
//
// A list whose params hold a query (SEP-1821, a draft; listquery.go)
// answers what the search of its kind answers; capabilities.tools.dynamic
// says so. A search whose query is select:a,b answers the named items instead of a
// ranking (select.go), and the instructions end with the caller's
// directory of servers (directory.go).
//
// The server is stateless. Cursors carry the index version, a binding to
// the query, filter and caller that made them, and an offset, and are signed
// (see [Options.CursorKey]), so that a garbled or forged cursor is refused
// with -32602.
//
// It is also a stateless gateway: tools/call, prompts/get and
// resources/read of an item whose server has an upstream are forwarded to
// it by an [ext.Caller] (package ext/upstream), the item found by its
// canonical name or URI through the searcher's [ext.Resolver]; an unknown
// item and an item that cannot be called get the same -32602. In meta-tool
// mode ([MetaTools]) tools/list answers search_tools and call_tool, for
// clients that see only tools.
//
// Every request is answered for one caller, the [ext.Access] in its context
// (package ext/auth puts it there): items the caller may not see are never
// returned, counted or resolved. Every request gets an id, returned in
// X-Request-Id, and one log line; errors are converted once into JSON-RPC
// errors (internal details are logged, never sent), and before 2026-07-28
// travel in a 200 body. A header that names the request (its protocol
// version, method, item or session) sent twice is refused with 400
// (headers.go), and so is a 2026-07-28 request with Last-Event-ID (era.go):
// that revision resumes no stream.
//
// What a request may cost is bounded before the work is done: at most
// [Options.MaxInFlight] requests are served at once (one more gets HTTP 503
// and -32011); the request deadline counts from the start of reading the
// body; one scan of the body (jsonscan.go) checks its syntax, nesting,
// number of values and repeated member names before anything decodes it;
// and each method decodes only the members it reads (jsonwalk.go). Answers
// are bounded too: a page that would pass [Options.MaxResponseBytes] is cut
// short with a cursor and a note (pagesize.go), and no message repeats
// more than a short piece of the request's text.
//
// The package imports ext and mcp-go (for the protocol's names and wire
// types), never the index behind the searcher.
package server
