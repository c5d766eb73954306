package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/ext/upstream"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// TestGatewayRoundTrip: what a search finds, a call reaches, for a tool, a
// prompt, a resource and a resource template, over HTTP and through the
// Lambda adapter.
func TestGatewayRoundTrip(t *testing.T) {
	g := mustGateway(t, nil)
	for name, do := range map[string]send{"http": g.viaHTTP, "lambda": g.viaLambda} {
		t.Run(name, func(t *testing.T) {
			found := path(wantResult(t, rpc(t, do, "tools/search", map[string]any{"query": "open a merge request"})), "tools", 0, "name")
			if found != "gitlab__create_merge_request" {
				t.Fatalf("tools/search: got %v first, want gitlab__create_merge_request", found)
			}
			res := wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": found, "arguments": map[string]any{"title": "Fix the parser"}}))
			if got := path(res, "content", 0, "text"); got != "created merge request: Fix the parser" {
				t.Errorf("tools/call: got %v", res)
			}
			if got := path(res, "_meta", ext.MetaServer); got != "gitlab" {
				t.Errorf("tools/call _meta server: got %v, want gitlab", got)
			}
			res = wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "gitlab__whoami"}))
			if got, want := path(res, "content", 0, "text"), upstreamtest.WhoamiText("Bearer tok-123", upstream.Redacted); got != want {
				t.Errorf("credentials from the environment, redacted on their way back: got %v, want %v", got, want)
			}

			prompt := path(wantResult(t, rpc(t, do, "prompts/search", map[string]any{"query": "review code"})), "prompts", 0, "name")
			res = wantResult(t, rpc(t, do, "prompts/get", map[string]any{"name": prompt, "arguments": map[string]string{"topic": "the parser"}}))
			if got := path(res, "messages", 0, "content", "text"); got != "please review the parser" {
				t.Errorf("prompts/get %v: got %v", prompt, res)
			}

			uri := path(wantResult(t, rpc(t, do, "resources/search", map[string]any{"query": "project readme"})), "resources", 0, "uri")
			res = wantResult(t, rpc(t, do, "resources/read", map[string]any{"uri": uri}))
			if got := path(res, "contents", 0, "text"); got != upstreamtest.Readme {
				t.Errorf("resources/read %v: got %v", uri, res)
			}

			tmpl := path(wantResult(t, rpc(t, do, "resources/templates/search", map[string]any{"query": "note by id"})), "resourceTemplates", 0, "uriTemplate")
			if tmpl != "memo://notes/{id}" {
				t.Fatalf("resources/templates/search: got %v first", tmpl)
			}
			res = wantResult(t, rpc(t, do, "resources/read", map[string]any{"uri": "memo://notes/42"}))
			if got := path(res, "contents", 0, "text"); got != "note 42" {
				t.Errorf("resources/read through the template: got %v", res)
			}
		})
	}
}

// TestGatewayErrors: unknown items get one error, items of servers
// without upstream another that says so; upstream failures name the
// upstream, the kind of failure and the upstream's code, never its
// message.
func TestGatewayErrors(t *testing.T) {
	g := mustGateway(t, nil)
	do := g.viaHTTP
	unknown := func(kind, name string) string { return fmt.Sprintf("invalid params: unknown %s %q", kind, name) }
	msg := wantError(t, rpc(t, do, "tools/call", map[string]any{"name": "files__read_file"}), ext.CodeInvalidParams) // listed, but files has no upstream
	if want := `invalid params: tool "files__read_file" is indexed here for search, but no upstream serves it: this server forwards no calls to its server "files"`; msg != want {
		t.Errorf("tools/call files__read_file: got %q, want %q", msg, want)
	}
	for _, test := range []struct {
		method, key, name, kind string
	}{
		{"tools/call", "name", "nope__nothing", "tool"},
		{"tools/call", "name", "create_merge_request", "tool"},
		{"prompts/get", "name", "gitlab__nothing", "prompt"},
		{"resources/read", "uri", "memo://elsewhere", "resource"},
	} {
		msg := wantError(t, rpc(t, do, test.method, map[string]any{test.key: test.name}), ext.CodeInvalidParams)
		if want := unknown(test.kind, test.name); msg != want {
			t.Errorf("%s %s: got %q, want %q", test.method, test.name, msg, want)
		}
	}
	if msg := wantError(t, rpc(t, do, "tools/call", map[string]any{}), ext.CodeInvalidParams); !strings.Contains(msg, "name is required") {
		t.Errorf("no name: got %q", msg)
	}

	res := wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "gitlab__fail"}))
	if path(res, "isError") != true || !strings.Contains(fmt.Sprint(path(res, "content", 0, "text")), "quota exceeded") || path(res, "_meta", ext.MetaServer) != "gitlab" {
		t.Errorf("isError from the upstream: got %v, want it passed on with _meta naming gitlab", res)
	}
	msg = wantError(t, rpc(t, do, "tools/call", map[string]any{"name": "gitlab__vanished"}), ext.CodeInvalidParams)
	if want := `upstream "gitlab": upstream error: JSON-RPC error -32602 (invalid params)`; msg != want {
		t.Errorf("JSON-RPC error from the upstream: got %q, want %q (its code, not its message)", msg, want)
	}
	msg = wantError(t, rpc(t, do, "tools/call", map[string]any{"name": "locked__open_vault"}), ext.CodeUpstreamError)
	if !strings.Contains(msg, `upstream "locked"`) || !strings.Contains(msg, "MCPSEARCH_TEST_UNSET_TOKEN") {
		t.Errorf("unset credential: got %q, want it to name the upstream and the variable", msg)
	}
}

