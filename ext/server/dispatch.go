package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// dispatch answers one parsed message through the method table: it
// refuses a repeated MCP header, checks the protocol era the message
// states, accepts a notification, refuses a
// method unknown or of the other era, and runs the method, under the
// request deadline if its entry says so.
func (h *Handler) dispatch(w http.ResponseWriter, r *http.Request, req *request) {
	req.info = lookup(req.Method)
	if err := repeatedHeader(r.Header, req); err != nil {
		h.writeError(w, req.ID, err, http.StatusBadRequest)
		return
	}
	detect := detectEra
	if req.info.lifecycle {
		detect = detectLifecycleEra
	}
	var err error
	if req.era, err = detect(r.Header, req); err != nil {
		h.writeEraError(w, req, err)
		return
	}
	if req.isNotification() {
		h.accept(w, req)
		return
	}
	handle := req.info.handler(h)
	if handle == nil {
		h.writeError(w, req.ID, &ext.Error{Code: ext.CodeMethodNotFound, Message: methodNotFound(req.Method, req.era)}, req.era.errorStatus(ext.ErrMethodNotFound))
		return
	}
	if err := req.info.era.refuse(req.Method, req.era); err != nil {
		h.writeError(w, req.ID, err, req.era.errorStatus(err))
		return
	}
	h.answer(r.Context(), w, req, handle)
}

// writeEraError answers a message whose protocol era is refused: with 400,
// as JSON-RPC unless the refusal is plain text.
func (h *Handler) writeEraError(w http.ResponseWriter, req *request, err error) {
	var plain *plainError
	if errors.As(err, &plain) {
		http.Error(w, plain.msg, plain.status)
		return
	}
	h.writeError(w, req.ID, err, http.StatusBadRequest)
}

// accept answers a notification with 202 and no body ("If the server
// accepts the input, the server MUST return HTTP status code 202 Accepted
// with no body", Streamable HTTP, every revision): it is dropped unread.
func (h *Handler) accept(w http.ResponseWriter, _ *request) {
	w.WriteHeader(http.StatusAccepted)
}

// answer runs a request's method and writes its result or error.
func (h *Handler) answer(ctx context.Context, w http.ResponseWriter, req *request, handle handlerFunc) {
	h.noteQuery(ctx, req.Params)
	var res any
	var err error
	if req.info.deadline {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, req.deadline)
		defer cancel()
		res, err = h.callWithin(ctx, req, handle)
	} else {
		res, err = h.run(ctx, req, handle)
	}
	if page, ok := res.(*pageResult); ok {
		entryOf(ctx).results = len(page.items)
	}
	if err != nil {
		h.writeError(w, req.ID, err, req.era.errorStatus(err))
		return
	}
	h.writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: req.ID, Result: res})
}

// run runs the method, turning a panic into an internal error.
func (h *Handler) run(ctx context.Context, req *request, handle handlerFunc) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			h.logger.Error("panic in handler", "request_id", RequestIDFromContext(ctx), "method", req.Method,
				"panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return handle(ctx, h, req)
}

// callWithin runs the method of req and answers when it returns or when
// ctx ends, whichever is first: a searcher that does not heed its context
// still cannot hold the answer past the deadline. The method's goroutine
// then finishes on its own; its result is dropped.
func (h *Handler) callWithin(ctx context.Context, req *request, handle handlerFunc) (any, error) {
	type outcome struct {
		res any
		err error
	}
	start := time.Now()
	if err := ctx.Err(); err != nil {
		// Past the deadline already (a Lambda event that arrives late): no
		// race between a quick answer and the deadline decides the reply.
		return nil, h.deadlineError(ctx, start, err)
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := h.run(ctx, req, handle)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil && ctx.Err() != nil {
			return nil, h.deadlineError(ctx, start, o.err)
		}
		return o.res, o.err
	case <-ctx.Done():
		return nil, h.deadlineError(ctx, start, ctx.Err())
	}
}

// deadlineError explains a request cut by its deadline (the request
// timeout, or the Lambda invocation's deadline if that is sooner) or by the
// client going away.
func (h *Handler) deadlineError(ctx context.Context, start time.Time, cause error) error {
	took := time.Since(start).Round(time.Millisecond)
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("request cancelled by the client after %s: %w", took, cause)
	}
	return &ext.Error{Code: ext.CodeInternalError, Public: true, Message: fmt.Sprintf(
		"request deadline exceeded: no answer within %s (the limit is %s per request, less if the invocation ends sooner)",
		took, h.timeout)}
}
