package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// era is the protocol era of one request. From 2026-07-28 on ("modern") a
// request states its protocol version in params._meta and in the
// Mcp-Protocol-Version header, results carry resultType, serverInfo and,
// for lists, caching hints, and JSON-RPC errors map to HTTP statuses.
type era struct {
	modern  bool
	version string
}

// eraRule says in which protocol eras a method exists.
type eraRule int

const (
	anyEra     eraRule = iota
	legacyOnly         // removed in 2026-07-28 (initialize, ping, …)
	modernOnly         // added in 2026-07-28 (server/discover, subscriptions/listen)
)

// refuse returns the -32601 of a method requested in an era it does not
// exist in, or nil.
func (r eraRule) refuse(method string, e era) error {
	switch {
	case r == legacyOnly && e.modern:
		return &ext.Error{Code: ext.CodeMethodNotFound, Message: fmt.Sprintf("%q was removed in protocol version %s", method, mcp.ProtocolVersion20260728)}
	case r == modernOnly && !e.modern:
		return &ext.Error{Code: ext.CodeMethodNotFound, Message: fmt.Sprintf("%q requires protocol version %s or later", method, mcp.ProtocolVersion20260728)}
	}
	return nil
}

// stated is the protocol version a request states, in its header and in
// its _meta.
type stated struct {
	header, meta string
	m            *mcp.Meta
}

func statedVersion(h http.Header, req *request) stated {
	m := requestMeta(req.Params)
	return stated{header: h.Get(mcp.HeaderProtocolVersion), meta: m.ProtocolVersion(), m: m}
}

func (s stated) modern() bool { return mcp.IsModernProtocol(s.header) || mcp.IsModernProtocol(s.meta) }

// detectEra checks the protocol version a request of the extension's own
// methods states, and refuses a modern one with Last-Event-ID.
func detectEra(h http.Header, req *request) (era, error) {
	s := statedVersion(h, req)
	if !s.modern() {
		if s.header != "" && !servedByHandshake(s.header) {
			return era{}, fmt.Errorf("%w: unsupported protocol version %q in %s (supported: %v)",
				ext.ErrInvalidRequest, s.header, mcp.HeaderProtocolVersion, SupportedProtocolVersions)
		}
		return era{version: s.header}, nil
	}
	e := era{modern: true, version: s.meta}
	switch {
	case h.Get(mcp.HeaderLastEventID) != "":
		return e, lastEventIDRefused()
	case s.header == "":
		return e, headerMismatch(mcp.HeaderProtocolVersion + " header is required for requests carrying " + mcp.MetaKeyProtocolVersion)
	case s.meta == "":
		return e, fmt.Errorf("%w: missing or invalid _meta field %s", ext.ErrInvalidParams, mcp.MetaKeyProtocolVersion)
	case s.header != s.meta:
		return e, versionMismatch(s)
	case !slices.Contains(SupportedProtocolVersions, s.meta):
		return e, &ext.Error{Code: mcp.UNSUPPORTED_PROTOCOL_VERSION, Message: fmt.Sprintf("unsupported protocol version %q (supported: %v)", s.meta, SupportedProtocolVersions)}
	}
	if s.m.ClientCapabilities() == nil {
		return e, fmt.Errorf("%w: missing or invalid _meta field %s", ext.ErrInvalidParams, mcp.MetaKeyClientCapabilities)
	}
	return e, standardHeaders(h, s, req)
}

// detectLifecycleEra checks the protocol version a lifecycle message (and
// a message of a method not in the table) states, as mcp-go's Streamable
// HTTP transport checks it: a legacy request other than initialize with an
// unknown version header gets a plain-text 400; a modern one's unsupported
// version is refused with the supported ones as data; its _meta errors
// carry no "invalid params" prefix; and a notification is not checked past
// its version. A modern message with Last-Event-ID is refused in both
// (lastEventIDRefused).
func detectLifecycleEra(h http.Header, req *request) (era, error) {
	s := statedVersion(h, req)
	if !s.modern() {
		if req.Method != string(mcp.MethodInitialize) && s.header != "" && !servedByHandshake(s.header) {
			return era{}, &plainError{status: http.StatusBadRequest, msg: "Unsupported protocol version: " + s.header}
		}
		return era{version: s.header}, nil
	}
	e := era{modern: true, version: s.meta}
	switch {
	case h.Get(mcp.HeaderLastEventID) != "":
		return e, lastEventIDRefused()
	case s.header == "":
		return e, headerMismatch(mcp.HeaderProtocolVersion + " header is required for requests carrying " + mcp.MetaKeyProtocolVersion)
	case s.meta == "":
		return e, &ext.Error{Code: ext.CodeInvalidParams, Message: "missing or invalid _meta field " + mcp.MetaKeyProtocolVersion}
	case s.header != s.meta:
		return e, versionMismatch(s)
	case !slices.Contains(SupportedProtocolVersions, s.meta):
		wire := mcp.UnsupportedProtocolVersionError{Version: s.meta, Supported: SupportedProtocolVersions}.JSONRPCError().Error
		return e, &ext.Error{Code: wire.Code, Message: wire.Message, Data: wire.Data}
	}
	if req.isNotification() {
		return e, nil
	}
	if s.m.ClientCapabilities() == nil {
		return e, &ext.Error{Code: ext.CodeInvalidParams, Message: "missing or invalid _meta field " + mcp.MetaKeyClientCapabilities}
	}
	return e, standardHeaders(h, s, req)
}

