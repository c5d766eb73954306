package ext

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The gateway: tools/call, prompts/get and resources/read of a catalog item
// are forwarded to the upstream server the catalog names for it. Nothing is
// remembered between requests: the item is looked up by its canonical name
// (or URI) in the read-only catalog, and the upstream is reached afresh.

// Target is a catalog item a call reaches.
type Target struct {
	Kind Kind
	// Server is the catalog server the item belongs to.
	Server string
	// Name is the canonical name (tools, prompts) or URI (resources) the
	// client used.
	Name string
	// UpstreamName is the name, or URI, the upstream server knows the item by.
	UpstreamName string
	// Object is the MCP object as listed, with its canonical name. For a
	// resource read through a template, the template's object.
	Object json.RawMessage
	// Upstream is the server's "upstream" object from the catalog, or nil
	// when the catalog gives none (the item cannot be called).
	Upstream json.RawMessage
}

// Resolver finds catalog items by the names clients call them by.
// index.Index implements it; a Catalog that is not a Resolver has no item
// that can be called.
type Resolver interface {
	// Resolve returns the tool or prompt whose canonical name is name or,
	// for KindResource, the resource whose URI is name or else a resource
	// template that matches it. It returns an error wrapping ErrNotFound when
	// no item fits.
	Resolve(ctx context.Context, k Kind, name string) (*Target, error)
}

// Caller forwards one request to the upstream server of a target. The
// package ext/upstream implements it over mcp-go's client.
type Caller interface {
	// Call sends method ("tools/call", "prompts/get" or "resources/read")
	// with params to t's upstream, naming the item t.UpstreamName, and
	// returns the upstream's result. A failure is reported as an
	// *UpstreamError: the gateway sends and logs no other text of an error
	// a Caller returns.
	Call(ctx context.Context, t *Target, method string, params json.RawMessage) (json.RawMessage, error)
}

// UpstreamError is a failed upstream call as a Caller reports it: the kind
// of failure and a detail that is safe to send to the client and to log.
// The Caller that makes it guarantees that the detail holds no value of
// the upstream's configuration (no expanded ${VAR}, no header value).
type UpstreamError struct {
	Kind   UpstreamFailure
	Detail string
	// Code is the JSON-RPC error code the upstream answered, if it did.
	// Only CodeInvalidParams is passed on (the caller's arguments were
	// wrong); every other failure is CodeUpstreamError.
	Code int
}

func (e *UpstreamError) Error() string {
	if e.Detail == "" {
		return string(e.Kind)
	}
	return string(e.Kind) + ": " + e.Detail
}

// UpstreamFailure is the kind of an upstream failure.
type UpstreamFailure string

// The kinds of upstream failure.
const (
	UpstreamUnreachable       UpstreamFailure = "unreachable"        // no connection, or the process would not start or died
	UpstreamTimeout           UpstreamFailure = "timeout"            // no answer within the upstream timeout
	UpstreamMissingCredential UpstreamFailure = "missing credential" // a ${VAR} the upstream needs is not set here
	UpstreamCredentialRefused UpstreamFailure = "credential refused" // HTTP 401 or 403
	UpstreamAnsweredError     UpstreamFailure = "upstream error"     // the upstream answered an error
	UpstreamTooLarge          UpstreamFailure = "result too large"   // the answer passed the gateway's limit
	UpstreamProtocolError     UpstreamFailure = "protocol error"     // the answer is not MCP over the configured transport
	UpstreamUnavailable       UpstreamFailure = "unavailable here"   // not reachable from this process (stdio in Lambda, shutting down)
	UpstreamMisconfigured     UpstreamFailure = "bad configuration"  // the catalog's upstream object is invalid
	UpstreamFailed            UpstreamFailure = "failed"             // a Caller's error that is not an *UpstreamError
)

// ErrNotFound is wrapped by a Resolver that has no item of a name.
var ErrNotFound = errors.New("no such item")

// CodeUpstreamError is the JSON-RPC error code of a failed upstream call.
const CodeUpstreamError = -32010

// DefaultUpstreamTimeout bounds one upstream call unless configured.
const DefaultUpstreamTimeout = 30 * time.Second

// deadlineMargin is kept between an upstream call's deadline and the
// request's own, so that the client still gets the error in time.
const deadlineMargin = 500 * time.Millisecond

