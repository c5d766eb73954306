package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// invocation is the context of a Lambda invocation that reports its
// deadline but does not enforce it: Done closes only when the test ends.
// A forwarded call that ends is then ended by the gateway's own deadline,
// derived from the reported one, and not by the runtime's, whatever the
// machine's speed.
type invocation struct {
	context.Context
	deadline time.Time
}

func (c invocation) Deadline() (time.Time, bool) { return c.deadline, true }

func newInvocation(t *testing.T, deadline time.Time) invocation {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return invocation{Context: ctx, deadline: deadline}
}

// countingUpstream serves the test upstream as the catalog server "slow"
// and counts the requests it receives.
func countingUpstream(t *testing.T) (catalogFile string, requests *atomic.Int64) {
	requests = new(atomic.Int64)
	mcp := mcpserver.NewStreamableHTTPServer(upstreamtest.NewMCPServer(), mcpserver.WithStateLess(true))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		mcp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return string(upstreamtest.CatalogFile(t, "slow", map[string]any{"transport": "streamable-http", "url": srv.URL + "/mcp"})), requests
}

// lambdaCallWithin sends body through the Lambda adapter under ctx and
// returns the answer, failing if none comes within limit.
func lambdaCallWithin(t *testing.T, h http.Handler, ctx context.Context, body string, limit time.Duration) map[string]any {
	t.Helper()
	ev := loadEvent(t, "function-url-event.json")
	ev.Body = body
	delete(ev.Headers, "content-length")
	type answer struct {
		body string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := lambdaHandler(h)(ctx, ev)
		done <- answer{resp.Body, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatalf("lambdaHandler: %v", a.err)
		}
		return decodeJSON(t, "Lambda", []byte(a.body))
	case <-time.After(limit):
		t.Fatalf("no answer within %s: the gateway waited for the upstream timeout, not the invocation's deadline", limit)
		return nil
	}
}

const hangCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow__hang"}}`

// TestGatewayWithinLambdaDeadline: the upstream timeout gives way to the
// invocation's deadline, less a margin, so the client gets the error
// before Lambda ends the invocation. The invocation's context never ends
// by itself, so only the gateway's own deadline can end the call: the
// test asserts what that deadline is, not how fast this machine answers.
func TestGatewayWithinLambdaDeadline(t *testing.T) {
	file, requests := countingUpstream(t)
	idx := mustGatewayIndex(t, map[string]string{"slow.json": file})
	h, err := newGatewayHandler(t, idx, map[string]string{"MCPSEARCH_UPSTREAM_TIMEOUT": "30s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("time left: the call ends at the deadline less the margin", func(t *testing.T) {
		start := time.Now()
		ctx := newInvocation(t, start.Add(2*time.Second))
		msg := wantError(t, lambdaCallWithin(t, h, ctx, hangCall, 15*time.Second), ext.CodeUpstreamError)
		if elapsed := time.Since(start); elapsed < 1500*time.Millisecond {
			t.Errorf("the call ended after %s, before the deadline less the margin (1.5s)", elapsed)
		}
		if !strings.Contains(msg, `upstream "slow": timeout`) || requests.Load() == 0 {
			t.Errorf("got %q after %d upstream requests, want a timeout of the forwarded call naming upstream \"slow\"", msg, requests.Load())
		}
	})
	t.Run("less time left than the margin: the upstream is not called", func(t *testing.T) {
		before := requests.Load()
		ctx := newInvocation(t, time.Now().Add(400*time.Millisecond))
		msg := wantError(t, lambdaCallWithin(t, h, ctx, hangCall, 15*time.Second), ext.CodeUpstreamError)
		if !strings.Contains(msg, `upstream "slow": timeout`) || requests.Load() != before {
			t.Errorf("got %q after %d upstream requests, want a timeout naming upstream \"slow\" and no request", msg, requests.Load()-before)
		}
	})
}
