package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// modernHeaders are the headers a 2026-07-28 client sends with method m.
func modernHeaders(m string) []string {
	return []string{mcp.HeaderProtocolVersion, mcp.ProtocolVersion20260728, mcp.HeaderMethod, m}
}

// modernMeta is the _meta every 2026-07-28 request carries.
var modernMeta = map[string]any{
	mcp.MetaKeyProtocolVersion:    mcp.ProtocolVersion20260728,
	mcp.MetaKeyClientInfo:         map[string]any{"name": "test", "version": "1"},
	mcp.MetaKeyClientCapabilities: map[string]any{},
}

func TestCapabilitiesAdvertised(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v-abc", 3), nil)
	for _, test := range []struct {
		name, method string
		params       map[string]any
		headers      []string
	}{
		{"initialize 2025-06-18", "initialize", initParams("2025-06-18"), nil},
		{"initialize 2025-11-25", "initialize", initParams("2025-11-25"), nil},
		{"server/discover 2026-07-28", "server/discover", map[string]any{"_meta": modernMeta}, modernHeaders("server/discover")},
	} {
		t.Run(test.name, func(t *testing.T) {
			r := call(t, s, test.method, test.params, test.headers...)
			if r.Error != nil {
				t.Fatalf("got error %+v", r.Error)
			}
			caps, _ := r.Result["capabilities"].(map[string]any)
			checkSearchCapability(t, caps, "v-abc")
			if test.method == "initialize" && r.Result["protocolVersion"] != test.params["protocolVersion"] {
				t.Errorf("got protocolVersion %v, want %v", r.Result["protocolVersion"], test.params["protocolVersion"])
			}
			if test.method == "server/discover" {
				versions, _ := json.Marshal(r.Result["supportedVersions"])
				want, _ := json.Marshal(SupportedProtocolVersions)
				if string(versions) != string(want) {
					t.Errorf("got supportedVersions %s, want %s", versions, want)
				}
			}
		})
	}
}

func initParams(version string) map[string]any {
	return map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}}
}

// checkSearchCapability checks the advertisement ext/README.md shows.
func checkSearchCapability(t *testing.T, caps map[string]any, version string) {
	t.Helper()
	want := map[string]map[string]any{
		"tools":     {"listChanged": false, "search": true, "dynamic": true},
		"prompts":   {"search": true},
		"resources": {"search": true},
	}
	for name, fields := range want {
		c, _ := caps[name].(map[string]any)
		for k, v := range fields {
			if c[k] != v {
				t.Errorf("capabilities.%s.%s: got %v, want %v", name, k, c[k], v)
			}
		}
	}
	extensions, _ := caps["extensions"].(map[string]any)
	experimental, _ := caps["experimental"].(map[string]any)
	for where, e := range map[string]any{"extensions": extensions[ext.ExtensionID], "experimental": experimental["search"]} {
		got, _ := json.Marshal(e)
		wantJSON, _ := json.Marshal(map[string]any{"methods": ext.SearchMethods, "listQuery": ext.ListMethods, "maxPageSize": ext.MaxLimit, "index": version, "explain": true})
		if string(got) != string(wantJSON) {
			t.Errorf("capabilities.%s: got %s, want %s", where, got, wantJSON)
		}
	}
}

