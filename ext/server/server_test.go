package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// rpcResponse is a decoded JSON-RPC response.
type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result map[string]any  `json:"result"`
	Error  *ext.Error      `json:"error"`
}

func newTestServer(tb testing.TB, cat ext.Searcher, opts *Options) *Handler {
	tb.Helper()
	if opts == nil {
		opts = &Options{}
	}
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return New(cat, opts)
}

// post sends body to s, with headers (name, value, …; a name given twice
// is sent twice), and returns the HTTP response with its body read.
func post(tb testing.TB, s http.Handler, body string, headers ...string) (*http.Response, []byte) {
	tb.Helper()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	given := map[string]bool{} // a header named twice is sent twice
	for i := 0; i+1 < len(headers); i += 2 {
		if name := http.CanonicalHeaderKey(headers[i]); given[name] {
			req.Header.Add(name, headers[i+1])
		} else {
			req.Header.Set(name, headers[i+1])
			given[name] = true
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.Bytes()
}

// call sends one JSON-RPC request and decodes the response.
func call(tb testing.TB, s http.Handler, method string, params any, headers ...string) rpcResponse {
	tb.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	_, out := post(tb, s, string(body), headers...)
	var r rpcResponse
	if err := json.Unmarshal(out, &r); err != nil {
		tb.Fatalf("%s: response %q is not JSON: %v", method, out, err)
	}
	return r
}

func TestErrorCodes(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 30), nil)
	other := newTestServer(t, newMemCatalog("v2", 30), nil)
	searchCursor := nextCursor(t, call(t, s, "tools/search", map[string]any{"query": "tool", "limit": 2}))
	otherIndexCursor := nextCursor(t, call(t, other, "tools/search", map[string]any{"query": "tool", "limit": 2}))
	listCursor := nextCursor(t, call(t, newTestServer(t, newMemCatalog("v1", 30), &Options{PageSize: 5}), "tools/list", nil))
	tampered := []byte(searchCursor)
	tampered[len(tampered)/2] ^= 1
	for _, test := range []struct {
		name, body string
		code       int
		message    string // a part of the error message
	}{
		{"not json", `{"jsonrpc":`, ext.CodeParseError, "not valid JSON"},
		{"empty body", ``, ext.CodeParseError, "not valid JSON"},
		{"form feed before the object", "\f" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ext.CodeParseError, "not valid JSON"},
		{"no-break space after the object", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\u00a0", ext.CodeParseError, "not valid JSON"},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, ext.CodeInvalidRequest, "batches are not supported"},
		{"not an object", `"hello"`, ext.CodeInvalidRequest, "not a JSON-RPC message"},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"tools/search"}`, ext.CodeInvalidRequest, `jsonrpc must be "2.0"`},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"tools/search"}`, ext.CodeInvalidRequest, "id must be"},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"tools/frobnicate"}`, ext.CodeMethodNotFound, ""},
		{"params not an object", rpc("tools/search", `[1,2]`), ext.CodeInvalidParams, "params must be an object"},
		{"query not a string", rpc("tools/search", `{"query":5}`), ext.CodeInvalidParams, `field "query" must be a string`},
		{"empty query", rpc("tools/search", `{"query":"  "}`), ext.CodeInvalidParams, "query is empty"},
		{"missing query", rpc("prompts/search", `{}`), ext.CodeInvalidParams, "query is empty"},
		{"overlong query", rpc("tools/search", `{"query":"`+strings.Repeat("a", ext.MaxQueryBytes+1)+`"}`), ext.CodeInvalidParams, "at most 4096"},
		{"too many words", rpc("tools/search", `{"query":"`+strings.Repeat("a ", ext.MaxQueryTerms+1)+`"}`), ext.CodeInvalidParams, "words"},
		{"limit zero", rpc("tools/search", `{"query":"x","limit":0}`), ext.CodeInvalidParams, "limit 0 is not between 1 and 50"},
		{"limit too big", rpc("tools/search", `{"query":"x","limit":51}`), ext.CodeInvalidParams, "limit 51"},
		{"limit not a number", rpc("tools/search", `{"query":"x","limit":"ten"}`), ext.CodeInvalidParams, `field "limit" must be an integer, not string`},
		{"limit with a fraction", rpc("tools/search", `{"query":"x","limit":10.5}`), ext.CodeInvalidParams, `field "limit" must be an integer, not number 10.5`},
		{"limit with a small exponent", rpc("tools/search", `{"query":"x","limit":105e-1}`), ext.CodeInvalidParams, `not number 105e-1`},
		{"limit past int64", rpc("tools/search", `{"query":"x","limit":1e400}`), ext.CodeInvalidParams, "limit 1e400 is not between 1 and 50"},
		{"limit below int64", rpc("tools/search", `{"query":"x","limit":-99999999999999999999}`), ext.CodeInvalidParams, "limit -99999999999999999999 is not between"},
		{"limit a boolean", rpc("prompts/search", `{"query":"x","limit":true}`), ext.CodeInvalidParams, `field "limit" must be an integer, not boolean`},
		{"unknown params field", rpc("tools/search", `{"query":"x","limt":5}`), ext.CodeInvalidParams, `unknown field "limt" in params (known: query, limit, cursor, filter, _meta)`},
		{"too many servers", rpc("tools/search", `{"query":"x","filter":{"servers":[`+manyServers(ext.MaxFilterServers+1)+`]}}`), ext.CodeInvalidParams, "filter names 1001 servers, at most 1000 are allowed"},
		{"too many annotations", rpc("tools/search", `{"query":"x","filter":{"annotations":{`+manyAnnotations(ext.MaxFilterAnnotations+1)+`}}}`), ext.CodeInvalidParams, "filter.annotations names 17 annotations, at most 16 are allowed"},
		{"9,900 spellings of the four hints", rpc("tools/search", `{"query":"x","filter":{"annotations":{`+manyAnnotations(9900)+`}}}`), ext.CodeInvalidParams, "filter.annotations names 9900 annotations, at most 16 are allowed"},
		{"annotation value longer than any title", rpc("tools/search", `{"query":"x","filter":{"annotations":{"title":"`+strings.Repeat("t", ext.MaxAnnotationBytes+1)+`"}}}`), ext.CodeInvalidParams, `filter.annotations["title"] is 1025 bytes long; an annotation's text value has at most 1024`},
		{"annotation value escaped to the limit is fine", rpc("tools/search", `{"query":"x","filter":{"annotations":{"bad":"`+strings.Repeat(`\u0074`, ext.MaxAnnotationBytes)+`"}}}`), ext.CodeInvalidParams, "invalid params: filter.annotations.bad"},
		{"annotation name too long", rpc("tools/search", `{"query":"x","filter":{"annotations":{"`+strings.Repeat("n", 2000)+`":true}}}`), ext.CodeInvalidParams, `is 2000 bytes long; an annotation's name has at most 1024`},
		{"server name longer than any", rpc("tools/search", `{"query":"x","filter":{"servers":["github","`+strings.Repeat("é", ext.MaxServerNameChars+1)+`"]}}`), ext.CodeInvalidParams, `field "filter.servers[1]" is 65 characters long; a server name has at most 64`},
		{"unknown filter field", rpc("resources/search", `{"query":"x","filter":{"server":["srv"]}}`), ext.CodeInvalidParams, `unknown field "server" in filter (known: servers, annotations)`},
		{"query: invalid bytes", rpc("tools/search", "{\"query\":\"caf\xe9\"}"), ext.CodeInvalidParams, `field "query" is not valid UTF-8`},
		{"query: lone high surrogate", rpc("tools/search", `{"query":"a\ud800b"}`), ext.CodeInvalidParams, `field "query" is not valid UTF-8`},
		{"query: lone low surrogate", rpc("tools/search", `{"query":"\udc00"}`), ext.CodeInvalidParams, `field "query" is not valid UTF-8`},
		{"query: surrogates reversed", rpc("tools/search", `{"query":"\ude00\ud83d"}`), ext.CodeInvalidParams, `field "query" is not valid UTF-8`},
		{"cursor: lone surrogate", rpc("tools/list", `{"cursor":"\ud800"}`), ext.CodeInvalidParams, `field "cursor" is not valid UTF-8`},
		{"filter server: lone surrogate", rpc("tools/search", `{"query":"x","filter":{"servers":["srv","\ud800"]}}`), ext.CodeInvalidParams, `field "filter.servers[1]" is not valid UTF-8`},
		{"annotation name: invalid bytes", rpc("tools/search", "{\"query\":\"x\",\"filter\":{\"annotations\":{\"\xff\":true}}}"), ext.CodeInvalidParams, `a member name of field "filter.annotations" is not valid UTF-8`},
		{"call name: lone surrogate", rpc("tools/call", `{"name":"srv__\ud800"}`), ext.CodeInvalidParams, `field "name" is not valid UTF-8`},
		{"prompt argument: lone surrogate", rpc("prompts/get", `{"name":"srv__summarize","arguments":{"doc":"\udfff"}}`), ext.CodeInvalidParams, `field "arguments.doc" is not valid UTF-8`},
		{"read uri: invalid bytes", rpc("resources/read", "{\"uri\":\"file:///\xc0\xaf\"}"), ext.CodeInvalidParams, `field "uri" is not valid UTF-8`},
		{"initialize: lone surrogate", rpc("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"\ud800","version":"1"}}`), ext.CodeInvalidParams, `field "clientInfo.name" is not valid UTF-8`},
		{"params an array (mcp-go method)", rpc("ping", `[]`), ext.CodeInvalidParams, "params must be an object, not an array"},
		{"initialize: protocolVersion a number", rpc("initialize", `{"protocolVersion":20251125,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), ext.CodeInvalidParams, `initialize request: field "protocolVersion" must be a string, not number`},
		{"initialize: clientInfo a string", rpc("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":"c"}`), ext.CodeInvalidParams, `field "clientInfo" must be an object, not string`},
		{"ping: _meta an array", rpc("ping", `{"_meta":[]}`), ext.CodeInvalidParams, `ping request: field "_meta" must be an object, not array`},
		{"resources/subscribe: uri a number", rpc("resources/subscribe", `{"uri":5}`), ext.CodeInvalidParams, `field "uri" must be a string, not number`},
		{"garbled cursor", rpc("tools/search", `{"query":"tool","limit":2,"cursor":"%%%"}`), ext.CodeInvalidParams, "cursor: not a cursor issued by this server"},
		{"tampered cursor", rpc("tools/search", `{"query":"tool","limit":2,"cursor":"`+string(tampered)+`"}`), ext.CodeInvalidParams, "cursor"},
		{"cursor of another index", rpc("tools/search", `{"query":"tool","limit":2,"cursor":"`+otherIndexCursor+`"}`), ext.CodeInvalidParams, "another index version"},
		{"cursor of another query", rpc("tools/search", `{"query":"number","limit":2,"cursor":"`+searchCursor+`"}`), ext.CodeInvalidParams, "another query"},
		{"cursor of another kind", rpc("prompts/search", `{"query":"tool","limit":2,"cursor":"`+searchCursor+`"}`), ext.CodeInvalidParams, "another query"},
		{"search cursor on a list", rpc("tools/list", `{"cursor":"`+searchCursor+`"}`), ext.CodeInvalidParams, "another query"},
		{"list cursor on another list", rpc("prompts/list", `{"cursor":"`+listCursor+`"}`), ext.CodeInvalidParams, "another query"},
		{"cursor too long", rpc("tools/list", `{"cursor":"`+strings.Repeat("A", 200)+`"}`), ext.CodeInvalidParams, "longer than"},
		{"nested too deep", rpc("tools/search", `{"query":"x","filter":`+strings.Repeat(`{"a":`, ext.MaxJSONDepth)+`1`+strings.Repeat(`}`, ext.MaxJSONDepth)+`}`), ext.CodeInvalidRequest, "deeper than 64"},
		{"nested too deep in a string is fine", rpc("tools/search", `{"query":"x","cursor":"`+strings.Repeat("[", 200)+`"}`), ext.CodeInvalidParams, "cursor longer than"},
		{"arguments too large", rpc("tools/call", `{"name":"srv__tool_001","arguments":{"a":"`+strings.Repeat("x", ext.MaxArgumentsBytes)+`"}}`), ext.CodeInvalidParams, "at most 262144"},
		{"bad filter", rpc("tools/search", `{"query":"x","filter":{"servers":"srv"}}`), ext.CodeInvalidParams, `field "filter.servers" must be an array`},
		{"filter rejected by catalog", rpc("tools/search", `{"query":"x","filter":{"annotations":{"bad":true}}}`), ext.CodeInvalidParams, "invalid params: filter.annotations.bad"},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, out := post(t, s, test.body)
			var r rpcResponse
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("response %q: %v", out, err)
			}
			if r.Error == nil {
				t.Fatalf("got result %v, want error %d", r.Result, test.code)
			}
			if r.Error.Code != test.code || !strings.Contains(r.Error.Message, test.message) {
				t.Errorf("got error %d %q, want %d containing %q", r.Error.Code, r.Error.Message, test.code, test.message)
			}
			for _, sentinel := range []*ext.Error{ext.ErrInvalidRequest, ext.ErrInvalidParams} {
				if r.Error.Code == sentinel.Code && !strings.HasPrefix(r.Error.Message, sentinel.Message+": ") {
					t.Errorf("got message %q, want it to begin with %q", r.Error.Message, sentinel.Message)
				}
			}
		})
	}
}

