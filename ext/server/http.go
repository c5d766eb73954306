package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// ServeHTTP implements the Streamable HTTP transport, statelessly: POST
// carries one JSON-RPC message and gets one JSON response (202 and no body
// for a notification); any other HTTP method gets 405.
//
// Every request gets an id (see [WithRequestID]), returned in X-Request-Id,
// and one structured log line; a panic becomes -32603 and is logged.
func (h *Handler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w, r := beginRequest(rw, r)
	defer h.logRequest(r.Context(), w.entry, time.Now())
	defer h.recoverRequest(w)
	h.serve(w, r)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	if rejectDNSRebinding(w, r) {
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed: MCP messages are sent with POST (this server opens no SSE stream)", http.StatusMethodNotAllowed)
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		h.writeError(w, nil, fmt.Errorf("%w: Content-Type must be application/json", ext.ErrInvalidRequest), http.StatusUnsupportedMediaType)
		return
	}
	if !h.inFlight.acquire() {
		h.writeOverloaded(w)
		return
	}
	defer h.inFlight.release()
	deadline := time.Now().Add(h.timeout) // reading, decoding and the method's work
	body, err := h.readBody(w, r, deadline)
	if err != nil {
		h.writeBodyError(w, err)
		return
	}
	req, err := parseRequest(body)
	entryOf(r.Context()).method = req.Method
	if err != nil { // the transport answers input it cannot accept with 400, in every era
		h.writeError(w, req.ID, err, http.StatusBadRequest)
		return
	}
	if time.Now().After(deadline) { // read and decoded, but too late for any work
		h.writeError(w, req.ID, h.deadlineError(r.Context(), deadline.Add(-h.timeout), context.DeadlineExceeded), http.StatusOK)
		return
	}
	if err := req.checkParams(); err != nil {
		h.writeError(w, req.ID, err, paramsStatus(r.Header, req, err))
		return
	}
	req.deadline = deadline
	h.dispatch(w, r, req)
}

// paramsStatus is the HTTP status of a message whose params no method
// takes (checkParams): a request's era decides it; a notification gets
// 400 in every era, as the transport answers a notification it cannot
// accept ("it MUST return an HTTP error status code (e.g., 400 Bad
// Request). The HTTP response body MAY comprise a JSON-RPC error response
// that has no id"), never a JSON-RPC answer with 200.
func paramsStatus(h http.Header, req *request, err error) int {
	if req.isNotification() {
		return http.StatusBadRequest
	}
	era, _ := detectEra(h, req)
	return era.errorStatus(err)
}

// readBody reads the request body, at most maxBodyBytes of it, by the
// request's deadline: a client that sends slowly is cut there (where the
// connection allows a read deadline: a Lambda event's body is in memory
// already).
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, deadline time.Time) ([]byte, error) {
	rc := http.NewResponseController(w)
	limited := !serverReadsSooner(r, deadline) && rc.SetReadDeadline(deadline) == nil
	body, err := readAll(http.MaxBytesReader(w, r.Body, h.maxBodyBytes), min(max(r.ContentLength, 0), h.maxBodyBytes))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, &ext.Error{Code: ext.CodeInternalError, Public: true, Message: fmt.Sprintf(
			"request deadline exceeded: the body was not received within %s (the limit is %s per request)", h.timeout, h.timeout)}
	}
	if limited && err == nil {
		// Read whole: the connection's background read, which watches for
		// the client going away, must not time out at the deadline.
		rc.SetReadDeadline(time.Time{})
	}
	return body, err
}

// serverReadsSooner reports whether the http.Server serving r bounds the
// reading of a whole request (ReadTimeout) to no later than deadline:
// setting the deadline would then extend its bound, not shorten it.
func serverReadsSooner(r *http.Request, deadline time.Time) bool {
	srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
	return ok && srv.ReadTimeout > 0 && !time.Now().Add(srv.ReadTimeout).After(deadline)
}

// readAll reads r to its end into a buffer made for the size the request
// announced, so that a body of the limit is not copied while it grows.
func readAll(r io.Reader, announced int64) ([]byte, error) {
	b := bytes.NewBuffer(make([]byte, 0, announced+bytes.MinRead))
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

func isJSON(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && media == "application/json"
}

func (h *Handler) writeBodyError(w http.ResponseWriter, err error) {
	var tooLarge *http.MaxBytesError
	var coded *ext.Error
	switch {
	case errors.As(err, &tooLarge):
		h.writeError(w, nil, fmt.Errorf("%w: request body exceeds %d bytes", ext.ErrInvalidRequest, tooLarge.Limit), http.StatusRequestEntityTooLarge)
	case errors.As(err, &coded):
		h.writeError(w, nil, err, http.StatusRequestTimeout)
	default:
		h.writeError(w, nil, fmt.Errorf("%w: reading request body: %v", ext.ErrParse, err), http.StatusBadRequest)
	}
}

// wireError converts err into the error sent to the client. A coded error
// keeps its code, data and full wrapped message; anything else becomes a
// bare internal error, its details left to the log (unless it is marked
// Public, as the deadline error).
func wireError(err error) *ext.Error {
	var e *ext.Error
	if errors.As(err, &e) && (e.Code != ext.CodeInternalError || e.Public) {
		return &ext.Error{Code: e.Code, Message: err.Error(), Data: e.Data}
	}
	return &ext.Error{Code: ext.CodeInternalError, Message: "internal error"}
}

// writeError converts err once into a JSON-RPC error response. Internal
// details are logged, never sent.
func (h *Handler) writeError(w http.ResponseWriter, id json.RawMessage, err error, status int) {
	wire := wireError(err)
	if lw, ok := w.(*loggingWriter); ok {
		lw.entry.code, lw.entry.err = wire.Code, err // logged with the request
	} else if wire.Code == ext.CodeInternalError {
		h.logger.Error("request failed", "err", err)
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	h.writeJSON(w, status, response{JSONRPC: "2.0", ID: id, Error: wire})
}

func (h *Handler) writeJSON(w http.ResponseWriter, status int, resp response) {
	body, err := resp.encode()
	if err == nil {
		body = h.fitAnswer(resp.ID, body)
	}
	if err != nil {
		h.logger.Error("encoding response", "err", err)
		body = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// rejectDNSRebinding refuses a request that reached a loopback listener with
// a Host header that does not name loopback (a DNS rebinding attack from a
// browser), with 403.
func rejectDNSRebinding(w http.ResponseWriter, r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !isLoopback(local.String()) || isLoopback(r.Host) {
		return false
	}
	http.Error(w, fmt.Sprintf("forbidden: Host %q does not name this loopback server", r.Host), http.StatusForbidden)
	return true
}

func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// encode encodes r and a newline, as encodeJSON does. A page result is
// written as its MarshalJSON makes it: its items are stored compact, and
// encoding/json would scan and copy every byte of them again (a page of
// the 50 largest tools of the default catalog, 2 MB, cost 35 ms so).
func (r response) encode() ([]byte, error) {
	page, ok := r.Result.(*pageResult)
	if !ok || r.Error != nil {
		return encodeJSON(r)
	}
	const head, mid, tail = `{"jsonrpc":"2.0","id":`, `,"result":`, "}\n"
	b := make([]byte, 0, len(head)+len(r.ID)+len(mid)+page.size()+len(tail))
	b, err := page.appendJSON(append(append(append(b, head...), r.ID...), mid...))
	if err != nil {
		return nil, err
	}
	return append(b, tail...), nil
}

// encodeJSON encodes v and a newline without HTML escaping, so that the
// request's id (and any text) comes back byte for byte: json.Marshal would
// turn an id "&" into "\u0026".
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
