package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// TestMain doubles as a stdio upstream: started with UPSTREAMTEST_MODE
// set, the test binary serves on stdin and stdout (see upstreamtest).
func TestMain(m *testing.M) {
	upstreamtest.ServeStdioIfAsked()
	os.Exit(m.Run())
}

func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func target(upstream any, name string) *ext.Target {
	raw, _ := json.Marshal(upstream)
	return &ext.Target{Kind: ext.KindTool, Server: "gitlab", Name: "gitlab__" + name, UpstreamName: name, Upstream: raw}
}

func callText(t *testing.T, c *Caller, tg *ext.Target, params string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := c.Call(ctx, tg, "tools/call", json.RawMessage(params))
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Content) == 0 {
		t.Fatalf("result %s: %v", out, err)
	}
	return res.Content[0].Text
}

// TestHTTPHeadersFromEnvironment: ${VAR} in headers is filled from the
// server's environment, and the upstream receives it (whoami answers the
// header, which the result passes on redacted, and its digest).
func TestHTTPHeadersFromEnvironment(t *testing.T) {
	url := upstreamtest.Start(t)
	c := New(&Options{Getenv: env(map[string]string{"GITLAB_TOKEN": "s3cret"})})
	up := map[string]any{"transport": "streamable-http", "url": url, "headers": map[string]string{"Authorization": "Bearer ${GITLAB_TOKEN}"}}
	if got, want := callText(t, c, target(up, "whoami"), `{"name":"gitlab__whoami"}`), upstreamtest.WhoamiText("Bearer s3cret", Redacted); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := callText(t, c, target(up, "create_merge_request"), `{"arguments":{"title":"Fix"}}`), "created merge request: Fix"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestUnsetVariable: the error names the variable and where it is used,
// and no value.
func TestUnsetVariable(t *testing.T) {
	c := New(&Options{Getenv: env(map[string]string{"OTHER": "value-not-to-leak"})})
	up := map[string]any{"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp",
		"headers": map[string]string{"Authorization": "Bearer ${GITLAB_TOKEN}", "X-Other": "${OTHER}"}}
	_, err := c.Call(context.Background(), target(up, "whoami"), "tools/call", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "GITLAB_TOKEN") || !strings.Contains(err.Error(), "headers.Authorization") {
		t.Fatalf("got %v, want an error naming GITLAB_TOKEN and headers.Authorization", err)
	}
	if strings.Contains(err.Error(), "value-not-to-leak") {
		t.Errorf("error %q holds a variable's value", err)
	}
}

// TestStdio: a stdio upstream runs when allowed (its env expanded) and is
// refused otherwise, before any process starts.
func TestStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	up := map[string]any{"transport": "stdio", "command": exe, "env": map[string]string{upstreamtest.ModeEnv: "${MODE}"}}
	allowed := New(&Options{AllowStdio: true, Getenv: env(map[string]string{"MODE": "serve"})})
	t.Cleanup(func() { allowed.Close() })
	if got, want := callText(t, allowed, target(up, "create_merge_request"), `{"arguments":{"title":"Via stdio"}}`), "created merge request: Via stdio"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	refused := New(&Options{Getenv: env(map[string]string{"MODE": "serve"})})
	_, err = refused.Call(context.Background(), target(up, "create_merge_request"), "tools/call", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "not in Lambda") {
		t.Errorf("got %v, want stdio refused", err)
	}
}

// TestStdioPool: a stdio upstream starts once and serves concurrent
// calls; a process that dies or hangs is replaced on a later call; Close
// ends the processes.
func TestStdioPool(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := New(&Options{AllowStdio: true})
	up := map[string]any{"transport": "stdio", "command": exe, "env": map[string]string{upstreamtest.ModeEnv: "serve"}}
	pid := func() string { return callText(t, c, target(up, "pid"), `{}`) }
	first := pid()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := pid(); got != first {
				t.Errorf("concurrent call: process %s, want the pooled %s", got, first)
			}
		}()
	}
	wg.Wait()

	n, _ := strconv.Atoi(first)
	proc, _ := os.FindProcess(n)
	proc.Kill()
	time.Sleep(100 * time.Millisecond)
	_, err = c.Call(context.Background(), target(up, "pid"), "tools/call", json.RawMessage(`{}`))
	if err == nil {
		t.Errorf("call to a killed process: got no error")
	}
	second := pid()
	if second == first {
		t.Errorf("after the process died: got process %s again, want a new one", second)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.Call(ctx, target(up, "hang"), "tools/call", json.RawMessage(`{}`)); err == nil {
		t.Fatal("hang: got no error")
	}
	if third := pid(); third == second {
		t.Errorf("after a timeout: got process %s again, want a new one", third)
	}
	c.Close()
	if _, err := c.Call(context.Background(), target(up, "pid"), "tools/call", json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Errorf("after Close: got %v, want refused", err)
	}
}

