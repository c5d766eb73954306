package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// resolvingCatalog is a memCatalog whose tools of server "up" have an
// upstream.
type resolvingCatalog struct{ *memCatalog }

var _ ext.Resolver = resolvingCatalog{}

func (c resolvingCatalog) Resolve(_ context.Context, k ext.Kind, name string) (*ext.Target, error) {
	for _, h := range c.items[k] {
		var obj struct{ Name, URI string }
		json.Unmarshal(h.Object, &obj)
		if obj.Name == name || (k == ext.KindResource && obj.URI == name) {
			t := &ext.Target{Kind: k, Server: h.Server, Name: name, UpstreamName: strings.TrimPrefix(name, h.Server+"__"), Object: h.Object}
			if h.Server == "up" {
				t.Upstream = json.RawMessage(`{"transport":"streamable-http","url":"http://127.0.0.1:1/mcp"}`)
			}
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: %s", ext.ErrNotFound, name)
}

func newResolvingCatalog() resolvingCatalog {
	c := newMemCatalog("v1", 3)
	c.add(ext.KindTool, "up", `{"name":"up__deploy","description":"deploy the app","inputSchema":{"type":"object"}}`)
	return resolvingCatalog{c}
}

// callerFunc is a ext.Caller from a function.
type callerFunc func(ctx context.Context, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error)

func (f callerFunc) Call(ctx context.Context, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	return f(ctx, t, method, params)
}

func TestForwardedCall(t *testing.T) {
	t.Parallel()
	var got struct {
		target *ext.Target
		method string
		params string
	}
	caller := callerFunc(func(_ context.Context, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
		got.target, got.method, got.params = t, method, string(params)
		return json.RawMessage(`{"content":[{"type":"text","text":"deployed"}]}`), nil
	})
	s := newTestServer(t, newResolvingCatalog(), &Options{Caller: caller})
	for _, test := range []struct {
		method string
		params map[string]any
		want   string
	}{
		{"tools/call", map[string]any{"name": "up__deploy", "arguments": "prod"}, "arguments must be an object"},
		{"prompts/get", map[string]any{"name": "srv__summarize", "arguments": map[string]any{"n": 1}}, "arguments must be an object of strings"},
		{"resources/read", map[string]any{}, "uri is required"},
	} {
		r := call(t, s, test.method, test.params)
		if r.Error == nil || r.Error.Code != ext.CodeInvalidParams || !strings.Contains(r.Error.Message, test.want) || got.target != nil {
			t.Errorf("%s %v: got %+v, want -32602 %q before any upstream is called", test.method, test.params, r.Error, test.want)
		}
	}
	r := call(t, s, "tools/call", map[string]any{"name": "up__deploy", "arguments": map[string]any{"env": "prod"}})
	if r.Error != nil || r.Result["content"] == nil {
		t.Fatalf("got %+v, want the upstream's result", r)
	}
	if got.target.UpstreamName != "deploy" || got.method != "tools/call" || !strings.Contains(got.params, `"env":"prod"`) {
		t.Errorf("the caller got %+v, %s, %s; want upstream name deploy and the arguments", got.target, got.method, got.params)
	}
	if meta, _ := r.Result["_meta"].(map[string]any); meta[ext.MetaServer] != "up" {
		t.Errorf("_meta: got %v, want the server named", r.Result["_meta"])
	}
	if _, ok := r.Result["resultType"]; ok {
		t.Errorf("a 2025 result carries resultType: %v", r.Result)
	}

	headers := append(modernHeaders("tools/call"), mcp.HeaderName, "up__deploy")
	r = call(t, s, "tools/call", map[string]any{"name": "up__deploy", "_meta": modernMeta}, headers...)
	meta, _ := r.Result["_meta"].(map[string]any)
	if r.Result["resultType"] != "complete" || meta[mcp.MetaKeyServerInfo] == nil || meta[ext.MetaServer] != "up" {
		t.Errorf("2026-07-28 tools/call: got %+v, want resultType, serverInfo and server", r)
	}
}

func TestForwardErrors(t *testing.T) {
	for _, test := range []struct {
		name    string
		caller  ext.Caller
		call    string
		code    int
		message string
	}{
		{"no caller", nil, "up__deploy", ext.CodeInvalidParams, `tool "up__deploy" is indexed here for search, but no upstream serves it: this server forwards no calls to its server "up"`},
		{"no upstream", callerFunc(nil), "srv__tool_001", ext.CodeInvalidParams, `tool "srv__tool_001" is indexed here for search, but no upstream serves it`},
		{"unknown", callerFunc(nil), "srv__nothing", ext.CodeInvalidParams, `unknown tool "srv__nothing"`},
		{"transport failure", callerFunc(func(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
			return nil, &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: "cannot connect: connection refused"}
		}), "up__deploy", ext.CodeUpstreamError, `upstream "up": unreachable: cannot connect: connection refused`},
		{"upstream invalid params", callerFunc(func(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
			return nil, fmt.Errorf("wrapped: %w", &ext.UpstreamError{Kind: ext.UpstreamAnsweredError, Code: ext.CodeInvalidParams, Detail: "env must be a string"})
		}), "up__deploy", ext.CodeInvalidParams, `upstream "up": upstream error: env must be a string`},
		{"what the upstream said", callerFunc(func(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
			return nil, &ext.UpstreamError{Kind: ext.UpstreamAnsweredError, Code: -32603, Detail: "JSON-RPC error -32603", Said: "its message: my key is s3cret"}
		}), "up__deploy", ext.CodeUpstreamError, `upstream "up": upstream error: JSON-RPC error -32603`},
		{"untyped error", callerFunc(func(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("dial https://up.example/mcp?key=s3cret: connection refused")
		}), "up__deploy", ext.CodeUpstreamError, `upstream "up": failed`},
		{"not an object", callerFunc(func(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`null`), nil
		}), "up__deploy", ext.CodeUpstreamError, `upstream "up" answered a result that is not a JSON object`},
		{"timeout", callerFunc(func(ctx context.Context, _ *ext.Target, _ string, _ json.RawMessage) (json.RawMessage, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}), "up__deploy", ext.CodeUpstreamError, `upstream "up": timeout: did not answer tools/call within`},
	} {
		t.Run(test.name, func(t *testing.T) {
			s := newTestServer(t, newResolvingCatalog(), &Options{Caller: test.caller, UpstreamTimeout: 50 * time.Millisecond})
			r := call(t, s, "tools/call", map[string]any{"name": test.call})
			if r.Error == nil || r.Error.Code != test.code || !strings.Contains(r.Error.Message, test.message) {
				t.Errorf("got %+v, want code %d containing %q", r.Error, test.code, test.message)
			}
			if r.Error != nil && (strings.Contains(r.Error.Message, "s3cret") || strings.Contains(r.Error.Message, "wrapped")) {
				t.Errorf("got %q: text of an error that is not an *ext.UpstreamError, or what the upstream said", r.Error.Message)
			}
		})
	}
}

