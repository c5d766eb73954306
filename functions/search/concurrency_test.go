package main

import (
	"encoding/json"
	"sync"
	"testing"
)

// TestConcurrentClients: the server answers many clients at once as it
// answers each alone — searches of every kind, list pages, discovery, and
// calls, prompts and reads passed to the upstream (one shared upstream
// client). Under make test-race it also finds unsynchronised state in
// the handler, the upstream pool and the index.
func TestConcurrentClients(t *testing.T) {
	g := mustGateway(t, nil)
	requests := []struct {
		method  string
		params  any
		version string // the Mcp-Protocol-Version header, if any
	}{
		{"tools/search", map[string]any{"query": "open a merge request"}, ""},
		{"tools/search", map[string]any{"query": "create an issue", "_meta": map[string]any{"io.github.mcpsearch/explain": true}}, ""},
		{"prompts/search", map[string]any{"query": "review code"}, ""},
		{"resources/search", map[string]any{"query": "project readme"}, ""},
		{"resources/templates/search", map[string]any{"query": "note by id"}, ""},
		{"tools/list", map[string]any{}, ""},
		{"server/discover", stateless(nil), "2026-07-28"},
		{"tools/search", stateless(map[string]any{"query": "list files"}), "2026-07-28"},
		{"tools/call", map[string]any{"name": "gitlab__create_merge_request", "arguments": map[string]any{"title": "Fix the parser"}}, ""},
		{"tools/call", map[string]any{"name": "gitlab__whoami"}, ""},
		{"prompts/get", map[string]any{"name": "gitlab__review", "arguments": map[string]string{"topic": "the parser"}}, ""},
		{"resources/read", map[string]any{"uri": "memo://notes/42"}, ""},
	}
	answer := func(t *testing.T, i int) string {
		msg := rpc(t, g.withVersion(requests[i].version), requests[i].method, requests[i].params)
		if _, ok := msg["result"]; !ok {
			t.Errorf("%s: got %v, want a result", requests[i].method, msg)
		}
		data, _ := json.Marshal(msg)
		return string(data)
	}
	want := make([]string, len(requests))
	for i := range requests {
		want[i] = answer(t, i)
	}
	const clients = 8
	got := make([][]string, clients)
	var wg sync.WaitGroup
	for c := range clients {
		got[c] = make([]string, len(requests))
		wg.Go(func() {
			for k := range requests {
				i := (k + c*5) % len(requests)
				got[c][i] = answer(t, i)
			}
		})
	}
	wg.Wait()
	for c := range clients {
		for i, r := range requests {
			if got[c][i] != want[i] {
				t.Errorf("client %d, %s: the answer differs from the one given alone:\n got %.300s\nwant %.300s", c, r.method, got[c][i], want[i])
			}
		}
	}
}

// withVersion sends over HTTP with the headers of a stateless request of
// protocol version (Mcp-Protocol-Version, Mcp-Method) when version is
// set.
func (g *gateway) withVersion(version string) send {
	if version == "" {
		return g.viaHTTP
	}
	return func(t *testing.T, body []byte) map[string]any {
		t.Helper()
		var call struct{ Method string }
		if err := json.Unmarshal(body, &call); err != nil {
			t.Fatal(err)
		}
		return g.post(t, body, map[string]string{"Mcp-Protocol-Version": version, "Mcp-Method": call.Method})
	}
}

// stateless returns params with the _meta of a 2026-07-28 request.
func stateless(params map[string]any) map[string]any {
	out := map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "test", "version": "1"}}}
	for k, v := range params {
		out[k] = v
	}
	return out
}
