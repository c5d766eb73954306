package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
	"github.com/mcpsearch/mcpsearch/index"
)

// TestHiddenServersAreAbsent: a caller answered from a catalog with
// servers it may not see gets, for every request, the answer it would get
// from the same catalog without those servers — lists, hints, errors,
// instructions, counts, meta tools, calls, and of a search whether it has
// items and which comes first — over HTTP and through the Lambda adapter,
// in the list modes full, meta and auto. What may differ is what names the
// build, the same for every caller (the index version, in the capabilities
// and, signed, in cursors; the build time; the bundle's size), and what
// ranking statistics over every item move: scores, and the order and tail
// of a page (measured: README "What is not hidden").
func TestHiddenServersAreAbsent(t *testing.T) {
	url := upstreamtest.Start(t)
	full := mustOpenCatalog(t, writeHiddenCatalog(t, url, "red", "blue", "common", "docs"))
	without := mustOpenCatalog(t, writeHiddenCatalog(t, url, "red", "common", "docs"))
	alice := visCaller{name: "alice", groups: []string{"red"}}
	ctx := ext.WithAccess(context.Background(), ext.Access{Groups: alice.groups})
	threshold := toolsChars(t, without, ctx) + 1 // alice's tools are below it, the catalog's above
	if toolsChars(t, full, ext.WithAccess(ctx, ext.Access{All: true})) <= threshold {
		t.Fatalf("the catalog's tools are no longer than alice's %d characters: auto mode is not tested", threshold)
	}
	token := alice.token(t)
	for _, mode := range []string{"full", "meta", "auto"} {
		env := map[string]string{"MCPSEARCH_LIST_MODE": mode, "MCPSEARCH_META_THRESHOLD_CHARS": fmt.Sprint(threshold)}
		for _, transport := range []string{"http", "lambda"} {
			t.Run(mode+"/"+transport, func(t *testing.T) {
				got, want := hiddenSender(t, full, env, transport, token), hiddenSender(t, without, env, transport, token)
				for _, r := range hiddenRequests {
					if g, w := exchange(t, got, r), exchange(t, want, r); g != w {
						t.Errorf("%s %s:\ngot  %s\nwant %s", r.method, r.params, g, w)
					}
				}
			})
		}
	}
}

// hiddenRequest is one request of the comparison; its params are JSON.
type hiddenRequest struct{ method, params string }

func search(method, query, extra string) hiddenRequest {
	return hiddenRequest{method, fmt.Sprintf(`{"query":%q,"limit":3%s}`, query, extra)}
}

func metaSearch(query string) hiddenRequest {
	return hiddenRequest{"tools/call", fmt.Sprintf(`{"name":"search_tools","arguments":{"query":%q,"limit":3}}`, query)}
}