// manyAnnotations is n members of an annotations filter: n spellings of
// destructiveHint, differing in the case of their letters.
func manyAnnotations(n int) string {
	members := make([]string, n)
	for i := range members {
		name := []byte("destructivehint")
		for j := range name {
			if i>>j&1 == 1 {
				name[j] -= 'a' - 'A'
			}
		}
		members[i] = fmt.Sprintf("%q:true", name)
	}
	return strings.Join(members, ",")
}

func rpc(method, params string) string {
	return `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":` + params + `}`
}

func nextCursor(tb testing.TB, r rpcResponse) string {
	tb.Helper()
	c, _ := r.Result["nextCursor"].(string)
	if c == "" {
		tb.Fatalf("no nextCursor in %v (error %v)", r.Result, r.Error)
	}
	return c
}

func TestInternalErrorsLeakNothing(t *testing.T) {
	t.Parallel()
	cat := newMemCatalog("v1", 3)
	cat.fail = errSecret
	s := newTestServer(t, cat, nil)
	for _, method := range []string{"tools/search", "tools/list"} {
		r := call(t, s, method, map[string]any{"query": "x"})
		if r.Error == nil || r.Error.Code != ext.CodeInternalError || r.Error.Message != "internal error" {
			t.Errorf("%s: got %+v, want -32603 \"internal error\"", method, r.Error)
		}
	}
}