func TestMetaToolsChecks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if m, err := NewMetaTools(ctx, newResolvingCatalog(), MetaOptions{Mode: ListFull}); m != nil || err != nil {
		t.Errorf("full: got %v, %v; want no meta tools", m, err)
	}
	if _, err := NewMetaTools(ctx, newResolvingCatalog(), MetaOptions{Always: []string{"up__deploy"}}); err != nil {
		t.Errorf("full mode, known always name: %v", err)
	}
	if _, err := NewMetaTools(ctx, newResolvingCatalog(), MetaOptions{Always: []string{"up__nope"}}); err == nil || !strings.Contains(err.Error(), "up__nope") {
		t.Errorf("full mode, unknown always name: got %v, want it named", err)
	}
	if _, err := NewMetaTools(ctx, newMemCatalog("v1", 3), MetaOptions{Mode: ListMeta, Always: []string{"srv__tool_001"}}); err == nil {
		t.Errorf("always names on a catalog that cannot resolve: got no error")
	}
	clash := newResolvingCatalog()
	clash.add(ext.KindTool, "x", `{"name":"search_tools","inputSchema":{"type":"object"}}`)
	if _, err := NewMetaTools(ctx, clash, MetaOptions{Mode: ListMeta}); err == nil || !strings.Contains(err.Error(), `"search_tools"`) {
		t.Errorf("a catalog tool named search_tools: got %v, want refused", err)
	}
}

func TestMetaToolsList(t *testing.T) {
	t.Parallel()
	m, err := NewMetaTools(context.Background(), newResolvingCatalog(), MetaOptions{Mode: ListMeta, Proxy: true, Always: []string{"up__deploy"}})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, newResolvingCatalog(), &Options{Meta: m})
	r := call(t, s, "tools/list", nil)
	tools, _ := r.Result["tools"].([]any)
	if len(tools) != 3 {
		t.Fatalf("got %v, want search_tools, call_tool and up__deploy", r.Result)
	}
	for i, want := range []string{"search_tools", "call_tool", "up__deploy"} {
		if name := tools[i].(map[string]any)["name"]; name != want {
			t.Errorf("tool %d: got %v, want %s", i, name, want)
		}
	}
	r = call(t, s, "tools/list", map[string]any{"cursor": "abc"})
	if r.Error == nil || r.Error.Code != ext.CodeInvalidParams {
		t.Errorf("a cursor in meta mode: got %+v, want -32602", r)
	}
	resp, _ := post(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"deploy"}}}`)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("search_tools: got HTTP %d", resp.StatusCode)
	}
	r = call(t, s, "tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": "deploy", "limit": 99}})
	if r.Result["isError"] != true {
		t.Errorf("search_tools with limit 99: got %v, want an isError result", r.Result)
	}
	_, out := post(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"deploy","limit":2.0}}}`)
	if !bytes.Contains(out, []byte(`"structuredContent"`)) {
		t.Errorf("search_tools with limit 2.0: got %s, want a result", out)
	}
}