// lastEventIDRefused is the refusal of a 2026-07-28 request that carries
// Last-Event-ID, whichever its method. That revision's Streamable HTTP
// says "Resumable SSE streams via Last-Event-ID are not supported"; the
// header resumed a broken SSE stream, and only by GET ("Resumption is
// always via HTTP GET with Last-Event-ID", 2025-11-25), which this server
// answers with 405. On a modern POST it can mean nothing, and mcp-go's
// transport refuses it so (validateModernRequest, streamable_http_modern.go):
// the same words and code here, with 400. A request of an earlier revision
// keeps the header ignored, as mcp-go does.
func lastEventIDRefused() error {
	return headerMismatch("Last-Event-ID is not supported in protocol version " + mcp.ProtocolVersion20260728 +
		": streams are not resumable, re-issue the request with a new ID")
}

func versionMismatch(s stated) error {
	return headerMismatch(fmt.Sprintf("%s header %s does not match request %s %s", mcp.HeaderProtocolVersion, s.header, mcp.MetaKeyProtocolVersion, s.meta))
}

// standardHeaders checks the Mcp-Method and Mcp-Name headers against the
// request.
func standardHeaders(h http.Header, s stated, req *request) error {
	named := req.Params
	if len(named) > 0 && named[0] == '{' {
		named = keepExact(named, []string{"name", "uri"}) // what the Mcp-Name header repeats
	}
	if err := mcp.ValidateStandardHeaders(h.Get, s.meta, mcp.MCPMethod(req.Method), named); err != nil {
		return headerMismatch(err.Error())
	}
	return nil
}

func headerMismatch(msg string) error {
	return &ext.Error{Code: mcp.HEADER_MISMATCH, Message: msg}
}

// plainError is a refusal the transport answers in plain text, not in
// JSON-RPC.
type plainError struct {
	status int
	msg    string
}

func (e *plainError) Error() string { return e.msg }

// requestMeta returns the _meta of params, or nil; the nil *mcp.Meta answers
// every accessor with its zero value. Only the members the server reads
// (the protocol version and the client capabilities) are decoded.
func requestMeta(params json.RawMessage) *mcp.Meta {
	meta := memberValue(params, "_meta")
	if len(meta) == 0 || meta[0] != '{' {
		return nil
	}
	var m mcp.Meta
	if json.Unmarshal(keepExact(meta, metaRead), &m) != nil {
		return nil
	}
	return &m
}

// metaRead are the members of a request's _meta the server reads.
var metaRead = []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientCapabilities}

// errorStatus is the HTTP status of a JSON-RPC error: 200 before
// 2026-07-28; from then on 404 for an unknown method and 400 for a bad
// request, as the transport prescribes.
func (e era) errorStatus(err error) int {
	if !e.modern {
		return http.StatusOK
	}
	switch wireError(err).Code {
	case ext.CodeMethodNotFound:
		return http.StatusNotFound
	case ext.CodeParseError, ext.CodeInvalidRequest, ext.CodeInvalidParams:
		return http.StatusBadRequest
	}
	var coded *ext.Error
	if errors.As(err, &coded) && (coded.Code == mcp.HEADER_MISMATCH || coded.Code == mcp.UNSUPPORTED_PROTOCOL_VERSION) {
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// modernFields are the members a 2026-07-28 result carries beside its
// own: resultType, the server's identity in _meta and, on cacheable
// results, caching hints. The index of a deployment never changes, but
// results may depend on the caller, so the scope is private. They are nil
// for an earlier protocol.
func (h *Handler) modernFields(req *request) (members, meta map[string]any) {
	if !req.era.modern {
		return nil, nil
	}
	members = map[string]any{"resultType": string(mcp.ResultTypeComplete)}
	if req.info.cacheable {
		members["ttlMs"] = 0
		members["cacheScope"] = string(mcp.CacheScopePrivate)
	}
	return members, map[string]any{mcp.MetaKeyServerInfo: h.info}
}
