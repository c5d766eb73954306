package ext

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// era is the protocol era of one request. From 2026-07-28 on ("modern") a
// request states its protocol version in params._meta and in the
// Mcp-Protocol-Version header, results carry resultType and, for lists,
// caching hints, and JSON-RPC errors map to HTTP statuses.
type era struct {
	modern  bool
	version string
}

// detectEra checks the protocol version a request states, the way mcp-go
// checks the requests it serves, so that both halves of the server accept
// and refuse alike.
func detectEra(h http.Header, req *request) (era, error) {
	header := h.Get(mcp.HeaderProtocolVersion)
	m := requestMeta(req.Params)
	meta := m.ProtocolVersion()
	if !mcp.IsModernProtocol(header) && !mcp.IsModernProtocol(meta) {
		if header != "" && !slices.Contains(mcp.ValidProtocolVersions, header) {
			return era{}, fmt.Errorf("%w: unsupported protocol version %q in %s (supported: %v)",
				ErrInvalidRequest, header, mcp.HeaderProtocolVersion, SupportedProtocolVersions)
		}
		return era{version: header}, nil
	}
	e := era{modern: true, version: meta}
	switch {
	case header == "":
		return e, headerMismatch(mcp.HeaderProtocolVersion + " header is required for requests carrying " + mcp.MetaKeyProtocolVersion)
	case meta == "":
		return e, fmt.Errorf("%w: missing or invalid _meta field %s", ErrInvalidParams, mcp.MetaKeyProtocolVersion)
	case header != meta:
		return e, headerMismatch(fmt.Sprintf("%s header %s does not match request %s %s", mcp.HeaderProtocolVersion, header, mcp.MetaKeyProtocolVersion, meta))
	case !slices.Contains(SupportedProtocolVersions, meta):
		return e, &Error{Code: mcp.UNSUPPORTED_PROTOCOL_VERSION, Message: fmt.Sprintf("unsupported protocol version %q (supported: %v)", meta, SupportedProtocolVersions)}
	}
	if m.ClientCapabilities() == nil {
		return e, fmt.Errorf("%w: missing or invalid _meta field %s", ErrInvalidParams, mcp.MetaKeyClientCapabilities)
	}
	if err := mcp.ValidateStandardHeaders(h.Get, meta, mcp.MCPMethod(req.Method), req.Params); err != nil {
		return e, headerMismatch(err.Error())
	}
	return e, nil
}

func headerMismatch(msg string) error {
	return &Error{Code: mcp.HEADER_MISMATCH, Message: msg}
}

// requestMeta returns the _meta of params, or nil; the nil *mcp.Meta answers
// every accessor with its zero value.
func requestMeta(params json.RawMessage) *mcp.Meta {
	var p struct {
		Meta *mcp.Meta `json:"_meta"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return nil
	}
	return p.Meta
}

// errorStatus is the HTTP status of a JSON-RPC error: 200 before
// 2026-07-28; from then on 404 for an unknown method and 400 for a bad
// request, as the transport prescribes.
func (e era) errorStatus(err error) int {
	if !e.modern {
		return http.StatusOK
	}
	switch wireError(err).Code {
	case CodeMethodNotFound:
		return http.StatusNotFound
	case CodeParseError, CodeInvalidRequest, CodeInvalidParams:
		return http.StatusBadRequest
	}
	var coded *Error
	if errors.As(err, &coded) && (coded.Code == mcp.HEADER_MISMATCH || coded.Code == mcp.UNSUPPORTED_PROTOCOL_VERSION) {
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// modernize adds what a 2026-07-28 result carries: resultType, the
// server's identity in _meta and, on lists, caching hints. The index of a
// deployment never changes, but results may later depend on the caller, so
// the scope is private.
func (result *pageResult) modernize(s *Server, method string) {
	result.extra = map[string]any{"resultType": string(mcp.ResultTypeComplete)}
	if result.meta == nil {
		result.meta = map[string]any{}
	}
	result.meta[mcp.MetaKeyServerInfo] = s.info
	if isListMethod(method) {
		result.extra["ttlMs"] = 0
		result.extra["cacheScope"] = string(mcp.CacheScopePrivate)
	}
}
