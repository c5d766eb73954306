package main

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestSelectOverGateway: select: in each search method and in
// search_tools answers the named items, once each and in order, and names
// the others in the hint, over HTTP and through the Lambda adapter.
func TestSelectOverGateway(t *testing.T) {
	g := mustGateway(t, nil)
	meta := mustGateway(t, map[string]string{"MCPSEARCH_LIST_MODE": "meta"})
	for name, do := range map[string][2]send{"http": {g.viaHTTP, meta.viaHTTP}, "lambda": {g.viaLambda, meta.viaLambda}} {
		t.Run(name, func(t *testing.T) {
			for _, test := range []struct {
				method, query string
				want          []string
				hint          any
			}{
				{"tools/search", "select: gitlab__whoami, mcp__mcpsearch__gitlab__create_merge_request,nope__x, gitlab__whoami,",
					[]string{"gitlab__whoami", "gitlab__create_merge_request"}, "unknown: nope__x"},
				{"prompts/search", "select:gitlab__review", []string{"gitlab__review"}, nil},
				{"resources/search", "select:memo://readme,memo://notes/1", []string{"readme"}, "unknown: memo://notes/1"},
				{"resources/templates/search", "select:memo://notes/{id}", []string{"note"}, nil},
			} {
				res := wantResult(t, rpc(t, do[0], test.method, map[string]any{"query": test.query}))
				if got := itemNames(res); !reflect.DeepEqual(got, test.want) || path(res, "_meta", ext.MetaHint) != test.hint || res["nextCursor"] != nil {
					t.Errorf("%s %q: got %v hint %v, want %v hint %v and no cursor", test.method, test.query, got, path(res, "_meta", ext.MetaHint), test.want, test.hint)
				}
			}
			res := wantResult(t, rpc(t, do[1], "tools/call", map[string]any{"name": "search_tools",
				"arguments": map[string]any{"query": "select:gitlab__whoami,files__read_file,gitlab__pid"}}))
			if got := itemNames(path(res, "structuredContent").(map[string]any)); !reflect.DeepEqual(got, []string{"gitlab__whoami", "gitlab__pid"}) ||
				path(res, "structuredContent", "hint") != "unknown: files__read_file" {
				t.Errorf("search_tools select: got %v, want whoami and pid, and files__read_file (no upstream) unknown", res["structuredContent"])
			}
		})
	}
}

// lambdaCallAs sends body through the Lambda adapter with a bearer token.
func lambdaCallAs(t *testing.T, h http.Handler, token string, body []byte) map[string]any {
	t.Helper()
	ev := loadEvent(t, "function-url-event.json")
	ev.Body = string(body)
	delete(ev.Headers, "content-length")
	ev.Headers["authorization"] = "Bearer " + token
	resp, err := lambdaHandler(h)(context.Background(), ev)
	if err != nil {
		t.Fatalf("lambdaHandler: %v", err)
	}
	return decodeJSON(t, "Lambda", []byte(resp.Body))
}

// visSenders are the ways each caller of the visibility catalog reaches
// one server: over HTTP and through the Lambda adapter, by "name http"
// and "name lambda".
func visSenders(t *testing.T, env map[string]string) map[string]send {
	idx := mustVisIndex(t)
	url := visServer(t, idx, env)
	base := map[string]string{"MCPSEARCH_AUTH": "jwt", "MCPSEARCH_JWT_HS256_SECRET": visSecret, "MCPSEARCH_JWT_ISSUER": visIssuer, "MCPSEARCH_JWT_AUDIENCE": visAudience}
	for k, v := range env {
		base[k] = v
	}
	h, err := newGatewayHandler(t, idx, base)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]send{}
	for _, c := range visCallers {
		tok := c.token(t)
		out[c.name+" http"] = func(t *testing.T, body []byte) map[string]any {
			var msg struct {
				Method string
				Params any
			}
			json.Unmarshal(body, &msg)
			return client{url, tok}.rpc(t, msg.Method, msg.Params)
		}
		out[c.name+" lambda"] = func(t *testing.T, body []byte) map[string]any { return lambdaCallAs(t, h, tok, body) }
	}
	return out
}

