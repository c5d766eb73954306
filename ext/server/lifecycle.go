package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The lifecycle methods: the initialize handshake (protocols up to
// 2025-11-25), server/discover (2026-07-28), ping, subscriptions/listen,
// and the capabilities the server does not have. Their answers are built
// here from the server's settings, and the instructions from the caller's
// directory of servers too (directory.go).

// initializeMethod answers the handshake. The protocol version is
// negotiated as the MCP specification asks (see [negotiateVersion]).
func initializeMethod(ctx context.Context, h *Handler, req *request) (any, error) {
	var p mcp.InitializeRequest
	if err := req.decodeAs(&p); err != nil {
		return nil, err
	}
	instructions, err := h.instructionsFor(ctx)
	if err != nil {
		return nil, err
	}
	caps, err := h.capabilities()
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"protocolVersion": negotiateVersion(p.Params.ProtocolVersion),
		"capabilities":    caps,
		"serverInfo":      h.info,
		"instructions":    instructions,
	}, nil
}

// negotiateVersion is the revision initialize answers a client asking for
// requested: requested itself if the server serves it by handshake, else
// the latest it serves (2025-03-26, 2024-11-05, none and unknown
// revisions alike; mcp-go would echo the first two, which this server
// does not serve: they allow JSON-RPC batches). The client then decides
// whether to go on.
func negotiateVersion(requested string) string {
	if servedByHandshake(requested) {
		return requested
	}
	return latestHandshakeVersion
}

// latestHandshakeVersion is the newest revision served by initialize;
// later ones use server/discover.
const latestHandshakeVersion = mcp.ProtocolVersion20251125

// servedByHandshake reports whether version is a revision this server
// serves that begins with initialize.
func servedByHandshake(version string) bool {
	return slices.Contains(SupportedProtocolVersions, version) && !mcp.IsModernProtocol(version)
}

// discoverMethod answers server/discover: the versions the server speaks, its
// capabilities and the caller's instructions.
func discoverMethod(ctx context.Context, h *Handler, req *request) (any, error) {
	if err := req.decodeAs(&mcp.DiscoverRequest{}); err != nil {
		return nil, err
	}
	instructions, err := h.instructionsFor(ctx)
	if err != nil {
		return nil, err
	}
	caps, err := h.capabilities()
	if err != nil {
		return nil, err
	}
	return h.modernResult(req, map[string]any{
		"supportedVersions": SupportedProtocolVersions,
		"capabilities":      caps,
		"instructions":      instructions,
	}, nil), nil
}

func pingMethod(_ context.Context, _ *Handler, req *request) (any, error) {
	if err := req.decodeAs(&mcp.PingRequest{}); err != nil {
		return nil, err
	}
	return map[string]any{}, nil
}

// listenMethod answers subscriptions/listen at once: the server has no
// notification a client could subscribe to, so the stream closes empty.
func listenMethod(_ context.Context, h *Handler, req *request) (any, error) {
	if err := req.decodeAs(&mcp.SubscriptionsListenRequest{}); err != nil {
		return nil, err
	}
	return h.modernResult(req, map[string]any{}, map[string]any{mcp.MetaKeySubscriptionID: req.ID}), nil
}

// unsupported answers a method of a capability the server does not have.
func unsupported(capability string) handlerFunc {
	return func(context.Context, *Handler, *request) (any, error) {
		return nil, &ext.Error{Code: ext.CodeMethodNotFound, Message: capability + " not supported"}
	}
}

// parsed refuses, as mcp-go does, a request that does not decode into T
// before next answers it.
func parsed[T any](next handlerFunc) handlerFunc {
	return func(ctx context.Context, h *Handler, req *request) (any, error) {
		if err := req.decodeAs(new(T)); err != nil {
			return nil, err
		}
		return next(ctx, h, req)
	}
}

// decodeAs decodes the request (method and params) into v, one of mcp-go's
// request types. The params are pruned first (prune.go): only what the
// decoding could fail on is decoded. The message was checked whole before
// (parseRequest, checkParams), so what does not decode is a member of
// params of the wrong type ("protocolVersion": 5): invalid params,
// -32602, naming the field ("Invalid method parameter(s)", JSON-RPC 2.0,
// section 5.1; MCP's lifecycle answers a bad protocolVersion with -32602
// too). mcp-go says -32600, "unparsable request", which is for a message
// that is not a request at all.
func (r *request) decodeAs(v any) error {
	method, _ := json.Marshal(r.Method)
	msg := append([]byte(`{"method":`), method...)
	if len(r.Params) > 0 {
		msg = appendPruned(append(msg, `,"params":`...), paramsType(v), r.Params)
	}
	if err := json.Unmarshal(append(msg, '}'), v); err != nil {
		return fmt.Errorf("%w: %s request: %s", ext.ErrInvalidParams, r.Method, describeParamsError(err))
	}
	return nil
}

