package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The MCP headers a request may carry once. Each holds one value: a
// protocol version, a method, an item's name or URI, a session id. Sent
// twice, a server that reads the first and an intermediary that reads the
// last (or both, joined) act on different requests, which is what the
// 2026-07-28 transport's header validation is there to prevent ("Server
// Validation": "different components in the network rely on different
// sources of truth"); net/http's Header.Get reads only the first. So a
// request that repeats one is refused, in every era, with 400 and a
// JSON-RPC error (a notification's with a null id, as the transport
// allows: "The HTTP response body MAY comprise a JSON-RPC error response
// that has no id").
//
// RFC 9110 (section 5.3) lets an intermediary join repeated lines into one
// with commas only for a header defined as a list, which none of these is;
// a comma is refused where no value may hold one (a protocol version, a
// method), and kept where one may (Mcp-Name mirrors a name or URI, which
// the 2026-07-28 era compares to the body's exactly; a session id may hold
// any visible ASCII character, and this server reads none).
var singleHeaders = []struct {
	name  string
	comma bool // a comma in the value is refused: the value is a list
}{
	{mcp.HeaderProtocolVersion, true},
	{mcp.HeaderMethod, true},
	{mcp.HeaderName, false},
	{mcp.HeaderSessionID, false},
}

// repeatedHeader refuses a request that sends one of singleHeaders more
// than once (two lines, or for a version or method, one line holding a
// list): mcp.HEADER_MISMATCH in the 2026-07-28 era, whose transport
// defines it for headers "missing/malformed", and -32600 before it.
func repeatedHeader(h http.Header, req *request) error {
	for _, sh := range singleHeaders {
		values := h.Values(sh.name)
		var problem string
		switch {
		case len(values) > 1:
			problem = fmt.Sprintf("is sent %d times (%s)", len(values), quoteAll(values))
		case len(values) == 1 && sh.comma && strings.Contains(values[0], ","):
			problem = fmt.Sprintf("holds a list (%s)", ext.QuoteShort(values[0]))
		default:
			continue
		}
		msg := fmt.Sprintf("the %s header %s: it takes one value, sent once", sh.name, problem)
		if statedVersion(h, req).modern() {
			return headerMismatch(msg)
		}
		return fmt.Errorf("%w: %s", ext.ErrInvalidRequest, msg)
	}
	return nil
}

// quoteAll quotes the first values, each cut short, and counts the rest.
func quoteAll(values []string) string {
	const shown = 3
	quoted := make([]string, 0, shown+1)
	for _, v := range values[:min(len(values), shown)] {
		quoted = append(quoted, ext.QuoteShort(v))
	}
	if len(values) > shown {
		quoted = append(quoted, fmt.Sprintf("and %d more", len(values)-shown))
	}
	return strings.Join(quoted, ", ")
}