// callParams are the params of tools/call and prompts/get.
type callParams struct {
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// readParams are the params of resources/read.
type readParams struct {
	URI *string `json:"uri"`
}

func callMethod(k Kind) method {
	return func(ctx context.Context, s *Server, raw json.RawMessage) (result, error) {
		p, err := decodeParams[callParams](raw)
		if err != nil {
			return nil, err
		}
		if p.Name == nil || *p.Name == "" {
			return nil, fmt.Errorf("%w: name is required", ErrInvalidParams)
		}
		if err := checkArguments(k, p.Arguments); err != nil {
			return nil, err
		}
		if k == KindTool && s.meta != nil && s.meta.isMetaTool(*p.Name) {
			return s.meta.call(ctx, s, *p.Name, p.Arguments)
		}
		return s.forward(ctx, k, *p.Name, rawParams(raw))
	}
}

// checkArguments refuses arguments an upstream could not take: a tool's
// are an object, a prompt's an object of strings.
func checkArguments(k Kind, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if len(raw) > MaxArgumentsBytes {
		return fmt.Errorf("%w: arguments are %d bytes long, at most %d are allowed", ErrInvalidParams, len(raw), MaxArgumentsBytes)
	}
	if k == KindPrompt {
		var args map[string]string
		if json.Unmarshal(raw, &args) != nil {
			return fmt.Errorf("%w: arguments must be an object of strings", ErrInvalidParams)
		}
		return nil
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return fmt.Errorf("%w: arguments must be an object", ErrInvalidParams)
	}
	return nil
}

func readMethod(ctx context.Context, s *Server, raw json.RawMessage) (result, error) {
	p, err := decodeParams[readParams](raw)
	if err != nil {
		return nil, err
	}
	if p.URI == nil || *p.URI == "" {
		return nil, fmt.Errorf("%w: uri is required", ErrInvalidParams)
	}
	return s.forward(ctx, KindResource, *p.URI, rawParams(raw))
}

func rawParams(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// forward resolves the item called name and sends the request to its
// upstream. An unknown item and an item that cannot be called get the same
// error.
func (s *Server) forward(ctx context.Context, k Kind, name string, params json.RawMessage) (result, error) {
	t, err := s.resolveCallable(ctx, k, name)
	if err != nil {
		return nil, err
	}
	out, err := s.callUpstream(ctx, t, callMethodName(k), params)
	if err != nil {
		return nil, err
	}
	return upstreamResultOf(t, out)
}

// upstreamResultOf passes an upstream's result on, naming the upstream in
// its _meta (as search results do), so that a tool result with isError
// set says whose it is.
func upstreamResultOf(t *Target, out json.RawMessage) (result, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(out, &obj); err != nil || obj == nil {
		return nil, &Error{Code: CodeUpstreamError, Message: fmt.Sprintf("upstream %q answered a result that is not a JSON object", t.Server)}
	}
	named, err := withMeta(out, map[string]any{MetaServer: t.Server})
	if err != nil {
		return nil, fmt.Errorf("upstream %q answered a result that is not a JSON object: %w", t.Server, err)
	}
	return rawResult(named), nil
}

// resolveCallable finds the item a call names, refusing items without an
// upstream as if they did not exist.
func (s *Server) resolveCallable(ctx context.Context, k Kind, name string) (*Target, error) {
	r, ok := s.catalog.(Resolver)
	if !ok || s.caller == nil {
		return nil, unknownItem(k, name)
	}
	t, err := r.Resolve(ctx, k, name)
	if errors.Is(err, ErrNotFound) || (err == nil && len(t.Upstream) == 0) {
		return nil, unknownItem(k, name)
	}
	if err != nil {
		return nil, fmt.Errorf("resolving %s %q: %w", k, name, err)
	}
	return t, nil
}

func unknownItem(k Kind, name string) error {
	if k == KindResourceTemplate {
		k = KindResource
	}
	return fmt.Errorf("%w: unknown %s %q", ErrInvalidParams, k, name)
}

func callMethodName(k Kind) string {
	switch k {
	case KindTool:
		return "tools/call"
	case KindPrompt:
		return "prompts/get"
	}
	return "resources/read"
}

// callUpstream calls t's upstream within the upstream timeout, which ends
// before the request's own deadline, and names the upstream in any error.
func (s *Server) callUpstream(ctx context.Context, t *Target, method string, params json.RawMessage) (json.RawMessage, error) {
	deadline := time.Now().Add(s.upstreamTimeout)
	if d, ok := ctx.Deadline(); ok && d.Add(-deadlineMargin).Before(deadline) {
		deadline = d.Add(-deadlineMargin)
	}
	cctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	start := time.Now()
	out, err := s.caller.Call(cctx, t, method, params)
	if err == nil {
		return out, nil
	}
	if cctx.Err() != nil {
		err = &UpstreamError{Kind: UpstreamTimeout, Detail: fmt.Sprintf("did not answer %s within %s", method, time.Since(start).Round(time.Millisecond))}
	}
	wire := upstreamError(t.Server, err)
	s.logger.Warn("upstream call failed", "request_id", RequestIDFromContext(ctx), "server", t.Server, "method", method, "item", t.UpstreamName, "err", wire)
	return nil, wire
}

// upstreamError is the one place where an upstream's failure leaves the
// gateway, to the client and to the log. It names the upstream and passes
// on only the kind and detail of an *UpstreamError (which its Caller
// made safe), never the text of another error. The upstream's own "invalid
// params" stays -32602 (the caller's arguments were wrong); every other
// failure is CodeUpstreamError.
func upstreamError(server string, err error) *Error {
	ue := &UpstreamError{Kind: UpstreamFailed}
	errors.As(err, &ue)
	code := CodeUpstreamError
	if ue.Code == CodeInvalidParams {
		code = CodeInvalidParams
	}
	msg := fmt.Sprintf("upstream %q: %s", server, ue.Kind)
	if ue.Detail != "" {
		msg += ": " + oneLine(ue.Detail)
	}
	return &Error{Code: code, Message: msg}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// isCall reports whether method is forwarded to an upstream.
func isCall(method string) bool {
	return method == "tools/call" || method == "prompts/get" || method == "resources/read"
}

// upstreamResult is a result received from an upstream (or made like one),
// passed on as it came.
type upstreamResult struct{ body json.RawMessage }

func rawResult(body json.RawMessage) *upstreamResult { return &upstreamResult{body} }

func (r *upstreamResult) MarshalJSON() ([]byte, error) { return r.body, nil }

// modernize sets resultType and names this server in _meta, as a
// 2026-07-28 result does whatever the upstream spoke.
func (r *upstreamResult) modernize(s *Server, _ string) {
	var m map[string]json.RawMessage
	if json.Unmarshal(r.body, &m) != nil || m == nil {
		return
	}
	m["resultType"], _ = json.Marshal(mcp.ResultTypeComplete)
	meta := map[string]json.RawMessage{}
	json.Unmarshal(m["_meta"], &meta)
	meta[mcp.MetaKeyServerInfo], _ = json.Marshal(s.info)
	m["_meta"], _ = json.Marshal(meta)
	if out, err := json.Marshal(m); err == nil {
		r.body = out
	}
}