// TestGatewayHangingUpstream: a call to an upstream that never answers
// fails with a timeout naming the upstream once the upstream timeout has
// passed (a timer never fires early; the upper bound only catches a
// gateway that ignores it).
func TestGatewayHangingUpstream(t *testing.T) {
	g := mustGateway(t, map[string]string{"MCPSEARCH_UPSTREAM_TIMEOUT": "300ms"})
	start := time.Now()
	msg := wantError(t, rpc(t, g.viaHTTP, "tools/call", map[string]any{"name": "gitlab__hang"}), ext.CodeUpstreamError)
	elapsed := time.Since(start)
	if !strings.Contains(msg, `upstream "gitlab"`) || !strings.Contains(msg, "did not answer") {
		t.Errorf("got %q, want a timeout naming upstream \"gitlab\"", msg)
	}
	if elapsed < 300*time.Millisecond || elapsed > 20*time.Second {
		t.Errorf("the hanging call failed after %s, want the upstream timeout of 300ms", elapsed)
	}
}

// TestGatewayHangingUpstreamBlocksNoOne: while a call waits on an upstream
// that never answers (its timeout far off), searches and calls of the same
// upstream are answered; then the waiting caller hangs up, which ends the
// call. No bound depends on the machine's speed: a gateway that served
// one request at a time would leave the others waiting out the timeout.
func TestGatewayHangingUpstreamBlocksNoOne(t *testing.T) {
	g := mustGateway(t, map[string]string{"MCPSEARCH_UPSTREAM_TIMEOUT": "60s"})
	ctx, hangUp := context.WithCancel(context.Background())
	defer hangUp()
	hung := make(chan error, 1)
	go func() {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gitlab__hang"}}`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.srv.URL+"/mcp", strings.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			var resp *http.Response
			if resp, err = http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		hung <- err
	}()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if i%2 == 0 {
				wantResult(t, rpc(t, g.viaHTTP, "tools/search", map[string]any{"query": "take a screenshot"}))
			} else {
				wantResult(t, rpc(t, g.viaHTTP, "tools/call", map[string]any{"name": "gitlab__create_merge_request", "arguments": map[string]any{"title": "x"}}))
			}
		})
	}
	answered := make(chan struct{})
	go func() { wg.Wait(); close(answered) }()
	select {
	case <-answered:
	case err := <-hung:
		t.Fatalf("the hanging call ended (%v) before the other requests were answered", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the other requests were not answered while a call hung")
	}
	select {
	case err := <-hung:
		t.Fatalf("the hanging call ended (%v) before its caller hung up", err)
	default:
	}
	hangUp()
	if err := <-hung; !errors.Is(err, context.Canceled) {
		t.Errorf("the hanging call ended with %v, want the caller's hang-up", err)
	}
}

