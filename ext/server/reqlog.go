package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// RequestIDHeader carries the request id on every response.
const RequestIDHeader = "X-Request-Id"

type ctxKey int

const (
	requestIDKey ctxKey = iota
	logEntryKey
)

// WithRequestID returns ctx carrying id as the id of the request it serves.
// An adapter that has one (the Lambda invocation's request id) sets it; the
// server generates one otherwise. The id is logged with the request and
// returned in the X-Request-Id header.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestIDFromContext returns the id set by [WithRequestID], or "".
func RequestIDFromContext(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// requestLog collects what the log line of one request reports.
type requestLog struct {
	id, method string
	status     int
	code       int    // JSON-RPC error code, 0 if none
	results    int    // items in a page result, -1 if none
	query      string // logged at debug level only: queries can hold customer data
	err        error  // the details of an internal error
}

// loggingWriter records the status of the response it passes on.
type loggingWriter struct {
	http.ResponseWriter
	entry *requestLog
}

func (w *loggingWriter) WriteHeader(status int) {
	if w.entry.status == 0 {
		w.entry.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *loggingWriter) Write(p []byte) (int, error) {
	if w.entry.status == 0 {
		w.entry.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *loggingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *loggingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// beginRequest gives the request its id (returned in X-Request-Id) and the
// log entry its handlers fill in.
func beginRequest(w http.ResponseWriter, r *http.Request) (*loggingWriter, *http.Request) {
	ctx := r.Context()
	id := RequestIDFromContext(ctx)
	if id == "" {
		id = newRequestID()
		ctx = WithRequestID(ctx, id)
	}
	entry := &requestLog{id: id, results: -1}
	w.Header().Set(RequestIDHeader, id)
	return &loggingWriter{ResponseWriter: w, entry: entry}, r.WithContext(context.WithValue(ctx, logEntryKey, entry))
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// entryOf returns the log entry of the request ctx belongs to, or a
// throwaway one.
func entryOf(ctx context.Context) *requestLog {
	if e, ok := ctx.Value(logEntryKey).(*requestLog); ok {
		return e
	}
	return &requestLog{results: -1}
}

// recoverRequest turns a panic anywhere in the request, outside the
// methods too, into a logged -32603, so that the process keeps serving.
func (h *Handler) recoverRequest(w *loggingWriter) {
	p := recover()
	if p == nil {
		return
	}
	h.logger.Error("panic in handler", "request_id", w.entry.id, "method", w.entry.method, "panic", p, "stack", string(debug.Stack()))
	if w.entry.status == 0 {
		h.writeError(w, nil, fmt.Errorf("panic: %v", p), http.StatusOK) // as every -32603: errors travel in the body
	}
}

// logRequest writes the one log line of a finished request: its id,
// method, status, latency, result count, error code and caller subject.
// Query text is added at debug level only; tokens never reach the entry.
func (h *Handler) logRequest(ctx context.Context, e *requestLog, start time.Time) {
	attrs := []slog.Attr{
		slog.String("request_id", e.id),
		slog.String("method", e.method),
		slog.Int("status", e.status),
		slog.Float64("ms", float64(time.Since(start).Microseconds())/1000),
	}
	if e.results >= 0 {
		attrs = append(attrs, slog.Int("results", e.results))
	}
	if e.code != 0 {
		attrs = append(attrs, slog.Int("code", e.code))
	}
	if sub := ext.SubjectFromContext(ctx); sub != "" {
		attrs = append(attrs, slog.String("subject", sub))
	}
	if e.query != "" && h.logger.Enabled(ctx, slog.LevelDebug) {
		attrs = append(attrs, slog.String("query", e.query))
	}
	level := slog.LevelInfo
	switch {
	case e.code == ext.CodeOverloaded: // the limit doing its work, not a fault
		level = slog.LevelWarn
	case e.code == ext.CodeInternalError || e.status >= 500:
		level = slog.LevelError
		if e.err != nil {
			attrs = append(attrs, slog.String("err", e.err.Error()))
		}
	}
	h.logger.LogAttrs(ctx, level, "request", attrs...)
}

// noteQuery keeps the query text of a search for the log line, at debug
// level only.
func (h *Handler) noteQuery(ctx context.Context, params json.RawMessage) {
	if !h.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	var query string
	if json.Unmarshal(memberValue(params, "query"), &query) == nil {
		entryOf(ctx).query = query
	}
}
