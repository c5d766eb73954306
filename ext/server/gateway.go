package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The gateway: tools/call, prompts/get and resources/read of a catalog item
// are forwarded to the upstream server the catalog names for it. Nothing is
// remembered between requests: the item is looked up by its canonical name
// (or URI) through the searcher's ext.Resolver, and the upstream is reached
// afresh by the ext.Caller.

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

// callMethod answers tools/call (k is ext.KindTool) or prompts/get.
func callMethod(k ext.Kind) handlerFunc {
	return func(ctx context.Context, h *Handler, req *request) (any, error) {
		p, err := decodeCall(k, req.Params)
		if err != nil {
			return nil, err
		}
		return h.forward(ctx, req, k, *p.Name, rawParams(req.Params))
	}
}

// decodeCall decodes and checks the params of tools/call or prompts/get.
func decodeCall(k ext.Kind, raw json.RawMessage) (*callParams, error) {
	if n := len(memberValue(raw, "arguments")); n > ext.MaxArgumentsBytes { // refused before it is copied
		return nil, fmt.Errorf("%w: arguments are %d bytes long, at most %d are allowed", ext.ErrInvalidParams, n, ext.MaxArgumentsBytes)
	}
	p, err := decodeParams[callParams](raw)
	if err != nil {
		return nil, err
	}
	if p.Name == nil || *p.Name == "" {
		return nil, fmt.Errorf("%w: name is required", ext.ErrInvalidParams)
	}
	if err := checkArguments(k, p.Arguments); err != nil {
		return nil, err
	}
	return p, nil
}

// checkArguments refuses arguments an upstream could not take: a tool's
// are an object, a prompt's an object of strings.
func checkArguments(k ext.Kind, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if len(raw) > ext.MaxArgumentsBytes {
		return fmt.Errorf("%w: arguments are %d bytes long, at most %d are allowed", ext.ErrInvalidParams, len(raw), ext.MaxArgumentsBytes)
	}
	if raw[0] != '{' {
		return fmt.Errorf("%w: arguments must be an object", ext.ErrInvalidParams)
	}
	if k == ext.KindPrompt && !allStrings(raw) {
		return fmt.Errorf("%w: arguments must be an object of strings", ext.ErrInvalidParams)
	}
	return nil
}

// allStrings reports whether every member of the object obj (checked by
// scanMessage) is a string.
func allStrings(obj json.RawMessage) bool {
	ok := true
	eachMember(obj, func(_, value []byte) bool {
		ok = value[0] == '"' || string(value) == "null" // null decodes as ""
		return ok
	})
	return ok
}

