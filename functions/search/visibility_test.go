package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/index/catalog"
)

// The visibility catalog: the red team's 25 tools answer the test query
// best, the blue team's 25 less well, and the common server's tools are
// public except two restricted one by one (rollout to the blue group,
// runbook to holders of the docs:read scope). Every server reaches the test
// upstream, whose pid tool each lists, and red lists the upstream's prompt
// and resource too.
const (
	visQuery    = "deploy the payment service to production"
	visPageSize = 7
	visSecret   = "visibility-test-secret-of-32-bytes-or-more"
	visIssuer   = "https://idp.example.com/"
	visAudience = "mcpsearch-test"
)

// visTool is a tool of the visibility catalog and who may see it.
type visTool struct {
	server, name, description string
	groups, scopes            []string // the item's own, else the server's
}

// visCaller is a caller of the test and what its token says.
type visCaller struct {
	name           string
	groups, scopes []string
}

func (c visCaller) sees(tool visTool) bool {
	return ext.Access{Groups: c.groups, Scopes: c.scopes}.Sees(tool.groups, tool.scopes)
}

var visCallers = []visCaller{
	{name: "alice", groups: []string{"red"}},
	{name: "bob", groups: []string{"blue"}, scopes: []string{"docs:read"}},
}

func visTools() []visTool {
	var tools []visTool
	for _, s := range []struct{ server, group string }{{"red", "red"}, {"blue", "blue"}, {"common", ""}} {
		var groups []string
		if s.group != "" {
			groups = []string{s.group}
		}
		tools = append(tools, visTool{s.server, "pid", "Show the process id of the upstream", groups, nil})
	}
	for i := range 24 {
		tools = append(tools,
			visTool{"red", fmt.Sprintf("deploy_payment_service_%d", i), fmt.Sprintf("Deploy the payment service to the production cluster, variant %d", i), []string{"red"}, nil},
			visTool{"blue", fmt.Sprintf("ship_build_%d", i), fmt.Sprintf("Deploy a build of a service, variant %d", i), []string{"blue"}, nil})
	}
	for i := range 6 {
		tools = append(tools, visTool{"common", fmt.Sprintf("service_status_%d", i), fmt.Sprintf("Show the status of a service, variant %d", i), nil, nil})
	}
	return append(tools,
		visTool{"common", "rollout", "Deploy the payment service to production by a rollout", []string{"blue"}, nil},
		visTool{"common", "runbook", "Read the deploy runbook of a service", nil, []string{"docs:read"}})
}

// writeVisCatalog writes the catalog files, with the upstream at url.
func writeVisCatalog(t *testing.T, url string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]map[string]any{}
	for _, s := range []string{"red", "blue", "common"} {
		files[s] = map[string]any{"server": s, "upstream": map[string]any{"transport": "streamable-http", "url": url}, "tools": []any{}}
		if s != "common" {
			files[s]["visibility"] = map[string]any{"groups": []string{s}}
		}
	}
	files["red"]["prompts"] = []any{map[string]any{"name": "review", "description": "Review code on a topic", "arguments": []any{map[string]any{"name": "topic"}}}}
	files["red"]["resources"] = []any{map[string]any{"uri": "memo://readme", "name": "readme", "description": "The upstream readme"}}
	for _, tool := range visTools() {
		obj := map[string]any{"name": tool.name, "description": tool.description, "inputSchema": map[string]any{"type": "object"}}
		if tool.server == "common" && (tool.groups != nil || tool.scopes != nil) {
			obj["_meta"] = map[string]any{catalog.MetaVisibility: map[string]any{"groups": tool.groups, "scopes": tool.scopes}}
		}
		files[tool.server]["tools"] = append(files[tool.server]["tools"].([]any), obj)
	}
	for name, f := range files {
		data, _ := json.Marshal(f)
		if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// visServer serves the visibility catalog with the environment env; jwt
// mode unless env says otherwise.
func visServer(t *testing.T, idx *index.Index, env map[string]string) string {
	t.Helper()
	base := map[string]string{"MCPSEARCH_AUTH": "jwt", "MCPSEARCH_JWT_HS256_SECRET": visSecret, "MCPSEARCH_JWT_ISSUER": visIssuer,
		"MCPSEARCH_JWT_AUDIENCE": visAudience, "MCPSEARCH_PAGE_SIZE": fmt.Sprint(visPageSize)}
	for k, v := range env {
		base[k] = v
	}
	h, err := newGatewayHandler(t, idx, base)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func mustVisIndex(t *testing.T) *index.Index {
	t.Helper()
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(writeVisCatalog(t, upstreamtest.Start(t)), bundle, nil); err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

func (c visCaller) token(t *testing.T) string {
	t.Helper()
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: []byte(visSecret)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{"iss": visIssuer, "aud": visAudience, "sub": c.name, "exp": time.Now().Add(time.Hour).Unix(),
		"groups": c.groups, "scope": strings.Join(c.scopes, " ")}
	tok, err := jwt.Signed(sig).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// client sends JSON-RPC requests with one token (none if empty).
type client struct {
	url, token string
}

func (c client) rpc(t *testing.T, method string, params any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatalf("%s: status %d: %v", method, resp.StatusCode, err)
	}
	return msg
}

// walk follows a search or list through all its pages and returns the
// names on each page.
func (c client) walk(t *testing.T, method string, params map[string]any) [][]string {
	t.Helper()
	var pages [][]string
	for {
		r := wantResult(t, c.rpc(t, method, params))
		pages = append(pages, itemNames(r))
		next, _ := r["nextCursor"].(string)
		if next == "" || len(pages) > 100 {
			return pages
		}
		params = mapWith(params, "cursor", next)
	}
}

func itemNames(r map[string]any) []string {
	var names []string
	for key, v := range r {
		if items, ok := v.([]any); ok && key != "content" {
			for _, it := range items {
				names = append(names, path(it, "name").(string))
			}
		}
	}
	return names
}

func mapWith(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for key, val := range m {
		if key != k {
			out[key] = val
		}
	}
	return out
}

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

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
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