func TestHTTPTransport(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), &Options{MaxBodyBytes: 200})
	t.Run("GET is 405", func(t *testing.T) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mcp", nil))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != http.MethodPost {
			t.Errorf("got %d Allow %q, want 405 Allow POST", rec.Code, rec.Header().Get("Allow"))
		}
	})
	t.Run("notification is 202", func(t *testing.T) {
		for _, body := range []string{
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","method":"tools/search","params":{"query":"x"}}`,
		} {
			resp, out := post(t, s, body)
			if resp.StatusCode != http.StatusAccepted || len(bytes.TrimSpace(out)) != 0 {
				t.Errorf("%s: got %d %q, want 202 and no body", body, resp.StatusCode, out)
			}
		}
	})
	t.Run("body too large", func(t *testing.T) {
		resp, out := post(t, s, rpc("tools/search", `{"query":"`+strings.Repeat("x", 300)+`"}`))
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !bytes.Contains(out, []byte("exceeds 200 bytes")) {
			t.Errorf("got %d %s, want 413 naming the limit", resp.StatusCode, out)
		}
	})
	t.Run("wrong content type", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(rpc("ping", `{}`)))
		req.Header.Set("Content-Type", "text/plain")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnsupportedMediaType || !strings.Contains(rec.Body.String(), "application/json") {
			t.Errorf("got %d %s, want 415 naming application/json", rec.Code, rec.Body)
		}
	})
	t.Run("no session id", func(t *testing.T) {
		resp, _ := post(t, s, initialize("2025-06-18"))
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			t.Errorf("got session id %q, want none (stateless)", id)
		}
	})
	t.Run("ping", func(t *testing.T) {
		r := call(t, s, "ping", map[string]any{})
		if r.Error != nil || r.Result == nil {
			t.Errorf("got %+v, want an empty result", r)
		}
	})
	t.Run("DNS rebinding", func(t *testing.T) {
		ts := httptest.NewServer(s)
		defer ts.Close()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(rpc("ping", `{}`)))
		req.Header.Set("Content-Type", "application/json")
		req.Host = "evil.example.com"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("got %d, want 403 for a foreign Host on loopback", resp.StatusCode)
		}
	})
}

