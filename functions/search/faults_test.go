package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpsearch/mcpsearch/ext"
	extserver "github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// startResettingUpstream serves the test upstream on 127.0.0.1, except that
// a tools/call is answered by resetting the connection (TCP RST) after the
// request is read. It returns the URL and a count of the resets.
func startResettingUpstream(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	resets := &atomic.Int32{}
	mcpHandler := server.NewStreamableHTTPServer(upstreamtest.NewMCPServer(), server.WithStateLess(true))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !bytes.Contains(body, []byte(`"tools/call"`)) {
			r.Body = io.NopCloser(bytes.NewReader(body))
			mcpHandler.ServeHTTP(w, r)
			return
		}
		resets.Add(1)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		conn.(*net.TCPConn).SetLinger(0) // close sends RST
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", resets
}

// TestGatewayUpstreamResetsConnection: an upstream that resets the
// connection during a forwarded call gives the client -32010 naming the
// upstream, and the server goes on serving searches and other calls.
func TestGatewayUpstreamResetsConnection(t *testing.T) {
	url, resets := startResettingUpstream(t)
	idx := mustGatewayIndex(t, map[string]string{
		"flaky.json": string(upstreamtest.CatalogFile(t, "flaky", map[string]any{"transport": "streamable-http", "url": url})),
	})
	h, err := newGatewayHandler(t, idx, map[string]string{"MCPSEARCH_UPSTREAM_TIMEOUT": "5s"})
	if err != nil {
		t.Fatal(err)
	}
	g := &gateway{h: h, srv: httptest.NewServer(h), idx: idx}
	defer g.srv.Close()
	msg := wantError(t, rpc(t, g.viaHTTP, "tools/call", map[string]any{"name": "flaky__create_merge_request",
		"arguments": map[string]any{"title": "x"}}), ext.CodeUpstreamError)
	if !strings.Contains(msg, `upstream "flaky"`) {
		t.Errorf("got %q, want an error naming upstream \"flaky\"", msg)
	}
	if resets.Load() == 0 {
		t.Error("the upstream never saw the call: the test reset nothing")
	}
	wantResult(t, rpc(t, g.viaHTTP, "tools/search", map[string]any{"query": "merge request"}))
	wantResult(t, rpc(t, g.viaHTTP, "tools/call", map[string]any{"name": "gitlab__create_merge_request",
		"arguments": map[string]any{"title": "after the reset"}}))
}

// TestLambdaRequestID: under Lambda the invocation's request id is the
// request's id, returned in X-Request-Id.
func TestLambdaRequestID(t *testing.T) {
	g := mustGateway(t, nil)
	ev := loadEvent(t, "function-url-event.json")
	ev.Body = `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"merge request"}}`
	delete(ev.Headers, "content-length")
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "8476a536-e9f4-11e8-9739-2dfe598c3fcd"})
	resp, err := lambdaHandler(g.h)(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventHeader(resp, extserver.RequestIDHeader); got != "8476a536-e9f4-11e8-9739-2dfe598c3fcd" {
		t.Errorf("got X-Request-Id %q, want the Lambda request id", got)
	}
}

// TestLambdaDeadlineReachesSearch: the invocation's deadline is the
// request's, so a search past it is answered -32603 naming the deadline
// (here the deadline has already passed when the event arrives).
func TestLambdaDeadlineReachesSearch(t *testing.T) {
	g := mustGateway(t, nil)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Millisecond))
	defer cancel()
	msg := lambdaCall(t, g.h, ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"merge request"}}`))
	if got := wantError(t, msg, ext.CodeInternalError); !strings.Contains(got, "deadline exceeded") {
		t.Errorf("got %q, want the deadline named", got)
	}
}

// TestSlowClientIsCut: a client that sends its body too slowly loses the
// connection at the read timeout instead of holding it open.
func TestSlowClientIsCut(t *testing.T) {
	defer func(d time.Duration) { localReadTimeout = d }(localReadTimeout)
	localReadTimeout = 300 * time.Millisecond
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newLocalServer(l.Addr().String(), mustGateway(t, nil).h)
	go srv.Serve(l)
	defer srv.Close()
	conn, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	io.Copy(io.Discard, conn) // until the server closes the connection
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the connection stayed open %s, want it closed soon after the 300ms read timeout", took)
	}
}
