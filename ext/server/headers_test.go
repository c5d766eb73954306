package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// modernRequest is a 2026-07-28 request of method with params (an object
// without _meta), and its headers.
func modernRequest(method, params string) (body string, headers []string) {
	body = `{"jsonrpc":"2.0","id":3,"method":"` + method + `","params":` + addModernMeta(params) + `}`
	return body, modernHeaders(method)
}

// TestRepeatedHeadersRefused: an MCP header sent twice, or a version or
// method header holding a list, is refused with 400 and a JSON-RPC error
// (mcp.HEADER_MISMATCH in the 2026-07-28 era, -32600 before), whatever
// the method, notifications included; the value the server would have
// read first is no excuse. A comma where a value may hold one (a name, a
// session id) is not a list.
func TestRepeatedHeadersRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	searchBody, searchHeaders := modernRequest("tools/search", `{"query":"x"}`)
	callBody, callHeaders := modernRequest("tools/call", `{"name":"srv__tool_000"}`)
	noteBody, noteHeaders := modernRequest("notifications/initialized", `{}`)
	noteBody = strings.Replace(noteBody, `"id":3,`, "", 1)
	legacy := rpc("tools/search", `{"query":"x"}`)
	for _, test := range []struct {
		name    string
		body    string
		headers []string
		code    int
		message string
	}{
		{"method twice", searchBody, append(searchHeaders, mcp.HeaderMethod, "tools/call"), mcp.HEADER_MISMATCH, `the Mcp-Method header is sent 2 times ("tools/search", "tools/call")`},
		{"method twice, the same", searchBody, append(searchHeaders, mcp.HeaderMethod, "tools/search"), mcp.HEADER_MISMATCH, "Mcp-Method header is sent 2 times"},
		{"method a list", searchBody, []string{mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728, mcp.HeaderMethod, "tools/search,tools/call"}, mcp.HEADER_MISMATCH, `the Mcp-Method header holds a list ("tools/search,tools/call")`},
		{"version twice", searchBody, append(searchHeaders, mcp.HeaderProtocolVersion, mcp.ProtocolVersion20251125), mcp.HEADER_MISMATCH, "Mcp-Protocol-Version header is sent 2 times"},
		{"name twice", callBody, append(callHeaders, mcp.HeaderName, "srv__tool_000", mcp.HeaderName, "srv__tool_001"), mcp.HEADER_MISMATCH, "Mcp-Name header is sent 2 times"},
		{"session id twice", searchBody, append(searchHeaders, mcp.HeaderSessionID, "a", mcp.HeaderSessionID, "b"), mcp.HEADER_MISMATCH, "Mcp-Session-Id header is sent 2 times"},
		{"notification, method twice", noteBody, append(noteHeaders, mcp.HeaderMethod, "notifications/initialized"), mcp.HEADER_MISMATCH, "Mcp-Method header is sent 2 times"},
		{"legacy, version twice", legacy, []string{mcp.HeaderProtocolVersion, "2025-11-25", mcp.HeaderProtocolVersion, "2025-06-18"}, ext.CodeInvalidRequest, "invalid request: the Mcp-Protocol-Version header is sent 2 times"},
		{"legacy, version a list", legacy, []string{mcp.HeaderProtocolVersion, "2025-11-25, 2025-06-18"}, ext.CodeInvalidRequest, "Mcp-Protocol-Version header holds a list"},
		{"legacy, method twice", legacy, []string{mcp.HeaderMethod, "tools/search", mcp.HeaderMethod, "tools/list"}, ext.CodeInvalidRequest, "Mcp-Method header is sent 2 times"},
		{"legacy ping, session id twice", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, []string{mcp.HeaderSessionID, "a", mcp.HeaderSessionID, "a"}, ext.CodeInvalidRequest, "Mcp-Session-Id header is sent 2 times"},
		{"legacy initialize, session id twice", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, []string{mcp.HeaderSessionID, "a", mcp.HeaderSessionID, "b"}, ext.CodeInvalidRequest, "Mcp-Session-Id header is sent 2 times"},
	} {
		t.Run(test.name, func(t *testing.T) {
			resp, out := post(t, s, test.body, test.headers...)
			var r rpcResponse
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("HTTP %d, body %q: %v", resp.StatusCode, out, err)
			}
			if resp.StatusCode != http.StatusBadRequest || r.Error == nil || r.Error.Code != test.code || !strings.Contains(r.Error.Message, test.message) {
				t.Errorf("got HTTP %d %s, want 400 and %d containing %q", resp.StatusCode, out, test.code, test.message)
			}
		})
	}
	t.Run("a comma in a name or a session id", func(t *testing.T) {
		body, headers := modernRequest("tools/search", `{"query":"x"}`)
		resp, out := post(t, s, body, append(headers, mcp.HeaderSessionID, "a,b")...)
		if resp.StatusCode != http.StatusOK || strings.Contains(string(out), `"error"`) {
			t.Errorf("session id a,b: got HTTP %d %s, want a result", resp.StatusCode, out)
		}
		resp, out = post(t, s, legacy, mcp.HeaderName, "file:///a,b")
		if resp.StatusCode != http.StatusOK || strings.Contains(string(out), `"error"`) {
			t.Errorf("Mcp-Name file:///a,b: got HTTP %d %s, want a result", resp.StatusCode, out)
		}
	})
}

// TestLastEventIDRefusedInTheModernEra: a 2026-07-28 request carrying
// Last-Event-ID is refused with 400 and mcp.HEADER_MISMATCH, whatever
// its method (that revision has no resumable stream); a request of an
// earlier revision keeps it ignored, as mcp-go does (it resumed a GET
// stream, and this server opens none).
func TestLastEventIDRefusedInTheModernEra(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newResolvingCatalog(), nil)
	for _, m := range []struct{ method, params string }{
		{"tools/search", `{"query":"merge"}`},
		{"prompts/search", `{"query":"summary"}`},
		{"resources/templates/search", `{"query":"page"}`},
		{"tools/list", `{}`},
		{"resources/list", `{}`},
		{"server/discover", `{}`},
		{"tools/call", `{"name":"up__deploy"}`},
	} {
		body, headers := modernRequest(m.method, m.params)
		if m.method == "tools/call" {
			headers = append(headers, mcp.HeaderName, "up__deploy")
		}
		resp, out := post(t, s, body, append(headers, mcp.HeaderLastEventID, "7")...)
		var r rpcResponse
		json.Unmarshal(out, &r)
		if resp.StatusCode != http.StatusBadRequest || r.Error == nil || r.Error.Code != mcp.HEADER_MISMATCH || !strings.Contains(r.Error.Message, "Last-Event-ID is not supported") {
			t.Errorf("%s: got HTTP %d %s, want 400 and %d", m.method, resp.StatusCode, out, mcp.HEADER_MISMATCH)
		}
		if m.method == "server/discover" || m.method == "tools/call" {
			continue
		}
		legacy := rpc(m.method, m.params)
		resp, out = post(t, s, legacy, mcp.HeaderProtocolVersion, mcp.ProtocolVersion20251125, mcp.HeaderLastEventID, "7")
		if resp.StatusCode != http.StatusOK || strings.Contains(string(out), `"error"`) {
			t.Errorf("%s, 2025-11-25: got HTTP %d %s, want a result", m.method, resp.StatusCode, out)
		}
	}
}
