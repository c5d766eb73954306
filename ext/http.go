package ext

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

// ServeHTTP implements the Streamable HTTP transport, statelessly: POST
// carries one JSON-RPC message and gets one JSON response (202 and no body
// for a notification); any other HTTP method gets 405.
//
// Every request gets an id (see [WithRequestID]), returned in X-Request-Id,
// and one structured log line; a panic becomes -32603 and is logged.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w, r := beginRequest(rw, r)
	defer s.logRequest(r.Context(), w.entry, time.Now())
	defer s.recoverRequest(w)
	s.serve(w, r)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if rejectDNSRebinding(w, r) {
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed: MCP messages are sent with POST (this server opens no SSE stream)", http.StatusMethodNotAllowed)
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		s.writeError(w, nil, fmt.Errorf("%w: Content-Type must be application/json", ErrInvalidRequest), http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBodyBytes))
	if err != nil {
		s.writeBodyError(w, err)
		return
	}
	req, err := parseRequest(body)
	entryOf(r.Context()).method = req.Method
	if err != nil { // the transport answers input it cannot accept with 400, in every era
		s.writeError(w, req.ID, err, http.StatusBadRequest)
		return
	}
	if err := req.checkParams(); err != nil && !req.isNotification() {
		era, _ := detectEra(r.Header, req)
		s.writeError(w, req.ID, err, era.errorStatus(err))
		return
	}
	if _, ours := methods[req.Method]; ours {
		s.serveMethod(w, r, req)
		return
	}
	s.serveLifecycle(w, r, req, body)
}

func isJSON(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && media == "application/json"
}

func (s *Server) writeBodyError(w http.ResponseWriter, err error) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		s.writeError(w, nil, fmt.Errorf("%w: request body exceeds %d bytes", ErrInvalidRequest, tooLarge.Limit), http.StatusRequestEntityTooLarge)
		return
	}
	s.writeError(w, nil, fmt.Errorf("%w: reading request body: %v", ErrParse, err), http.StatusBadRequest)
}

// serveMethod answers one of the extension's own methods.
func (s *Server) serveMethod(w http.ResponseWriter, r *http.Request, req *request) {
	era, err := detectEra(r.Header, req)
	if err != nil {
		s.writeError(w, req.ID, err, http.StatusBadRequest)
		return
	}
	if req.isNotification() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	if isCall(req.Method) { // bounded by the upstream timeout instead
		ctx, cancel = context.WithCancel(r.Context())
	}
	defer cancel()
	s.noteQuery(ctx, req.Params)
	var result result
	if isCall(req.Method) {
		result, err = s.call(ctx, req)
	} else {
		result, err = s.callWithin(ctx, req)
	}
	if page, ok := result.(*pageResult); ok {
		entryOf(ctx).results = len(page.items)
	}
	if err != nil {
		s.writeError(w, req.ID, err, era.errorStatus(err))
		return
	}
	if era.modern {
		result.modernize(s, req.Method)
	}
	s.writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: req.ID, Result: result})
}

// call runs the method, turning a panic into an internal error.
func (s *Server) call(ctx context.Context, req *request) (res result, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("panic in handler", "request_id", RequestIDFromContext(ctx), "method", req.Method,
				"panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return methods[req.Method](ctx, s, req.Params)
}

// writeError converts err once into a JSON-RPC error response. Internal
// details are logged, never sent.
func (s *Server) writeError(w http.ResponseWriter, id json.RawMessage, err error, status int) {
	wire := wireError(err)
	if lw, ok := w.(*loggingWriter); ok {
		lw.entry.code, lw.entry.err = wire.Code, err // logged with the request
	} else if wire.Code == CodeInternalError {
		s.logger.Error("request failed", "err", err)
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	s.writeJSON(w, status, response{JSONRPC: "2.0", ID: id, Error: wire})
}

func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.logger.Error("encoding response", "err", err)
		body = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
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