// TestGatewayStdioRefusedInLambda: in Lambda a stdio upstream is refused
// with a clear error, and no process starts.
func TestGatewayStdioRefusedInLambda(t *testing.T) {
	idx := mustGatewayIndex(t, map[string]string{"local.json": `{"server":"local",
		"upstream":{"transport":"stdio","command":"mcpsearch-test-command-that-must-not-run"},
		"tools":[{"name":"run","description":"Run locally","inputSchema":{"type":"object"}}]}`})
	h, err := newGatewayHandler(t, idx, map[string]string{"AWS_LAMBDA_RUNTIME_API": "127.0.0.1:9", "MCPSEARCH_AUTH": "none"})
	if err != nil {
		t.Fatal(err)
	}
	msg := wantError(t, lambdaCall(t, h, context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"local__run"}}`)), ext.CodeUpstreamError)
	if !strings.Contains(msg, `upstream "local"`) || !strings.Contains(msg, "not in Lambda") {
		t.Errorf("got %q, want stdio refused, naming upstream \"local\"", msg)
	}
}

// TestMetaMode: tools/list holds the meta tools and the always-listed
// tools only; search_tools then call_tool reaches the upstream.
func TestMetaMode(t *testing.T) {
	g := mustGateway(t, map[string]string{"MCPSEARCH_LIST_MODE": "meta", "MCPSEARCH_ALWAYS_TOOLS": "files__read_file"})
	for name, do := range map[string]send{"http": g.viaHTTP, "lambda": g.viaLambda} {
		t.Run(name, func(t *testing.T) {
			list := rpc(t, do, "tools/list", nil)
			if got, want := toolNames(t, list), []string{"search_tools", "call_tool", "files__read_file"}; !reflect.DeepEqual(got, want) {
				t.Errorf("tools/list: got %v, want %v", got, want)
			}
			if c := path(list, "result", "nextCursor"); c != nil {
				t.Errorf("tools/list: got nextCursor %v, want one page", c)
			}
			res := wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": "open a merge request", "limit": 3}}))
			first := path(res, "structuredContent", "tools", 0)
			if path(first, "name") != "gitlab__create_merge_request" || path(first, "inputSchema", "type") != "object" {
				t.Fatalf("search_tools: got %v first, want gitlab__create_merge_request with its input schema", first)
			}
			if text, _ := path(res, "content", 0, "text").(string); !strings.Contains(text, "gitlab__create_merge_request") {
				t.Errorf("search_tools text content: got %q", text)
			}
			res = wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": "read the contents of a file"}}))
			for _, tool := range path(res, "structuredContent", "tools").([]any) {
				if name := path(tool, "name").(string); !strings.HasPrefix(name, "gitlab__") && !strings.HasPrefix(name, "locked__") {
					t.Errorf("search_tools returned %s, which call_tool cannot reach", name)
				}
			}
			res = wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "call_tool",
				"arguments": map[string]any{"name": path(first, "name"), "arguments": map[string]any{"title": "From meta mode"}}}))
			if got := path(res, "content", 0, "text"); got != "created merge request: From meta mode" {
				t.Errorf("call_tool: got %v", res)
			}
			res = wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "call_tool", "arguments": map[string]any{"name": "files__read_file"}}))
			if path(res, "isError") != true || !strings.Contains(fmt.Sprint(path(res, "content", 0, "text")), `tool "files__read_file" is indexed here for search, but no upstream serves it`) {
				t.Errorf("call_tool of a tool without upstream: got %v, want an isError result saying so", res)
			}
			res = wantResult(t, rpc(t, do, "tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": " "}}))
			if path(res, "isError") != true {
				t.Errorf("search_tools with an empty query: got %v, want an isError result", res)
			}
		})
	}
}

// TestListModes: auto mode measures the tool list once; unknown always
// names and modes stop the server; without upstreams call_tool is not
// listed; full mode answers tools/list as a server without gateway does.
func TestListModes(t *testing.T) {
	idx := mustGatewayIndex(t, nil)
	list := func(t *testing.T, env map[string]string) []string {
		h, err := newGatewayHandler(t, idx, env)
		if err != nil {
			t.Fatal(err)
		}
		return toolNames(t, lambdaCall(t, h, context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
	}
	all := idx.Manifest().Counts[ext.KindTool]
	if got := list(t, map[string]string{"MCPSEARCH_LIST_MODE": "auto", "MCPSEARCH_META_THRESHOLD_CHARS": "100"}); len(got) != 2 {
		t.Errorf("auto, small threshold: got %v, want the two meta tools", got)
	}
	if got := list(t, map[string]string{"MCPSEARCH_LIST_MODE": "auto"}); len(got) != all {
		t.Errorf("auto, default threshold: got %d tools, want all %d (the catalog is small)", len(got), all)
	}
	for _, test := range []struct{ env, value, want string }{
		{"MCPSEARCH_ALWAYS_TOOLS", "gitlab__nope", `"gitlab__nope" is not in the catalog`},
		{"MCPSEARCH_LIST_MODE", "some", `MCPSEARCH_LIST_MODE="some": want full, meta or auto`},
		{"MCPSEARCH_UPSTREAM_TIMEOUT", "soon", "MCPSEARCH_UPSTREAM_TIMEOUT"},
		{"MCPSEARCH_META_THRESHOLD_CHARS", "-1", "MCPSEARCH_META_THRESHOLD_CHARS"},
	} {
		if _, err := newGatewayHandler(t, idx, map[string]string{test.env: test.value}); err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("%s=%q: got %v, want an error containing %q", test.env, test.value, err, test.want)
		}
	}

	var logs strings.Builder
	if _, err := newGatewayHandlerLogging(t, idx, map[string]string{"MCPSEARCH_LIST_MODE": "meta", "MCPSEARCH_ALWAYS_TOOLS": "gitlab__whoami,files__read_file"},
		slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "tool=files__read_file") || strings.Contains(logs.String(), "tool=gitlab__whoami") {
		t.Errorf("got logs %q, want a warning for files__read_file only (its server has no upstream)", logs.String())
	}

	plain := mustIndex(t) // testCatalog: no server has an upstream
	h, err := newGatewayHandler(t, plain, map[string]string{"MCPSEARCH_LIST_MODE": "meta"})
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, lambdaCall(t, h, context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))); !reflect.DeepEqual(got, []string{"search_tools"}) {
		t.Errorf("meta mode without upstreams: got %v, want only search_tools", got)
	}

	full, err := newGatewayHandler(t, idx, nil)
	if err != nil {
		t.Fatal(err)
	}
	bare := server.New(idx, &server.Options{Version: version, CursorKey: idx.CursorKey(), Logger: quiet})
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if got, want := lambdaCall(t, full, context.Background(), req), lambdaCall(t, bare, context.Background(), req); !reflect.DeepEqual(got, want) {
		t.Errorf("full mode tools/list:\ngot  %v\nwant %v (a server without gateway)", got, want)
	}
}

// TestGatewayCapabilities: the gateway leaves the advertised search
// capability as it was.
func TestGatewayCapabilities(t *testing.T) {
	g := mustGateway(t, map[string]string{"MCPSEARCH_LIST_MODE": "meta"})
	ev := loadEvent(t, "function-url-initialize-event.json")
	checkInitialize(t, decodeJSON(t, "Lambda", []byte(invoke(t, g.h, ev).Body)))
	msg := g.viaHTTP(t, eventBody(t, ev))
	for _, kind := range []string{"tools", "prompts", "resources"} {
		if got := path(msg, "result", "capabilities", kind, "search"); got != true {
			t.Errorf("capabilities.%s.search: got %v, want true", kind, got)
		}
	}
	if got := path(msg, "result", "capabilities", "extensions", ext.ExtensionID, "methods"); got == nil {
		t.Errorf("capabilities.extensions.%s: missing in %v", ext.ExtensionID, msg)
	}
}

// BenchmarkGatewayCall measures one proxied tools/call over loopback HTTP:
// connect, initialize and call the upstream, every time.
func BenchmarkGatewayCall(b *testing.B) {
	g := mustGateway(b, nil)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gitlab__create_merge_request","arguments":{"title":"bench"}}}`)
	for b.Loop() {
		resp, err := http.Post(g.srv.URL+"/mcp", "application/json", strings.NewReader(string(body)))
		if err != nil {
			b.Fatal(err)
		}
		var msg map[string]any
		json.NewDecoder(resp.Body).Decode(&msg)
		resp.Body.Close()
		if msg["result"] == nil {
			b.Fatalf("got %v", msg)
		}
	}
}

