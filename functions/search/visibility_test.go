package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestVisibility: two callers whose groups differ each find, list and
// call exactly what they may see, with full pages; the best matches for
// the query are the red team's, hidden from bob.
func TestVisibility(t *testing.T) {
	idx := mustVisIndex(t)
	url := visServer(t, idx, nil)
	everyone := client{url: visServer(t, idx, map[string]string{"MCPSEARCH_AUTH": "none"})}
	search := map[string]any{"query": visQuery, "limit": 10}
	reference := everyone.walk(t, "tools/search", search)
	for _, name := range reference[0] {
		if !strings.HasPrefix(name, "red__") {
			t.Fatalf("without visibility the first page is %v, want the red team's tools only", reference[0])
		}
	}
	byName := map[string]visTool{}
	for _, tool := range visTools() {
		byName[tool.server+"__"+tool.name] = tool
	}
	for _, caller := range visCallers {
		t.Run(caller.name, func(t *testing.T) {
			c := client{url: url, token: caller.token(t)}
			checkSearchVisibility(t, c, caller, byName, slices.Concat(reference...))
			checkListVisibility(t, c, caller, byName)
			checkCallVisibility(t, c, caller, byName)
		})
	}
}

// checkSearchVisibility: the caller's first page is full, and walking all
// pages gives exactly the items of the unrestricted walk the caller sees.
func checkSearchVisibility(t *testing.T, c client, caller visCaller, byName map[string]visTool, reference []string) {
	t.Helper()
	pages := c.walk(t, "tools/search", map[string]any{"query": visQuery, "limit": 10})
	if len(pages[0]) != 10 {
		t.Errorf("first search page has %d items, want a full page of 10: %v", len(pages[0]), pages[0])
	}
	var want []string
	for _, name := range reference {
		if caller.sees(byName[name]) {
			want = append(want, name)
		}
	}
	got := slices.Concat(pages...)
	if !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("search found %v,\nwant the visible part of the unrestricted results %v", got, want)
	}
}

// checkListVisibility: tools/list pages are full until the last, and
// together hold exactly the tools the caller sees; the prompt and resource
// of the red server are listed for red callers only.
func checkListVisibility(t *testing.T, c client, caller visCaller, byName map[string]visTool) {
	t.Helper()
	pages := c.walk(t, "tools/list", nil)
	for i, p := range pages[:len(pages)-1] {
		if len(p) != visPageSize {
			t.Errorf("list page %d has %d items, want %d", i, len(p), visPageSize)
		}
	}
	var want []string
	for name, tool := range byName {
		if caller.sees(tool) {
			want = append(want, name)
		}
	}
	if got := slices.Concat(pages...); !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("tools/list gave %v,\nwant %v", sorted(got), sorted(want))
	}
	red := slices.Contains(caller.groups, "red")
	if got := slices.Concat(c.walk(t, "prompts/list", nil)...); slices.Equal(got, []string{"red__review"}) != red {
		t.Errorf("prompts/list gave %v; red caller: %v", got, red)
	}
	if got := slices.Concat(c.walk(t, "resources/list", nil)...); slices.Equal(got, []string{"readme"}) != red {
		t.Errorf("resources/list gave %v; red caller: %v", got, red)
	}
}

