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
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
	"github.com/mcpsearch/mcpsearch/index"
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
	return mustOpenCatalog(t, writeVisCatalog(t, upstreamtest.Start(t)))
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

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