// describeParamsError names the member of params a type error of decodeAs
// is about, without echoing the input.
func describeParamsError(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return "params do not decode"
	}
	_, field, _ := strings.Cut(te.Field, "params") // mcp-go's paths: params.uri, Request.params._meta
	if field = strings.TrimPrefix(field, "."); field == "" {
		return fmt.Sprintf("params must be an object, not %s", te.Value)
	}
	return fmt.Sprintf("field %q must be %s, not %s", field, jsonTypeName(te.Type.Kind().String()), te.Value)
}

// modernResult is result with the members of a 2026-07-28 result added,
// and meta as its _meta beside the server's identity.
func (h *Handler) modernResult(req *request, result, meta map[string]any) map[string]any {
	members, serverMeta := h.modernFields(req)
	for k, v := range members {
		result[k] = v
	}
	for k, v := range serverMeta {
		if meta == nil {
			meta = map[string]any{}
		}
		meta[k] = v
	}
	if meta != nil {
		result["_meta"] = meta
	}
	return result
}

// capabilities are those of the initialize and server/discover results:
// search on tools, prompts and resources, and the extension's settings
// under its id (and, for older clients, under experimental.search).
func capabilities(settings map[string]any) map[string]any {
	return map[string]any{
		"tools":        map[string]any{"listChanged": false, "search": true, "dynamic": true}, // dynamic: SEP-1821, listquery.go
		"prompts":      map[string]any{"search": true},
		"resources":    map[string]any{"search": true},
		"extensions":   map[string]any{ext.ExtensionID: settings},
		"experimental": map[string]any{"search": settings},
	}
}

// capabilitiesOf is capabilities with the settings of s. The handler
// builds it on the first initialize or server/discover, not at start: a
// searcher's description of its catalog may read what a search does not
// (ext.Describer).
func capabilitiesOf(s ext.Searcher) (map[string]any, error) {
	settings, err := extensionSettings(s)
	if err != nil {
		return nil, err
	}
	return capabilities(settings), nil
}

// extensionSettings is the settings object of the search extension.
func extensionSettings(s ext.Searcher) (map[string]any, error) {
	settings := map[string]any{
		"methods":     ext.SearchMethods,
		"listQuery":   ext.ListMethods, // the lists that take a query (SEP-1821, listquery.go)
		"maxPageSize": ext.MaxLimit,
		"index":       s.Version(),
		"explain":     true, // see ext.MetaExplain
	}
	if r, ok := s.(ext.RulesVersioner); ok {
		settings["rules"] = r.RulesVersion()
	}
	c, err := catalogSettings(s)
	if err != nil {
		return nil, fmt.Errorf("describing the catalog: %w", err)
	}
	if c != nil {
		settings["catalog"] = c
	}
	return settings, nil
}

// MaxDescribedServers bounds the servers listed in the capability, so the
// initialize result of a very large catalog stays small; past it the list is
// cut and "serversTruncated" is set.
const MaxDescribedServers = 500

// catalogSettings is the "catalog" member of the extension settings, or nil
// when the searcher does not describe its catalog.
func catalogSettings(s ext.Searcher) (map[string]any, error) {
	d, ok := s.(ext.Describer)
	if !ok {
		return nil, nil
	}
	info, err := d.Describe()
	if err != nil {
		return nil, err
	}
	if info.Restricted {
		return map[string]any{
			"restricted":  true,
			"builtAt":     info.BuiltAt.UTC().Format(time.RFC3339),
			"bundleBytes": info.BundleBytes,
		}, nil
	}
	settings := map[string]any{
		"serverCount": len(info.Servers),
		"counts":      info.Counts,
		"builtAt":     info.BuiltAt.UTC().Format(time.RFC3339),
		"bundleBytes": info.BundleBytes,
	}
	if len(info.Servers) > MaxDescribedServers {
		info.Servers = info.Servers[:MaxDescribedServers]
		settings["serversTruncated"] = true
	}
	settings["servers"] = info.Servers
	return settings, nil
}