func initialize(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
}

// TestParamsAccepted: integers in any JSON spelling, valid UTF-8 in any
// spelling, _meta, and the members MCP lets standard methods carry are
// taken.
func TestParamsAccepted(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 30), nil)
	for _, test := range []struct {
		name, body string
		items      int // tools in the result
	}{
		{"limit 10.0", rpc("tools/search", `{"query":"tool","limit":10.0}`), 10},
		{"limit 1e1", rpc("tools/search", `{"query":"tool","limit":1e1}`), 10},
		{"limit 0.3e1", rpc("tools/search", `{"query":"tool","limit":0.3e1}`), 3},
		{"limit 250E-1", rpc("tools/search", `{"query":"tool","limit":250E-1}`), 25},
		{"limit null", rpc("tools/search", `{"query":"tool","limit":null}`), ext.DefaultLimit},
		{"surrogate pair and escapes", rpc("tools/search", `{"query":"tool \ud83d\ude00 \u00e9\n"}`), ext.DefaultLimit},
		{"raw multi-byte text", rpc("tools/search", `{"query":"tool 😀 é"}`), ext.DefaultLimit},
		{"_meta", rpc("tools/search", `{"query":"tool","_meta":{"progressToken":1,"x.y/z":"\ud83d\ude00"}}`), ext.DefaultLimit},
		{"other members of a standard method", rpc("tools/list", `{"cursor":null,"future":1}`), 30},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, out := post(t, s, test.body)
			var r struct {
				Result struct{ Tools []json.RawMessage }
				Error  *ext.Error
			}
			if err := json.Unmarshal(out, &r); err != nil || r.Error != nil || len(r.Result.Tools) != test.items {
				t.Errorf("got %s, want %d tools", out, test.items)
			}
		})
	}
}

// manyServers is n distinct server names as JSON strings, comma-separated.
func manyServers(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = `"s` + strconv.Itoa(i) + `"`
	}
	return strings.Join(names, ",")
}
