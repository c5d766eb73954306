package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/upstream"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/testenv/lambdaemu"
)

// TestLambdaGatewayEndToEnd runs the real bootstrap, built with a catalog
// whose server gitlab has an upstream (a test MCP server on 127.0.0.1), in
// meta-tool mode under the runtime API emulator: search_tools then
// call_tool reach the upstream with the credential from the function's
// environment, and a hanging upstream fails before the invocation's
// deadline.
func TestLambdaGatewayEndToEnd(t *testing.T) {
	url := upstreamtest.Start(t)
	catalog := t.TempDir()
	file := upstreamtest.CatalogFile(t, "gitlab", map[string]any{"transport": "streamable-http", "url": url,
		"headers": map[string]string{"Authorization": "Bearer ${GITLAB_TOKEN}"}})
	if err := os.WriteFile(filepath.Join(catalog, "gitlab.json"), file, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := artifact.Build(artifact.Options{Catalog: catalog, Out: t.TempDir(), Arch: runtime.GOARCH, Module: repoRoot})
	if err != nil {
		t.Fatal(err)
	}
	emu, err := lambdaemu.Start(3 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	var stderr bytes.Buffer
	cmd := emu.Command(r.Bootstrap, "MCPSEARCH_AUTH=none", "GITLAB_TOKEN=e2e-token", "MCPSEARCH_LIST_MODE=meta", "MCPSEARCH_UPSTREAM_TIMEOUT=30s")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	defer func() {
		if t.Failed() {
			t.Logf("function stderr:\n%s", stderr.String())
		}
	}()
	const fixture = "function-url-event.json"

	list := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil))
	if tools := list["result"].(map[string]any)["tools"].([]any); len(tools) != 2 {
		t.Errorf("tools/list in meta mode: got %v, want search_tools and call_tool", tools)
	}
	found := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"open a merge request"}}}`, nil))
	if text := found["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string); !strings.Contains(text, `"gitlab__create_merge_request"`) {
		t.Errorf("search_tools: got %s", text)
	}
	called := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"gitlab__whoami"}}}`, nil))
	if text := called["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != upstreamtest.WhoamiText("Bearer e2e-token", upstream.Redacted) {
		t.Errorf("call_tool: got %v", called)
	}

	start := time.Now()
	hung := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"gitlab__hang"}}`, nil))
	e, _ := hung["error"].(map[string]any)
	if elapsed := time.Since(start); e == nil || !strings.Contains(e["message"].(string), `upstream "gitlab": timeout: did not answer`) || elapsed > 3*time.Second {
		t.Errorf("hanging upstream: got %v after %s, want an error naming gitlab before the 3s deadline", hung, elapsed)
	}
}