func TestModernEra(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 12), &Options{PageSize: 5})
	params := map[string]any{"query": "screenshot", "_meta": modernMeta}
	t.Run("search result is decorated", func(t *testing.T) {
		r := call(t, s, "tools/search", params, modernHeaders("tools/search")...)
		if r.Error != nil || r.Result["resultType"] != "complete" {
			t.Fatalf("got %+v, want resultType complete", r)
		}
		if _, hasTTL := r.Result["ttlMs"]; hasTTL {
			t.Errorf("search result has ttlMs; only lists carry caching hints")
		}
	})
	t.Run("list result carries caching hints", func(t *testing.T) {
		r := call(t, s, "tools/list", map[string]any{"_meta": modernMeta}, modernHeaders("tools/list")...)
		if r.Error != nil || r.Result["cacheScope"] != "private" || r.Result["ttlMs"] == nil {
			t.Errorf("got %+v, want ttlMs and cacheScope", r.Result)
		}
	})
	for _, test := range []struct {
		name    string
		headers []string
		params  map[string]any
		code    int
		status  int
	}{
		{"method header mismatch", modernHeaders("tools/list"), params, mcp.HEADER_MISMATCH, http.StatusBadRequest},
		{"version header missing", []string{mcp.HeaderMethod, "tools/search"}, params, mcp.HEADER_MISMATCH, http.StatusBadRequest},
		{"meta missing", modernHeaders("tools/search"), map[string]any{"query": "x"}, ext.CodeInvalidParams, http.StatusBadRequest},
		{"capabilities missing", modernHeaders("tools/search"), map[string]any{"query": "x", "_meta": map[string]any{mcp.MetaKeyProtocolVersion: mcp.ProtocolVersion20260728}}, ext.CodeInvalidParams, http.StatusBadRequest},
		{"bad params get 400", modernHeaders("tools/search"), map[string]any{"query": "", "_meta": modernMeta}, ext.CodeInvalidParams, http.StatusBadRequest},
		{"legacy header of unknown version", []string{mcp.HeaderProtocolVersion, "1999-01-01"}, map[string]any{"query": "x"}, ext.CodeInvalidRequest, http.StatusBadRequest},
	} {
		t.Run(test.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/search", "params": test.params})
			resp, out := post(t, s, string(body), test.headers...)
			var r rpcResponse
			json.Unmarshal(out, &r)
			if r.Error == nil || r.Error.Code != test.code || resp.StatusCode != test.status {
				t.Errorf("got HTTP %d %s, want %d with code %d", resp.StatusCode, out, test.status, test.code)
			}
		})
	}
	t.Run("legacy errors stay in a 200 body", func(t *testing.T) {
		resp, _ := post(t, s, rpc("tools/search", `{"query":""}`), mcp.HeaderProtocolVersion, "2025-06-18")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("got %d, want 200", resp.StatusCode)
		}
	})
}

// TestInitializeAnswersAServedRevision: initialize answers the revision a
// client asks for when the server serves it, and otherwise the latest it
// serves by handshake (as the MCP specification asks; the client then
// decides whether to go on): never a revision SupportedProtocolVersions
// does not list. A later request whose Mcp-Protocol-Version header names
// an unserved revision is refused.
func TestInitializeAnswersAServedRevision(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v", 3), nil)
	for requested, want := range map[string]string{
		"2025-11-25": "2025-11-25", "2025-06-18": "2025-06-18",
		"2025-03-26": "2025-11-25", "2024-11-05": "2025-11-25", "": "2025-11-25",
		"1999-01-01": "2025-11-25", "2099-01-01": "2025-11-25", "2026-07-28": "2025-11-25",
	} {
		r := call(t, s, "initialize", initParams(requested))
		if r.Error != nil || r.Result["protocolVersion"] != want {
			t.Errorf("initialize %q: got %v (error %+v), want protocolVersion %s", requested, r.Result["protocolVersion"], r.Error, want)
		}
	}
	for _, old := range []string{"2025-03-26", "2024-11-05"} {
		if resp, body := post(t, s, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, mcp.HeaderProtocolVersion, old); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("ping with %s %s: got HTTP %d %s, want 400", mcp.HeaderProtocolVersion, old, resp.StatusCode, body)
		}
		r := call(t, s, "tools/search", map[string]any{"query": "x"}, mcp.HeaderProtocolVersion, old)
		if r.Error == nil || r.Error.Code != ext.CodeInvalidRequest {
			t.Errorf("tools/search with %s %s: got %+v, want -32600", mcp.HeaderProtocolVersion, old, r.Error)
		}
	}
}
