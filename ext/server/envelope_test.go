package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// eras are the header sets of the two protocol eras, for tests that hold
// in both.
var eras = []struct {
	name    string
	headers func(method string) []string
}{
	{"2025-11-25", func(string) []string { return []string{mcp.HeaderProtocolVersion, mcp.ProtocolVersion20251125} }},
	{"2026-07-28", modernHeaders},
}

// TestEnvelope sends every malformed JSON-RPC envelope: each is -32600 with
// HTTP 400 in both eras (the transport's answer to input the server cannot
// accept), carrying the request's id when that id is valid, else null.
func TestEnvelope(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	for _, test := range []struct {
		name, body string
		id         string // the id the error carries
		message    string
	}{
		{"no method", `{"jsonrpc":"2.0","id":1}`, `1`, "message has no method"},
		{"empty method", `{"jsonrpc":"2.0","id":1,"method":""}`, `1`, "method is empty"},
		{"empty method, notification", `{"jsonrpc":"2.0","method":""}`, `null`, "method is empty"},
		{"method a number", `{"jsonrpc":"2.0","id":1,"method":5}`, `1`, "method must be a string, not a number"},
		{"method null", `{"jsonrpc":"2.0","id":1,"method":null}`, `1`, "method must be a string, not null"},
		{"method an object", `{"jsonrpc":"2.0","id":"a","method":{}}`, `"a"`, "method must be a string, not an object"},
		{"id an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, `null`, "id must be a string or an integer, not an object"},
		{"id an array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `null`, "id must be a string or an integer, not an array"},
		{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, `null`, "id must be a string or an integer, not a boolean"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `null`, "id must be a string or an integer, not null"},
		{"id with a fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `null`, "id 1.5 has a fractional part"},
		{"id with a small exponent", `{"jsonrpc":"2.0","id":15e-1,"method":"ping"}`, `null`, "fractional part"},
		{"id not UTF-8", `{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`, `null`, "id is not valid UTF-8"},
		{"jsonrpc missing", `{"id":1,"method":"ping"}`, `1`, `jsonrpc must be "2.0"`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `1`, `jsonrpc must be "2.0"`},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, `1`, `jsonrpc must be "2.0"`},
		{"params a number", `{"jsonrpc":"2.0","id":1,"method":"ping","params":5}`, `1`, "params must be an object, not a number"},
		{"params a string", `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":"x"}`, `1`, "params must be an object, not a string"},
		{"params a boolean, notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":true}`, `null`, "params must be an object"},
		{"request with a result", `{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`, `1`, "a request carries no result or error"},
		{"request with an error", `{"jsonrpc":"2.0","id":1,"method":"tools/list","error":{"code":1,"message":"x"}}`, `1`, "a request carries no result or error"},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{}}`, `null`, "this server sends no requests"},
		{"error response", `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}`, `null`, "this server sends no requests"},
		{"unknown member", `{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}`, `1`, `unknown member "extra"`},
		{"method not UTF-8", `{"jsonrpc":"2.0","id":1,"method":"tools/\udc00"}`, `1`, "method is not valid UTF-8"},
		{"null", `null`, `null`, "not a JSON-RPC message object"},
	} {
		for _, era := range eras {
			t.Run(test.name+"/"+era.name, func(t *testing.T) {
				resp, out := post(t, s, test.body, era.headers("ping")...)
				var r struct {
					ID    json.RawMessage `json:"id"`
					Error *ext.Error      `json:"error"`
				}
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatalf("HTTP %d, body %q: %v", resp.StatusCode, out, err)
				}
				if resp.StatusCode != http.StatusBadRequest || r.Error == nil || r.Error.Code != ext.CodeInvalidRequest ||
					!strings.Contains(r.Error.Message, test.message) || string(r.ID) != test.id {
					t.Errorf("got HTTP %d %s, want 400, -32600 containing %q, id %s", resp.StatusCode, out, test.message, test.id)
				}
			})
		}
	}
}

// TestNotificationsAccepted: a well-formed notification (no id) gets 202
// and no body, whatever its method, in both eras (a 2026-07-28 one states
// its version in _meta, as its requests do).
func TestNotificationsAccepted(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	for _, test := range []struct{ method, params string }{
		{"notifications/initialized", `{}`},
		{"notifications/cancelled", `{"requestId":1,"reason":"x"}`},
		{"notifications/whatever", `{}`},
		{"tools/search", `{"query":"x"}`},
		{"tools/search", `{"query":"x","limt":1}`},
	} {
		for _, era := range eras {
			params := test.params
			if era.name == mcp.ProtocolVersion20260728 {
				params = addModernMeta(params)
			}
			body := `{"jsonrpc":"2.0","method":"` + test.method + `","params":` + params + `}`
			resp, out := post(t, s, body, era.headers(test.method)...)
			if resp.StatusCode != http.StatusAccepted || len(bytes.TrimSpace(out)) != 0 {
				t.Errorf("%s %s: got %d %q, want 202 and no body", era.name, body, resp.StatusCode, out)
			}
		}
	}
}

// TestMalformedNotificationsRefused: a notification whose params no MCP
// method takes (an array, text that is not valid UTF-8) cannot be
// accepted: it gets 400, in every era, and a JSON-RPC error with a null id
// (as the transport allows), never an answer with 200, and never one
// that says the body did not parse.
func TestMalformedNotificationsRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	for _, test := range []struct{ method, params, message string }{
		{"notifications/initialized", `[]`, "params must be an object, not an array"},
		{"notifications/cancelled", `[1,"x"]`, "params must be an object, not an array"},
		{"notifications/whatever", `[]`, "params must be an object, not an array"},
		{"tools/search", `["x"]`, "params must be an object, not an array"},
		{"tools/search", `{"query":"\ud800"}`, `field "query" is not valid UTF-8`},
		{"notifications/initialized", "{\"reason\":\"caf\xe9\"}", `field "reason" is not valid UTF-8`},
	} {
		for _, era := range eras {
			body := `{"jsonrpc":"2.0","method":"` + test.method + `","params":` + test.params + `}`
			resp, out := post(t, s, body, era.headers(test.method)...)
			var r struct {
				ID    json.RawMessage `json:"id"`
				Error *ext.Error      `json:"error"`
			}
			json.Unmarshal(out, &r)
			if resp.StatusCode != http.StatusBadRequest || r.Error == nil || r.Error.Code != ext.CodeInvalidParams ||
				!strings.Contains(r.Error.Message, test.message) || string(r.ID) != "null" {
				t.Errorf("%s %s: got HTTP %d %s, want 400, -32602 containing %q, id null", era.name, body, resp.StatusCode, out, test.message)
			}
		}
	}
}

