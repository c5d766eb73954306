package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// syncBuffer is a log sink safe for the server's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// logLines decodes the JSON log lines written so far.
func (b *syncBuffer) logLines(tb testing.TB) []map[string]any {
	tb.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			tb.Fatalf("log line %q is not JSON: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// loggedServer is a server whose JSON logs at level go to the returned
// buffer.
func loggedServer(cat ext.Searcher, opts *Options, level slog.Level) (*Handler, *syncBuffer) {
	buf := &syncBuffer{}
	if opts == nil {
		opts = &Options{}
	}
	opts.Logger = slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}))
	return New(cat, opts), buf
}

func TestSlowSearchIsCutAtTheDeadline(t *testing.T) {
	for _, test := range []struct {
		name   string
		before func(ctx context.Context)
	}{
		{"search heeds its context", func(ctx context.Context) { <-ctx.Done() }},
		{"search ignores its context", func(context.Context) { time.Sleep(2 * time.Second) }},
	} {
		t.Run(test.name, func(t *testing.T) {
			cat := newMemCatalog("v1", 3)
			cat.before = test.before
			s := newTestServer(t, cat, &Options{RequestTimeout: 100 * time.Millisecond})
			start := time.Now()
			r := call(t, s, "tools/search", map[string]any{"query": "tool"})
			if took := time.Since(start); took > time.Second {
				t.Errorf("answered after %s, want soon after the 100ms deadline", took)
			}
			if r.Error == nil || r.Error.Code != ext.CodeInternalError || !strings.Contains(r.Error.Message, "deadline exceeded") {
				t.Errorf("got %+v, want -32603 naming the deadline", r.Error)
			}
		})
	}
}

// A Lambda invocation's deadline (the request context's) bounds a search
// even when it is sooner than the request timeout.
func TestInvocationDeadlineBoundsSearch(t *testing.T) {
	cat := newMemCatalog("v1", 3)
	cat.before = func(ctx context.Context) { <-ctx.Done() }
	s := newTestServer(t, cat, nil) // 10 s request timeout
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(rpc("tools/search", `{"query":"tool"}`))).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	start := time.Now()
	s.ServeHTTP(rec, req)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("answered after %s, want at the 150ms invocation deadline", took)
	}
	var r rpcResponse
	json.Unmarshal(rec.Body.Bytes(), &r)
	if r.Error == nil || r.Error.Code != ext.CodeInternalError || !strings.Contains(r.Error.Message, "deadline exceeded") {
		t.Errorf("got %s, want -32603 naming the deadline", rec.Body)
	}
}

// A client that goes away mid-request cancels the handler's context; no
// goroutine stays behind and the server keeps serving.
func TestClientDisconnectMidRequest(t *testing.T) {
	cat := newMemCatalog("v1", 3)
	cancelled := make(chan struct{}, 1)
	block := make(chan bool, 1)
	block <- true
	cat.before = func(ctx context.Context) {
		select {
		case <-block: // the first search only
		default:
			return
		}
		<-ctx.Done()
		cancelled <- struct{}{}
	}
	s := newTestServer(t, cat, nil)
	ts := httptest.NewServer(s)
	defer ts.Close()
	baseline := runtime.NumGoroutine()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/mcp", strings.NewReader(rpc("tools/search", `{"query":"tool"}`)))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("got %d, want the client to give up first", resp.StatusCode)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled within 5 s of the disconnect")
	}
	waitForGoroutines(t, baseline)
	resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(rpc("tools/search", `{"query":"tool"}`)))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after the disconnect: %v %v, want 200", resp, err)
	}
	resp.Body.Close()
}

