package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequestsAreNeverSent: the requests written for an item are evidence
// for the index only: tools/list, tools/search (explained or not), meta
// mode's search_tools and select: answers carry the item as its upstream
// listed it, other _meta kept, and no word of its requests.
func TestRequestsAreNeverSent(t *testing.T) {
	dir := writeTestCatalog(t)
	file := `{"server":"notes","tools":[{"name":"jot","description":"Save a short text","inputSchema":{"type":"object"},
		"_meta":{"io.github.mcpsearch/requests":["remember zanzibarite for later","keep a memo zanzibarite"],"vendor/x":1}}]}`
	if err := os.WriteFile(filepath.Join(dir, "notes.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	idx := mustOpenCatalog(t, dir)
	for _, mode := range []string{"full", "meta"} {
		h, err := newHandler(mustConfig(t, map[string]string{"MCPSEARCH_LIST_MODE": mode}), idx, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		do := func(method string, params any) string {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
			out, _ := json.Marshal(lambdaCall(t, h, context.Background(), body))
			return string(out)
		}
		answers := map[string]string{
			"tools/list":   do("tools/list", map[string]any{}),
			"tools/search": do("tools/search", map[string]any{"query": "save a short text", "_meta": map[string]any{"io.github.mcpsearch/explain": true}}),
			"select:":      do("tools/search", map[string]any{"query": "select:notes__jot"}),
			"search_tools": do("tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": "save a short text"}}),
		}
		for name, answer := range answers {
			if strings.Contains(answer, "zanzibarite") || strings.Contains(answer, "io.github.mcpsearch/requests") {
				t.Errorf("%s mode, %s: the answer carries the requests: %s", mode, name, answer)
			}
		}
		if a := answers["tools/search"]; !strings.Contains(a, "notes__jot") || !strings.Contains(a, "vendor/x") {
			t.Errorf("%s mode, tools/search: %s, want notes__jot with its other _meta", mode, a)
		}
	}
}