// readMethod answers resources/read.
func readMethod(ctx context.Context, h *Handler, req *request) (any, error) {
	p, err := decodeParams[readParams](req.Params)
	if err != nil {
		return nil, err
	}
	if p.URI == nil || *p.URI == "" {
		return nil, fmt.Errorf("%w: uri is required", ext.ErrInvalidParams)
	}
	return h.forward(ctx, req, ext.KindResource, *p.URI, rawParams(req.Params))
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
func (h *Handler) forward(ctx context.Context, req *request, k ext.Kind, name string, params json.RawMessage) (any, error) {
	t, err := h.resolveCallable(ctx, k, name)
	if err != nil {
		return nil, err
	}
	out, err := h.callUpstream(ctx, t, callMethodName(k), params)
	if err != nil {
		return nil, err
	}
	return h.upstreamResult(req, t, out)
}

// upstreamResult passes an upstream's result on, naming the upstream in
// its _meta (as search results do), so that a tool result with isError
// set says whose it is.
func (h *Handler) upstreamResult(req *request, t *ext.Target, out json.RawMessage) (any, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(out, &obj); err != nil || obj == nil {
		return nil, &ext.Error{Code: ext.CodeUpstreamError, Message: fmt.Sprintf("upstream %q answered a result that is not a JSON object", t.Server)}
	}
	named, err := withMeta(out, map[string]any{ext.MetaServer: t.Server})
	if err != nil {
		return nil, fmt.Errorf("upstream %q answered a result that is not a JSON object: %w", t.Server, err)
	}
	return h.rawResult(req, named), nil
}

// rawResult is a result received from an upstream (or made like one),
// passed on as it came; from 2026-07-28 on with resultType set and this
// server named in _meta, whatever the upstream spoke.
func (h *Handler) rawResult(req *request, body json.RawMessage) json.RawMessage {
	members, meta := h.modernFields(req)
	if members == nil {
		return body
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m == nil {
		return body
	}
	for k, v := range members {
		m[k], _ = json.Marshal(v)
	}
	have := map[string]json.RawMessage{}
	json.Unmarshal(m["_meta"], &have)
	for k, v := range meta {
		have[k], _ = json.Marshal(v)
	}
	m["_meta"], _ = json.Marshal(have)
	if out, err := json.Marshal(m); err == nil {
		return out
	}
	return body
}

// resolveCallable finds the item a call names. An item the caller may not
// see is unknown, as one that does not exist; one it sees that no upstream
// serves here (its server has none, or this server forwards no calls) is
// refused in words of its own (errNoUpstream): the caller found it by a
// search, and should not look for it under another name.
func (h *Handler) resolveCallable(ctx context.Context, k ext.Kind, name string) (*ext.Target, error) {
	r, ok := h.searcher.(ext.Resolver)
	if !ok {
		return nil, unknownItem(k, name)
	}
	t, err := r.Resolve(ctx, k, name)
	if errors.Is(err, ext.ErrNotFound) {
		return nil, unknownItem(k, name)
	}
	if err != nil {
		return nil, fmt.Errorf("resolving %s %q: %w", k, name, err)
	}
	if len(t.Upstream) == 0 || h.caller == nil {
		return nil, noUpstream(k, name, t.Server)
	}
	return t, nil
}

func unknownItem(k ext.Kind, name string) error {
	return fmt.Errorf("%w: unknown %s %q", ext.ErrInvalidParams, callKind(k), name)
}

// errNoUpstream is wrapped by the refusal of an item no upstream serves.
var errNoUpstream = errors.New("no upstream serves it")

// noUpstream refuses a call of the item name of server, which no
// upstream serves here.
func noUpstream(k ext.Kind, name, server string) error {
	return fmt.Errorf("%w: %s %q is indexed here for search, but %w: this server forwards no calls to its server %s",
		ext.ErrInvalidParams, callKind(k), name, errNoUpstream, ext.QuoteShort(server))
}

// callKind is the kind a call names: a template's resources are resources.
func callKind(k ext.Kind) ext.Kind {
	if k == ext.KindResourceTemplate {
		return ext.KindResource
	}
	return k
}

func callMethodName(k ext.Kind) string {
	switch k {
	case ext.KindTool:
		return "tools/call"
	case ext.KindPrompt:
		return "prompts/get"
	}
	return "resources/read"
}

// callUpstream calls t's upstream within the upstream timeout, which ends
// before the request's own deadline, and names the upstream in any error.
func (h *Handler) callUpstream(ctx context.Context, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	deadline := time.Now().Add(h.upstreamTimeout)
	if d, ok := ctx.Deadline(); ok && d.Add(-deadlineMargin).Before(deadline) {
		deadline = d.Add(-deadlineMargin)
	}
	cctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	start := time.Now()
	out, err := h.caller.Call(cctx, t, method, params)
	if err == nil {
		return out, nil
	}
	if cctx.Err() != nil {
		err = &ext.UpstreamError{Kind: ext.UpstreamTimeout, Detail: fmt.Sprintf("did not answer %s within %s", method, time.Since(start).Round(time.Millisecond))}
	}
	ue := upstreamFailure(err)
	wire := upstreamError(t.Server, ue)
	reqID := RequestIDFromContext(ctx)
	h.logger.Warn("upstream call failed", "request_id", reqID, "server", t.Server, "method", method, "item", t.UpstreamName, "err", wire)
	if ue.Said != "" {
		h.logger.Debug("upstream call failed: what the upstream said", "request_id", reqID, "server", t.Server, "said", ue.Said)
	}
	return nil, wire
}

// upstreamFailure is err as an *UpstreamError: one of a Caller's, or kind
// UpstreamFailed with nothing of err's text.
func upstreamFailure(err error) *ext.UpstreamError {
	ue := &ext.UpstreamError{Kind: ext.UpstreamFailed}
	errors.As(err, &ue)
	return ue
}

// upstreamError is the one place where an upstream's failure leaves the
// gateway, to the client and to the default log. It names the upstream and
// passes on only the kind and detail of an *UpstreamError (in its Caller's
// words, without configured values), never what the upstream said (Said,
// which callUpstream logs at debug level only) nor the text of another
// error. The upstream's own "invalid params" stays -32602 (the caller's
// arguments were wrong); every other failure is CodeUpstreamError.
func upstreamError(server string, ue *ext.UpstreamError) *ext.Error {
	code := ext.CodeUpstreamError
	if ue.Code == ext.CodeInvalidParams {
		code = ext.CodeInvalidParams
	}
	msg := fmt.Sprintf("upstream %q: %s", server, ue.Kind)
	if ue.Detail != "" {
		msg += ": " + oneLine(ue.Detail)
	}
	return &ext.Error{Code: code, Message: msg}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}