// hiddenRequests are what alice asks: blue's words, typos of them, words
// of no item, words of items she sees, filters naming blue, calls of
// blue's items, lists and the lifecycle.
var hiddenRequests = []hiddenRequest{
	{"initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`},
	{"server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}`},
	{"tools/list", `{}`}, {"prompts/list", `{}`}, {"resources/list", `{}`}, {"resources/templates/list", `{}`},
	search("tools/search", "quarantine", ""), search("tools/search", "quarantime the host", ""),
	search("tools/search", "quarantine host", ""), search("tools/search", "quixotrelix host", ""),
	search("tools/search", "firewall keys", ""), search("tools/search", "firewal", ""),
	search("tools/search", "rotate the hosts", ""), search("tools/search", "vault status", ""),
	search("tools/search", "firewall of a network", ""), search("tools/search", "rotat the vaul keys of a host", ""),
	search("tools/search", "deploy the service", ""), search("tools/search", "service status", `,"_meta":{"io.github.mcpsearch/explain":true}`),
	search("tools/search", "deploy", `,"filter":{"servers":["blue"]}`),
	search("tools/search", "deploy", `,"filter":{"servers":["blue","common"]}`),
	search("tools/search", "deploy", `,"filter":{"annotations":{"blueLevel":"high"}}`),
	search("tools/search", "select:blue__pid,red__pid,common__pid", ""),
	search("prompts/search", "triage an incident", ""), search("prompts/search", "summarize", ""),
	search("resources/search", "runbook", ""), search("resources/templates/search", "page", ""),
	{"tools/call", `{"name":"blue__pid"}`}, {"tools/call", `{"name":"red__pid"}`},
	{"prompts/get", `{"name":"blue__triage"}`}, {"resources/read", `{"uri":"memo://runbook"}`},
	metaSearch("quarantine host"), metaSearch("quixotrelix host"), metaSearch("firewal"), metaSearch("deploy the service"),
	metaSearch("select:blue__pid,red__pid"), metaSearch("status"),
	{"tools/call", `{"name":"call_tool","arguments":{"name":"blue__pid"}}`},
	{"tools/call", `{"name":"call_tool","arguments":{"name":"red__pid"}}`},
}

// writeHiddenCatalog writes the named servers of the comparison's catalog,
// with the upstream at url: red (the red group's), blue (the blue
// group's, the most tools, words no other server holds and an annotation
// of its own), common and docs (public; docs has no upstream).
func writeHiddenCatalog(t *testing.T, url string, servers ...string) string {
	t.Helper()
	up := fmt.Sprintf(`"upstream":{"transport":"streamable-http","url":%q}`, url)
	tool := func(name, description string) string {
		return fmt.Sprintf(`{"name":%q,"description":%q,"inputSchema":{"type":"object"}}`, name, description)
	}
	pid := tool("pid", "Show the process id of the upstream")
	var blue []string
	for i := range 30 {
		blue = append(blue, fmt.Sprintf(`{"name":"rotate_keys_%d","description":"Rotate the firewall keys of the vault, variant %d","inputSchema":{"type":"object"},"annotations":{"blueLevel":"high"}}`, i, i))
	}
	files := map[string]string{
		"red": `{"server":"red",` + up + `,"visibility":{"groups":["red"]},"tools":[` + pid + `,` +
			tool("deploy_payment_service", "Deploy the payment service to the production cluster") + `]}`,
		"blue": `{"server":"blue",` + up + `,"visibility":{"groups":["blue"]},"tools":[` + pid + `,` +
			tool("quarantine_host", "Quarantine a compromised host behind the firewall") + `,` +
			tool("ship_build", "Deploy a build of a service to staging") + `,` + strings.Join(blue, ",") + `],
			"prompts":[{"name":"triage","description":"Triage an incident on a host"}],
			"resources":[{"uri":"memo://runbook","name":"runbook","description":"The incident runbook"}]}`,
		"common": `{"server":"common",` + up + `,"tools":[` + pid + `,` + tool("service_status", "Show the status of a service") + `,` +
			tool("list_hosts", "List the hosts of a network") + `]}`,
		"docs": `{"server":"docs","tools":[` + tool("read_doc", "Read a documentation page") + `],
			"prompts":[{"name":"summarize","description":"Summarize a documentation page"}],
			"resources":[{"uri":"memo://guide","name":"guide","description":"The user guide"}],
			"resourceTemplates":[{"uriTemplate":"doc://{page}","name":"page","description":"A documentation page by name"}]}`,
	}
	dir := t.TempDir()
	for _, s := range servers {
		if err := os.WriteFile(filepath.Join(dir, s+".json"), []byte(files[s]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// toolsChars is the length of the JSON of the tools the caller in ctx
// sees, as auto mode measures it.
func toolsChars(t *testing.T, idx *index.Index, ctx context.Context) int {
	t.Helper()
	n := 0
	for offset := 0; ; offset += ext.DefaultPageSize {
		page, err := idx.List(ctx, ext.KindTool, offset, ext.DefaultPageSize)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range page.Items {
			n += len(h.Object)
		}
		if !page.More {
			return n
		}
	}
}

// sender sends one JSON-RPC body of method and returns the answer's status
// and body.
type sender func(method, body string) string

// eraHeaders are the headers of a request of method: a server/discover
// request is of the 2026-07-28 era, which states itself in headers too.
func eraHeaders(method string) map[string]string {
	h := map[string]string{"Content-Type": "application/json"}
	if method == "server/discover" {
		h["Mcp-Protocol-Version"], h["Mcp-Method"] = "2026-07-28", method
	}
	return h
}

// hiddenSender serves idx with env in jwt mode, over transport (http or
// lambda), with token.
func hiddenSender(t *testing.T, idx *index.Index, env map[string]string, transport, token string) sender {
	t.Helper()
	all := map[string]string{"MCPSEARCH_AUTH": "jwt", "MCPSEARCH_JWT_HS256_SECRET": visSecret, "MCPSEARCH_JWT_ISSUER": visIssuer,
		"MCPSEARCH_JWT_AUDIENCE": visAudience}
	for k, v := range env {
		all[k] = v
	}
	h, err := newGatewayHandler(t, idx, all)
	if err != nil {
		t.Fatal(err)
	}
	if transport == "lambda" {
		handle := lambdaHandler(h)
		return func(method, body string) string {
			headers := eraHeaders(method)
			headers["Authorization"] = "Bearer " + token
			ev := events.APIGatewayV2HTTPRequest{RawPath: "/mcp", Body: body, Headers: headers}
			ev.RequestContext.HTTP.Method = http.MethodPost
			resp, err := handle(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%d %s", resp.StatusCode, resp.Body)
		}
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return func(method, body string) string {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		for k, v := range eraHeaders(method) {
			req.Header.Set(k, v)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%d %s", resp.StatusCode, b)
	}
}

// exchange sends r, and again with each next cursor (at most five pages),
// and returns the answers with what names the build replaced
// (buildNeutral).
func exchange(t *testing.T, send sender, r hiddenRequest) string {
	t.Helper()
	var params map[string]any
	if err := json.Unmarshal([]byte(r.params), &params); err != nil {
		t.Fatal(err)
	}
	var answers []string
	for range 5 {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": r.method, "params": params})
		answer := send(r.method, string(body))
		status, raw, _ := strings.Cut(answer, " ")
		var msg map[string]any
		if err := json.Unmarshal([]byte(raw), &msg); err != nil {
			return answer
		}
		next, _ := path(msg, "result", "nextCursor").(string)
		neutral, _ := json.Marshal(rankingNeutral(r, buildNeutral(msg)))
		answers = append(answers, status+" "+string(neutral))
		if next == "" {
			break
		}
		params["cursor"] = next
	}
	return strings.Join(answers, "\n")
}

// rankingNeutral keeps, of the items of a search's answer, the name of the
// first: scores and what follows it move with ranking statistics.
func rankingNeutral(r hiddenRequest, msg any) any {
	result, _ := path(msg, "result").(map[string]any)
	switch {
	case result == nil:
	case strings.HasSuffix(r.method, "/search"):
		for _, key := range []string{"tools", "prompts", "resources", "resourceTemplates"} {
			if items, ok := result[key].([]any); ok {
				result[key] = firstName(items)
			}
		}
	case strings.Contains(r.params, `"search_tools"`):
		delete(result, "content") // the text of structuredContent
		if found, ok := result["structuredContent"].(map[string]any); ok {
			items, _ := found["tools"].([]any)
			found["tools"] = firstName(items)
		}
	}
	return msg
}

func firstName(items []any) string {
	if len(items) == 0 {
		return "(none)"
	}
	name, _ := path(items[0], "name").(string)
	return "first " + name
}

// buildNeutral replaces, in v, what names the build rather than what a
// caller sees: the index version, cursors, the build time and the
// bundle's size.
func buildNeutral(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch k {
			case "index", "nextCursor", "builtAt", "bundleBytes":
				v[k] = "(the build's)"
			default:
				v[k] = buildNeutral(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = buildNeutral(e)
		}
	}
	return v
}