// addModernMeta adds the _meta of a 2026-07-28 request to the params obj.
func addModernMeta(obj string) string {
	meta, _ := json.Marshal(modernMeta)
	member := `"_meta":` + string(meta) + `}`
	if obj != "{}" {
		member = "," + member
	}
	return strings.TrimSuffix(obj, "}") + member
}

// TestIDsEchoedExactly: every answer carries the request's id byte for
// byte, whichever half of the server answers it, results and errors alike.
func TestIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	for _, test := range []struct {
		name, method, params string
		modern               bool
	}{
		{"initialize", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`, false},
		{"initialize error", "initialize", `{"protocolVersion":5}`, false},
		{"ping", "ping", `{}`, false},
		{"server/discover", "server/discover", addModernMeta(`{}`), true},
		{"unknown method (mcp-go)", "tools/frobnicate", `{}`, false},
		{"tools/list", "tools/list", `{}`, false},
		{"tools/list 2026-07-28", "tools/list", addModernMeta(`{}`), true},
		{"tools/search", "tools/search", `{"query":"merge"}`, false},
		{"tools/search error", "tools/search", `{"query":""}`, false},
		{"tools/call of an unknown tool", "tools/call", `{"name":"nope"}`, false},
		{"params an array", "ping", `[]`, false},
	} {
		for _, id := range []string{`9007199254740993`, `-9007199254740993`, `123456789012345678901234567890`, `1e3`, `7.0`, `-0`, `0`, `"x"`, `""`, `"\ud83d\ude00 \u00e9"`} {
			t.Run(test.name+"/"+id, func(t *testing.T) {
				body := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + test.method + `","params":` + test.params + `}`
				var headers []string
				if test.modern {
					headers = modernHeaders(test.method)
				}
				_, out := post(t, s, body, headers...)
				var r struct{ ID json.RawMessage }
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatalf("body %q: %v", out, err)
				}
				if string(r.ID) != id {
					t.Errorf("got id %s, want %s exactly (response %s)", r.ID, id, out)
				}
			})
		}
	}
}

func TestIsIntegral(t *testing.T) {
	t.Parallel()
	for lit, want := range map[string]bool{
		"0": true, "-0": true, "7": true, "7.0": true, "7.000": true, "7e0": true, "70e-1": true, "0.7e1": true,
		"1E+2": true, "1e400": true, "1e99999999999999999999": true, "0.0e-99999999999999999999": true,
		"123456789012345678901234567890": true, "1000e-3": true,
		"7.5": false, "75e-1": false, "1e-1": false, "0.1": false, "1e-99999999999999999999": false,
		"100e-3": false, "-0.5": false,
	} {
		if got := isIntegral(lit); got != want {
			t.Errorf("isIntegral(%s): got %v, want %v", lit, got, want)
		}
	}
}