// TestSelectHidden: a hidden name is answered as an unknown one, in the
// same words, and a visible one as it is.
func TestSelectHidden(t *testing.T) {
	query := "select:red__pid,blue__pid,common__rollout,common__runbook,nope__pid,common__pid"
	senders := visSenders(t, nil)
	for _, caller := range visCallers {
		for _, way := range []string{"http", "lambda"} {
			do := senders[caller.name+" "+way]
			t.Run(caller.name+" "+way, func(t *testing.T) {
				res := wantResult(t, rpc(t, do, "tools/search", map[string]any{"query": query}))
				var want, unknown []string
				for _, n := range strings.Split(strings.TrimPrefix(query, "select:"), ",") {
					server, name, _ := strings.Cut(n, "__")
					if tool, ok := visToolNamed(server, name); ok && caller.sees(tool) {
						want = append(want, n)
					} else {
						unknown = append(unknown, n)
					}
				}
				if got := itemNames(res); !reflect.DeepEqual(got, want) || path(res, "_meta", ext.MetaHint) != "unknown: "+strings.Join(unknown, ", ") {
					t.Errorf("got %v hint %v, want %v and unknown: %v", got, path(res, "_meta", ext.MetaHint), want, unknown)
				}
			})
		}
	}
}

// visToolNamed is the tool of the visibility catalog of that server and
// name, if there is one.
func visToolNamed(server, name string) (visTool, bool) {
	for _, tool := range visTools() {
		if tool.server == server && tool.name == name {
			return tool, true
		}
	}
	return visTool{}, false
}

// TestDirectoryPerCaller: initialize, server/discover and search_tools'
// description name the servers the caller sees an item of, and no other,
// each with the words of the tools the caller sees of it (alice sees
// common's public tools only, not its rollout).
func TestDirectoryPerCaller(t *testing.T) {
	senders := visSenders(t, map[string]string{"MCPSEARCH_LIST_MODE": "meta"})
	for _, test := range []struct {
		caller        visCaller
		want, notWant []string
	}{
		{visCallers[0], []string{"(2)", "- red: deploy, payment, service", "- common: service, status"}, []string{"blue", "rollout", "Also: common"}},
		{visCallers[1], []string{"(2)", "- blue: build, ship", "- common: service, status"}, []string{"red"}},
	} {
		for _, way := range []string{"http", "lambda"} {
			do := senders[test.caller.name+" "+way]
			t.Run(test.caller.name+" "+way, func(t *testing.T) {
				texts := map[string]string{}
				texts["initialize"], _ = path(wantResult(t, rpc(t, do, "initialize", map[string]any{"protocolVersion": "2025-11-25",
					"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})), "instructions").(string)
				texts["search_tools"], _ = path(wantResult(t, rpc(t, do, "tools/list", nil)), "tools", 0, "description").(string)
				for where, text := range texts {
					for _, w := range test.want {
						if !strings.Contains(text, w) {
							t.Errorf("%s: want %q in\n%s", where, w, text)
						}
					}
					for _, w := range test.notWant {
						if strings.Contains(text, w) {
							t.Errorf("%s: %q must not show in\n%s", where, w, text)
						}
					}
				}
			})
		}
	}
}

// TestDirectoryInDiscover: server/discover carries the same directory as
// initialize.
func TestDirectoryInDiscover(t *testing.T) {
	g := mustGateway(t, nil)
	init := wantResult(t, rpc(t, g.viaHTTP, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "t", "version": "1"}}))["instructions"].(string)
	body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, g.srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "server/discover")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg map[string]any
	json.NewDecoder(resp.Body).Decode(&msg)
	discover, _ := path(msg, "result", "instructions").(string)
	for _, line := range []string{"- gitlab: ", "- locked: vault"} {
		if !strings.Contains(init, line) {
			t.Errorf("initialize instructions lack %q:\n%s", line, init)
		}
	}
	if discover != init {
		t.Errorf("server/discover instructions:\n%s\nwant those of initialize:\n%s", discover, init)
	}
}

// TestDirectoryBudget: MCPSEARCH_DIRECTORY_CHARS bounds the directory, and
// 0 sends none.
func TestDirectoryBudget(t *testing.T) {
	idx := mustGatewayIndex(t, nil)
	instructions := func(chars string) string {
		h, err := newGatewayHandler(t, idx, map[string]string{"MCPSEARCH_DIRECTORY_CHARS": chars})
		if err != nil {
			t.Fatal(err)
		}
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		text, _ := path(wantResult(t, lambdaCall(t, h, context.Background(), body)), "instructions").(string)
		return text
	}
	full, none, short := instructions(""), instructions("0"), instructions("134")
	if !strings.Contains(full, "- gitlab: ") || strings.Contains(none, "Servers") || !strings.HasPrefix(full, none+"\n\n") {
		t.Errorf("default:\n%s\nnone:\n%s", full, none)
	}
	if dir := strings.TrimPrefix(short, none+"\n\n"); len(dir) > 134 || !strings.Contains(dir, "Also: ") || strings.Contains(full, "Also: ") {
		t.Errorf("134 characters: got %q", dir)
	}
}
