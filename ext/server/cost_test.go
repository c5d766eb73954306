package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// costMethods are the methods whose worst allowed requests are measured:
// each a body template with %s where the bulk goes, in params._meta (or
// the arguments of a call).
var costMethods = []struct{ name, body string }{
	{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":%s}}}`},
	{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"},"_meta":{"x":%s}}}`},
	{"tools/list", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":%s}}}`},
	{"tools/search", `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"merge","_meta":{"x":%s}}}`},
	{"tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"up__deploy","arguments":{"x":%s}}}`},
	{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"x":%s}}}`},
	{"prompts/search", `{"jsonrpc":"2.0","id":1,"method":"prompts/search","params":{"query":"summary","_meta":{"x":%s}}}`},
	{"resources/search", `{"jsonrpc":"2.0","id":1,"method":"resources/search","params":{"query":"file","_meta":{"x":%s}}}`},
	{"resources/templates/search", `{"jsonrpc":"2.0","id":1,"method":"resources/templates/search","params":{"query":"page","_meta":{"x":%s}}}`},
	{"prompts/list", `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{"_meta":{"x":%s}}}`},
	{"resources/list", `{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"_meta":{"x":%s}}}`},
	{"resources/templates/list", `{"jsonrpc":"2.0","id":1,"method":"resources/templates/list","params":{"_meta":{"x":%s}}}`},
	{"prompts/get", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"up__p","arguments":{"x":%s}}}`},
	{"resources/read", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x","_meta":{"x":%s}}}`},
}

// manyValues is a JSON array of n zeros.
func manyValues(n int) string {
	return "[" + strings.Repeat("0,", n-1) + "0]"
}

// fill pads the body template to about size bytes with a string beside
// the values: the most bytes and values a request may hold at once.
func fill(template, values string, size int) string {
	pad := max(0, size-len(template)-len(values)-16)
	return fmt.Sprintf(template, `[`+values+`,"`+strings.Repeat("a", pad)+`"]`)
}

// TestManySmallValuesRefused: a body of many small values (500,000
// numbers in 1 MiB) is refused by the scan, before any decoding, for every
// method, notifications included.
func TestManySmallValuesRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 5), nil)
	for _, m := range costMethods {
		body := fmt.Sprintf(m.body, manyValues(500_000))
		resp, out := post(t, s, body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(out), `"code":-32600`) ||
			!strings.Contains(string(out), fmt.Sprintf("more than %d JSON values", ext.MaxJSONValues)) {
			t.Errorf("%s: got %d %.200s, want 400 and -32600 naming the limit of values", m.name, resp.StatusCode, out)
		}
	}
}

// TestWorstRequestMemory: no request allocates more than a few MB, whatever
// its body: neither the bodies of many small values (refused) nor the
// largest allowed (the most values allowed, and a string to the body
// limit), for every method.
func TestWorstRequestMemory(t *testing.T) {
	const limit = 3 << 20
	s := newTestServer(t, newResolvingCatalog(), &Options{Caller: callerFunc(func(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[]}`), nil
	})})
	for _, m := range costMethods {
		for _, body := range []string{
			fmt.Sprintf(m.body, manyValues(500_000)),
			fill(m.body, manyValues(ext.MaxJSONValues-20), DefaultMaxBodyBytes),
		} {
			if got := allocated(t, s, body); got > limit {
				t.Errorf("%s (%d bytes): %d bytes allocated, want at most %d", m.name, len(body), got, limit)
			}
		}
	}
}

// allocated is the bytes one request of body allocates, the least of three.
func allocated(t *testing.T, s http.Handler, body string) uint64 {
	t.Helper()
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		post(t, s, body)
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestDuplicateKeysRefused: a member named twice, at any depth and in any
// spelling that decodes to the same name, is refused with -32600 naming
// it, instead of the last one silently winning.
func TestDuplicateKeysRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 5), nil)
	for _, test := range []struct{ name, body, where string }{
		{"method twice", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`, `member "method" appears twice in the message`},
		{"escaped", `{"jsonrpc":"2.0","id":1,"method":"ping","\u006dethod":"tools/list"}`, `member "method" appears twice in the message`},
		{"in params", rpc("tools/search", `{"query":"merge","query":"deploy"}`), `member "query" appears twice in field "params"`},
		{"deep in _meta", rpc("tools/search", `{"query":"merge","_meta":{"a":[{"b":1,"b":2}]}}`), `member "b" appears twice in field "params._meta.a[0]"`},
		{"in a notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"x":1,"x":1}}`, `member "x" appears twice in field "params"`},
	} {
		t.Run(test.name, func(t *testing.T) {
			resp, out := post(t, s, test.body)
			var r rpcResponse
			json.Unmarshal(out, &r)
			if resp.StatusCode != http.StatusBadRequest || r.Error == nil || r.Error.Code != ext.CodeInvalidRequest || !strings.Contains(r.Error.Message, test.where) {
				t.Errorf("got %d %s, want 400, -32600 and %q", resp.StatusCode, out, test.where)
			}
		})
	}
}

// TestOverloaded: past MaxInFlight requests at once, the next is refused
// at once with 503, Retry-After and -32011; a slot freed serves again.
func TestOverloaded(t *testing.T) {
	t.Parallel()
	cat := newMemCatalog("v1", 5)
	entered, release := make(chan struct{}), make(chan struct{})
	cat.before = func(context.Context) { entered <- struct{}{}; <-release }
	s := newTestServer(t, cat, &Options{MaxInFlight: 2})
	search := rpc("tools/search", `{"query":"merge"}`)
	done := make(chan struct{})
	for range 2 {
		go func() { post(t, s, search); done <- struct{}{} }()
		<-entered
	}
	resp, out := post(t, s, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(out), `"code":-32011`) || !strings.Contains(string(out), "2 requests are in flight") {
		t.Errorf("third request: got %d (Retry-After %q) %s, want 503 with Retry-After and -32011", resp.StatusCode, resp.Header.Get("Retry-After"), out)
	}
	close(release)
	<-done
	<-done
	cat.before = nil
	if r := call(t, s, "ping", nil); r.Error != nil {
		t.Errorf("after the others ended: %v, want an answer", r.Error)
	}
}

// TestSlowBodyIsCutAtTheDeadline: a client that sends its body slowly is
// answered at the request deadline, which counts from the start of
// reading, instead of holding the request open.
func TestSlowBodyIsCutAtTheDeadline(t *testing.T) {
	srv := httptest.NewServer(newTestServer(t, newMemCatalog("v1", 5), &Options{RequestTimeout: 200 * time.Millisecond}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":", srv.Listener.Addr())
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body is incomplete: %v", err)
	}
	out, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(out), "request deadline exceeded: the body was not received within 200ms") {
		t.Errorf("got %d %s, want the deadline error", resp.StatusCode, out)
	}
}

// TestDeadlineCoversDecoding: the request deadline counts from the start
// of reading, for every method: a request read and decoded past it gets
// the deadline error, not an answer (here the deadline is a nanosecond).
func TestDeadlineCoversDecoding(t *testing.T) {
	s := newTestServer(t, newMemCatalog("v1", 5), &Options{RequestTimeout: time.Nanosecond})
	if r := call(t, s, "ping", nil); r.Error == nil || !strings.Contains(r.Error.Message, "request deadline exceeded") {
		t.Errorf("got %+v, want the deadline error", r)
	}
}