// checkCallVisibility: visible items are called; a hidden one gets the
// very error of an item that does not exist.
func checkCallVisibility(t *testing.T, c client, caller visCaller, byName map[string]visTool) {
	t.Helper()
	unknown := map[string]string{
		"tools/call":     wantError(t, c.rpc(t, "tools/call", map[string]any{"name": "nope__pid"}), ext.CodeInvalidParams),
		"prompts/get":    wantError(t, c.rpc(t, "prompts/get", map[string]any{"name": "nope__review"}), ext.CodeInvalidParams),
		"resources/read": wantError(t, c.rpc(t, "resources/read", map[string]any{"uri": "memo://nothing"}), ext.CodeInvalidParams),
	}
	red := slices.Contains(caller.groups, "red")
	for _, call := range []struct {
		method, name, unknownName string
		visible                   bool
		params                    map[string]any
	}{
		{"tools/call", "red__pid", "nope__pid", caller.sees(byName["red__pid"]), map[string]any{"name": "red__pid"}},
		{"tools/call", "blue__pid", "nope__pid", caller.sees(byName["blue__pid"]), map[string]any{"name": "blue__pid"}},
		{"tools/call", "common__pid", "nope__pid", true, map[string]any{"name": "common__pid"}},
		{"prompts/get", "red__review", "nope__review", red, map[string]any{"name": "red__review", "arguments": map[string]string{"topic": "x"}}},
		{"resources/read", "memo://readme", "memo://nothing", red, map[string]any{"uri": "memo://readme"}},
	} {
		msg := c.rpc(t, call.method, call.params)
		if call.visible {
			wantResult(t, msg)
			continue
		}
		got := wantError(t, msg, ext.CodeInvalidParams)
		if want := strings.Replace(unknown[call.method], call.unknownName, call.name, 1); got != want {
			t.Errorf("%s %s (hidden): got %q, want the unknown item's error %q", call.method, call.name, got, want)
		}
	}
}

// TestVisibilityCursorsAndTokens: a cursor made for one caller is refused
// for another, and a request without a valid token gets 401.
func TestVisibilityCursorsAndTokens(t *testing.T) {
	idx := mustVisIndex(t)
	url := visServer(t, idx, nil)
	alice, bob := client{url, visCallers[0].token(t)}, client{url, visCallers[1].token(t)}
	for _, method := range []string{"tools/search", "tools/list"} {
		params := map[string]any{"query": visQuery, "limit": 10}
		if method == "tools/list" {
			params = map[string]any{}
		}
		next, _ := wantResult(t, alice.rpc(t, method, params))["nextCursor"].(string)
		if next == "" {
			t.Fatalf("%s: alice got no nextCursor", method)
		}
		msg := wantError(t, bob.rpc(t, method, mapWith(params, "cursor", next)), ext.CodeInvalidParams)
		if !strings.Contains(msg, "caller") {
			t.Errorf("%s: bob with alice's cursor: got %q, want a message naming the caller", method, msg)
		}
		wantResult(t, alice.rpc(t, method, mapWith(params, "cursor", next)))
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	json.NewDecoder(resp.Body).Decode(&meta)
	resp.Body.Close()
	if meta.Resource != url || !slices.Equal(meta.AuthorizationServers, []string{visIssuer}) {
		t.Errorf("protected resource metadata: got %+v, want resource %s and the issuer", meta, url)
	}
	for _, token := range []string{"", "not-a-jwt"} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer resource_metadata=") {
			t.Errorf("token %q: got %d %q, want 401 with a Bearer challenge", token, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
}

// TestVisibilityMetaMode: in meta-tool mode the always-listed tools,
// search_tools and call_tool show each caller its own tools only.
func TestVisibilityMetaMode(t *testing.T) {
	idx := mustVisIndex(t)
	url := visServer(t, idx, map[string]string{"MCPSEARCH_LIST_MODE": "meta", "MCPSEARCH_ALWAYS_TOOLS": "red__pid,blue__pid"})
	bob := client{url, visCallers[1].token(t)}
	if got := itemNames(wantResult(t, bob.rpc(t, "tools/list", nil))); !slices.Equal(got, []string{"search_tools", "call_tool", "blue__pid"}) {
		t.Errorf("bob's tools/list: got %v, want the meta tools and blue__pid", got)
	}
	found := wantResult(t, bob.rpc(t, "tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": visQuery, "limit": 10}}))
	names := itemNames(path(found, "structuredContent").(map[string]any))
	if len(names) != 10 || slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "red__") }) {
		t.Errorf("bob's search_tools: got %v, want 10 tools, none of red's", names)
	}
	called := wantResult(t, bob.rpc(t, "tools/call", map[string]any{"name": "call_tool", "arguments": map[string]any{"name": "red__pid"}}))
	if called["isError"] != true || !strings.Contains(fmt.Sprint(called["content"]), `unknown tool "red__pid"`) {
		t.Errorf("bob's call_tool red__pid: got %v, want the unknown tool error", called)
	}
}