func waitForGoroutines(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline+1 { // +1: the client's idle connection may linger
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), baseline+1, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A panic in a handler becomes -32603, logged with the request id, and the
// server keeps serving; on the search path, in a lifecycle method, and
// outside any method.
func TestPanicInHandler(t *testing.T) {
	cat := newMemCatalog("v1", 3)
	cat.before = func(context.Context) { panic("boom in search") }
	s, logs := loggedServer(cat, nil, slog.LevelInfo)
	searchPanics := s
	lifecyclePanics, lifecycleLogs := loggedServer(newMemCatalog("v1", 3), nil, slog.LevelInfo)
	ping := methods["ping"]
	methods["ping"] = methodInfo{handle: func(context.Context, *Handler, *request) (any, error) { panic("boom in lifecycle") }, era: legacyOnly, lifecycle: true}
	t.Cleanup(func() { methods["ping"] = ping })
	outsidePanics, outsideLogs := loggedServer(newMemCatalog("v1", 3), nil, slog.LevelInfo)
	for _, test := range []struct {
		name, body string
		s          *Handler
		logs       *syncBuffer
		ctx        func(context.Context) context.Context
	}{
		{"search", rpc("tools/search", `{"query":"tool"}`), searchPanics, logs, nil},
		{"lifecycle", rpc("ping", `{}`), lifecyclePanics, lifecycleLogs, nil},
		{"outside a method", rpc("ping", `{}`), outsidePanics, outsideLogs, panicOnce},
	} {
		t.Run(test.name, func(t *testing.T) {
			resp, out := postWithin(t, test.s, test.body, test.ctx)
			var r rpcResponse
			if err := json.Unmarshal(out, &r); err != nil || r.Error == nil || r.Error.Code != ext.CodeInternalError {
				t.Fatalf("got %d %s, want -32603", resp.StatusCode, out)
			}
			if r.Error.Message != "internal error" {
				t.Errorf("got message %q, want the bare \"internal error\"", r.Error.Message)
			}
			id := resp.Header.Get(RequestIDHeader)
			if !strings.Contains(test.logs.String(), `"panic in handler","request_id":"`+id+`"`) {
				t.Errorf("log does not record the panic with request id %q:\n%s", id, test.logs)
			}
			if r := call(t, test.s, "tools/list", nil); r.Error != nil {
				t.Errorf("after the panic tools/list got %+v, want a result", r.Error)
			}
		})
	}
}

// panicOnce returns ctx, whose first lookup of the listener's address (the
// transport's first step) panics.
func panicOnce(ctx context.Context) context.Context {
	return &panickyContext{Context: ctx}
}

type panickyContext struct {
	context.Context
	panicked bool
}

func (c *panickyContext) Value(key any) any {
	if key == http.LocalAddrContextKey && !c.panicked {
		c.panicked = true
		panic("boom outside")
	}
	return c.Context.Value(key)
}

// postWithin is post with the request's context changed by ctx, if set.
func postWithin(tb testing.TB, s http.Handler, body string, ctx func(context.Context) context.Context) (*http.Response, []byte) {
	tb.Helper()
	if ctx == nil {
		return post(tb, s, body)
	}
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(ctx(req.Context()))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.Bytes()
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	const secretQuery = "customer-acme merge"
	for _, test := range []struct {
		level     slog.Level
		wantQuery bool
	}{{slog.LevelInfo, false}, {slog.LevelDebug, true}} {
		t.Run(test.level.String(), func(t *testing.T) {
			s, logs := loggedServer(newMemCatalog("v1", 30), nil, test.level)
			body := rpc("tools/search", `{"query":"`+secretQuery+`","limit":3}`)
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer tok-secret-123")
			req = req.WithContext(ext.WithSubject(req.Context(), "user-42"))
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			post(t, s, rpc("tools/search", `{"query":"x","limit":0}`))

			lines := requestLines(logs.logLines(t))
			if len(lines) != 2 {
				t.Fatalf("got %d request log lines, want 2:\n%s", len(lines), logs)
			}
			ok, bad := lines[0], lines[1]
			want := map[string]any{"request_id": rec.Header().Get(RequestIDHeader), "method": "tools/search",
				"status": 200.0, "results": 3.0, "subject": "user-42"}
			for k, v := range want {
				if ok[k] != v {
					t.Errorf("%s: got %v, want %v", k, ok[k], v)
				}
			}
			if _, has := ok["ms"].(float64); !has {
				t.Errorf("no latency (ms) in %v", ok)
			}
			if bad["code"] != float64(ext.CodeInvalidParams) || bad["request_id"] == ok["request_id"] {
				t.Errorf("failed request logged as %v, want code -32602 and its own id", bad)
			}
			if got := strings.Contains(logs.String(), secretQuery); got != test.wantQuery {
				t.Errorf("query text in the log: %v, want %v:\n%s", got, test.wantQuery, logs)
			}
			if strings.Contains(logs.String(), "tok-secret-123") {
				t.Errorf("the token was logged:\n%s", logs)
			}
		})
	}
}

// An adapter's request id (Lambda's) is used instead of a generated one.
func TestRequestIDFromAdapter(t *testing.T) {
	t.Parallel()
	s, logs := loggedServer(newMemCatalog("v1", 3), nil, slog.LevelInfo)
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(rpc("ping", `{}`)))
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(WithRequestID(req.Context(), "lambda-req-7"))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if got := rec.Header().Get(RequestIDHeader); got != "lambda-req-7" {
		t.Errorf("got X-Request-Id %q, want lambda-req-7", got)
	}
	if lines := requestLines(logs.logLines(t)); len(lines) != 1 || lines[0]["request_id"] != "lambda-req-7" || lines[0]["method"] != "ping" {
		t.Errorf("got log %v, want one ping line with id lambda-req-7", lines)
	}
}

func requestLines(lines []map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["msg"] == "request" {
			out = append(out, l)
		}
	}
	return out
}
