package server

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// handlerFunc answers one request. Its result is marshalled as the
// JSON-RPC result; an error is converted once, by writeError.
type handlerFunc func(ctx context.Context, h *Handler, req *request) (any, error)

// methodInfo is what the server knows of one method.
type methodInfo struct {
	// handle answers a request of the method. It is nil for a
	// notification: a request of it is an unknown method.
	handle handlerFunc
	// meta, when set, answers instead of handle in meta-tool mode.
	meta handlerFunc
	// era is the protocol era the method exists in; a request of the
	// other era gets -32601.
	era eraRule
	// deadline runs the method under the request timeout (callWithin):
	// it reads the searcher. A forwarded call is bounded by the upstream
	// timeout instead, and a lifecycle answer that reads nothing needs no
	// bound.
	deadline bool
	// cacheable: from 2026-07-28 on, the result carries the caching hints
	// ttlMs and cacheScope.
	cacheable bool
	// lifecycle: a message of the method is checked as the MCP transport
	// checks lifecycle messages (see detectLifecycleEra), which refuses a
	// few malformed requests in other words, and with other statuses, than
	// the checks of the extension's own methods do.
	lifecycle bool
}

// methods is the whole protocol surface: every method the server answers,
// in both protocol eras. A method not in the table is answered like a
// notification entry (see unknownMethod).
var methods = map[string]methodInfo{
	// The lifecycle, answered from the server's settings.
	// initialize and server/discover read the caller's directory of servers.
	"initialize":           {handle: initializeMethod, era: legacyOnly, deadline: true, lifecycle: true},
	"ping":                 {handle: pingMethod, era: legacyOnly, lifecycle: true},
	"server/discover":      {handle: discoverMethod, era: modernOnly, deadline: true, cacheable: true, lifecycle: true},
	"subscriptions/listen": {handle: listenMethod, era: modernOnly, lifecycle: true},
	// Notifications are accepted (202, no body) and dropped, these and any
	// other; a request of one is an unknown method.
	"notifications/initialized":        {lifecycle: true},
	"notifications/cancelled":          {lifecycle: true},
	"notifications/progress":           {lifecycle: true},
	"notifications/roots/list_changed": {lifecycle: true},

	// Capabilities the server does not have.
	"logging/setLevel":      {handle: unsupported("logging"), era: legacyOnly, lifecycle: true},
	"resources/subscribe":   {handle: parsed[mcp.SubscribeRequest](unsupported("resources subscribe")), era: legacyOnly, lifecycle: true},
	"resources/unsubscribe": {handle: parsed[mcp.UnsubscribeRequest](unsupported("resources unsubscribe")), era: legacyOnly, lifecycle: true},
	"completion/complete":   {handle: unsupported("completions"), lifecycle: true},
	"tasks/get":             {handle: unsupported("tasks"), lifecycle: true},
	"tasks/list":            {handle: unsupported("tasks"), era: legacyOnly, lifecycle: true},
	"tasks/result":          {handle: unsupported("tasks"), era: legacyOnly, lifecycle: true},
	"tasks/cancel":          {handle: unsupported("tasks"), lifecycle: true},

	// The search extension.
	"tools/search":               {handle: searchMethod(ext.KindTool), deadline: true},
	"prompts/search":             {handle: searchMethod(ext.KindPrompt), deadline: true},
	"resources/search":           {handle: searchMethod(ext.KindResource), deadline: true},
	"resources/templates/search": {handle: searchMethod(ext.KindResourceTemplate), deadline: true},

	// The lists, served from the same index.
	"tools/list":               {handle: listMethod(ext.KindTool), meta: metaList, deadline: true, cacheable: true},
	"prompts/list":             {handle: listMethod(ext.KindPrompt), deadline: true, cacheable: true},
	"resources/list":           {handle: listMethod(ext.KindResource), deadline: true, cacheable: true},
	"resources/templates/list": {handle: listMethod(ext.KindResourceTemplate), deadline: true, cacheable: true},

	// The gateway: calls forwarded to the item's upstream server.
	"tools/call":     {handle: callMethod(ext.KindTool), meta: metaCall},
	"prompts/get":    {handle: callMethod(ext.KindPrompt)},
	"resources/read": {handle: readMethod},
}

// unknownMethod is the entry of a method not in the table: a notification
// of it is accepted, a request gets -32601.
var unknownMethod = methodInfo{lifecycle: true}

// lookup returns the table entry of method.
func lookup(method string) *methodInfo {
	if m, ok := methods[method]; ok {
		return &m
	}
	return &unknownMethod
}

// handler is the function that answers m's requests on h.
func (m *methodInfo) handler(h *Handler) handlerFunc {
	if h.meta != nil && m.meta != nil {
		return m.meta
	}
	return m.handle
}