// TestUpstreamJSONRPCError: an error the upstream answers keeps its code;
// its message is what the upstream said, not the detail.
func TestUpstreamJSONRPCError(t *testing.T) {
	url := upstreamtest.Start(t)
	c := New(nil)
	_, err := c.Call(context.Background(), target(map[string]any{"transport": "streamable-http", "url": url}, "vanished"), "tools/call", json.RawMessage(`{}`))
	var ue *ext.UpstreamError
	if !errors.As(err, &ue) || ue.Kind != ext.UpstreamAnsweredError || ue.Code != ext.CodeInvalidParams ||
		ue.Detail != "JSON-RPC error -32602 (invalid params)" || !strings.Contains(ue.Said, "vanished") {
		t.Errorf("got %+v, want the upstream's -32602, its message naming the tool apart", ue)
	}
}

// TestExpandedURLScheme: a URL whose scheme comes from a variable is
// checked once expanded; one that is not http(s) fails the call as
// misconfigured, without quoting the URL.
func TestExpandedURLScheme(t *testing.T) {
	c := New(&Options{Getenv: env(map[string]string{"BASE": "file:///var/run/secret-token"})})
	defer c.Close()
	_, err := c.Call(context.Background(), target(map[string]any{"transport": "streamable-http", "url": "${BASE}/mcp"}, "t"), "tools/call", json.RawMessage(`{}`))
	var ue *ext.UpstreamError
	if !errors.As(err, &ue) || ue.Kind != ext.UpstreamMisconfigured || !strings.Contains(ue.Detail, "http:// or https://") || strings.Contains(err.Error(), "secret-token") {
		t.Errorf("got %v, want a misconfigured upstream asking for an http:// or https:// URL, without the URL", err)
	}
}

func TestBadConfig(t *testing.T) {
	for _, test := range []struct{ upstream, want string }{
		{`{"transport":"sse","url":"http://x"}`, `transport "sse"`},
		{`{"transport":"streamable-http"}`, "needs a url"},
		{`{"transport":"stdio"}`, "needs a command"},
		{`[1]`, "not a valid object"},
		{`{"transport":"streamable-http","url":"file:///etc/passwd"}`, "http:// or https://"},
	} {
		_, err := ParseConfig(json.RawMessage(test.upstream))
		if err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("%s: got %v, want an error containing %q", test.upstream, err, test.want)
		}
	}
}

// TestWrongID: an answer whose JSON-RPC id is not the request's fails the
// call at once as a protocol error, over HTTP and over stdio (where
// mcp-go would wait for the right id until the deadline), and is never
// passed on; the upstream's id is only what it said.
func TestWrongID(t *testing.T) {
	stdio := map[string]any{"transport": "stdio", "command": testExe(t), "env": map[string]string{upstreamtest.ModeEnv: "wrongid"}}
	http := map[string]any{"transport": "streamable-http", "url": upstreamtest.StartScripted(t, "wrongid", 200)}
	for name, up := range map[string]map[string]any{"http": http, "stdio": stdio} {
		t.Run(name, func(t *testing.T) {
			c := New(&Options{AllowStdio: true})
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			start := time.Now()
			out, err := c.Call(ctx, target(up, "anything"), "tools/call", json.RawMessage(`{}`))
			var ue *ext.UpstreamError
			if !errors.As(err, &ue) || ue.Kind != ext.UpstreamProtocolError || !strings.Contains(ue.Detail, "another request") {
				t.Fatalf("got %s, %v; want a protocol error", out, err)
			}
			if !strings.Contains(ue.Said, upstreamtest.WrongID) || strings.Contains(ue.Detail, upstreamtest.WrongID) {
				t.Errorf("got detail %q, said %q: want the upstream's id in what it said only", ue.Detail, ue.Said)
			}
			if elapsed := time.Since(start); elapsed > 10*time.Second {
				t.Errorf("the call failed after %s, want at once", elapsed)
			}
		})
	}
	nullID := map[string]any{"transport": "streamable-http", "url": upstreamtest.StartScripted(t, "nullid", 200)}
	_, err := New(nil).Call(context.Background(), target(nullID, "anything"), "tools/call", json.RawMessage(`{}`))
	if ue := (*ext.UpstreamError)(nil); !errors.As(err, &ue) || ue.Kind != ext.UpstreamProtocolError || ue.Detail != "the answer has no JSON-RPC id" {
		t.Errorf("an answer to id null over HTTP: got %v, want a protocol error", err)
	}
}
