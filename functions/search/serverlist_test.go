package main

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

// openWithDamagedServerList builds testCatalog, overwrites the bundle's
// list of servers with as many bytes that are not JSON (its size, which
// Open checks, holds), and opens it.
func openWithDamagedServerList(t *testing.T) *index.Index {
	t.Helper()
	dir := mustBuildBundle(t, writeTestCatalog(t))
	path := filepath.Join(dir, index.ServersFile)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Repeat([]byte{'#'}, int(st.Size())), 0o644); err != nil {
		t.Fatal(err)
	}
	return mustOpenBundle(t, dir)
}

// TestFirstSearchReadsNoServerList: the function starts (list mode full,
// the default) and answers its first tools/search, through Lambda and over
// HTTP, without reading the bundle's list of servers, which a cold start
// at 100,000 tools spent 5–7 ms decoding before its first answer: with
// the list damaged, both succeed. initialize, whose capability describes
// the servers, is the first to need it, and fails with -32603 and a log
// line naming the file.
func TestFirstSearchReadsNoServerList(t *testing.T) {
	logs := &syncBuffer{}
	h, err := newHandler(mustConfig(t, nil), openWithDamagedServerList(t), slog.New(slog.NewJSONHandler(logs, nil)))
	if err != nil {
		t.Fatalf("start: %v, want the damaged list unread", err)
	}
	g := &gateway{h: h, srv: httptest.NewServer(h)}
	t.Cleanup(g.srv.Close)
	viaLambda := func(t *testing.T, body []byte) map[string]any { return lambdaCall(t, h, context.Background(), body) }
	for name, do := range map[string]send{"Lambda": viaLambda, "HTTP": g.viaHTTP} {
		r := rpc(t, do, "tools/search", map[string]any{"query": "take a screenshot"})
		result, _ := r["result"].(map[string]any)
		if tools, _ := result["tools"].([]any); len(tools) == 0 {
			t.Errorf("%s: first tools/search answered %v, want tools", name, r)
		}
	}
	r := rpc(t, g.viaHTTP, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	rpcErr, _ := r["error"].(map[string]any)
	if code, _ := rpcErr["code"].(float64); code != -32603 {
		t.Errorf("initialize answered %v, want -32603", r)
	}
	if !strings.Contains(logs.String(), index.ServersFile+" does not have the SHA-256 the manifest records") {
		t.Errorf("logs %s, want the damaged %s named", logs.String(), index.ServersFile)
	}
}

// TestMetaModeReadsServerListAtStart: in list mode meta the start needs
// the servers (whether call_tool is offered), so a damaged list refuses
// the start, naming the file.
func TestMetaModeReadsServerListAtStart(t *testing.T) {
	_, err := newHandler(mustConfig(t, map[string]string{"MCPSEARCH_LIST_MODE": "meta"}), openWithDamagedServerList(t), quiet)
	if err == nil || !strings.Contains(err.Error(), index.ServersFile) {
		t.Errorf("got %v, want the start refused, naming %s", err, index.ServersFile)
	}
}