// TestGatewayWrongID: an upstream that answers another JSON-RPC id than
// the request's, over streamable HTTP or stdio, fails the call with a
// protocol error, over HTTP and through the Lambda adapter alike; its
// answer is never passed on, and the failure is logged.
func TestGatewayWrongID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	idx := mustGatewayIndex(t, map[string]string{
		"wrongidhttp.json":  leakyServer("wrongidhttp", map[string]any{"transport": "streamable-http", "url": upstreamtest.StartScripted(t, "wrongid", http.StatusOK)}),
		"wrongidstdio.json": leakyServer("wrongidstdio", map[string]any{"transport": "stdio", "command": exe, "env": map[string]string{upstreamtest.ModeEnv: "wrongid"}}),
	})
	var logs syncBuffer
	h, err := newGatewayHandlerLogging(t, idx, nil, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer h.(io.Closer).Close()
	g := &gateway{h: h, srv: httptest.NewServer(h), idx: idx}
	defer g.srv.Close()
	for _, server := range []string{"wrongidhttp", "wrongidstdio"} {
		for name, do := range map[string]send{"http": g.viaHTTP, "lambda": g.viaLambda} {
			answer := rpc(t, do, "tools/call", map[string]any{"name": server + "__leak"})
			msg := wantError(t, answer, ext.CodeUpstreamError)
			if want := fmt.Sprintf("upstream %q: protocol error: the answer is to another request: its JSON-RPC id is not the request's", server); msg != want {
				t.Errorf("%s %s: got %q, want %q", server, name, msg, want)
			}
		}
	}
	if n := strings.Count(logs.String(), "another request"); n != 4 {
		t.Errorf("got %d logged wrong-id failures, want 4:\n%s", n, logs.String())
	}
}
