package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
	"github.com/mcpsearch/mcpsearch/index"
)

// gateway serves a catalog of: gitlab (the test upstream, over streamable
// HTTP, with a bearer token from the environment and one tool the upstream
// no longer has), locked (an upstream whose token variable is unset), and
// the servers of testCatalog, which have no upstream.
type gateway struct {
	h   http.Handler
	srv *httptest.Server
	idx *index.Index
}

// gatewayEnv is the environment every gateway test starts from: the
// credential of the gitlab upstream.
var gatewayEnv = map[string]string{"MCPSEARCH_TEST_GITLAB_TOKEN": "tok-123"}

func mustGateway(t testing.TB, env map[string]string) *gateway {
	t.Helper()
	idx := mustGatewayIndex(t, nil)
	h, err := newGatewayHandler(t, idx, env)
	if err != nil {
		t.Fatal(err)
	}
	g := &gateway{h: h, srv: httptest.NewServer(h), idx: idx}
	t.Cleanup(g.srv.Close)
	return g
}

// newGatewayHandler serves idx with the configuration of gatewayEnv and
// env, whose variables also serve as the upstreams' credentials.
func newGatewayHandler(t testing.TB, idx *index.Index, env map[string]string) (http.Handler, error) {
	t.Helper()
	return newGatewayHandlerLogging(t, idx, env, quiet)
}

func newGatewayHandlerLogging(t testing.TB, idx *index.Index, env map[string]string, logger *slog.Logger) (http.Handler, error) {
	t.Helper()
	all := maps.Clone(gatewayEnv)
	maps.Copy(all, env)
	cfg, err := configFrom(all)
	if err != nil {
		return nil, err
	}
	return newHandler(cfg, idx, logger)
}

// mustGatewayIndex builds and opens the gateway catalog, plus extra files.
func mustGatewayIndex(t testing.TB, extra map[string]string) *index.Index {
	t.Helper()
	url := upstreamtest.Start(t)
	dir := writeTestCatalog(t)
	files := map[string][]byte{
		"gitlab.json": upstreamtest.CatalogFile(t, "gitlab", map[string]any{"transport": "streamable-http", "url": url,
			"headers": map[string]string{"Authorization": "Bearer ${MCPSEARCH_TEST_GITLAB_TOKEN}"}}, "vanished"),
		"locked.json": []byte(fmt.Sprintf(`{"server":"locked","upstream":{"transport":"streamable-http","url":%q,
			"headers":{"Authorization":"Bearer ${MCPSEARCH_TEST_UNSET_TOKEN}"}},
			"tools":[{"name":"open_vault","description":"Open the vault","inputSchema":{"type":"object"}}]}`, url)),
	}
	for name, data := range extra {
		files[name] = []byte(data)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mustOpenCatalog(t, dir)
}

// send delivers one JSON-RPC message and returns the decoded answer.
type send func(t *testing.T, body []byte) map[string]any

func (g *gateway) viaHTTP(t *testing.T, body []byte) map[string]any {
	t.Helper()
	return g.post(t, body, nil)
}

// post sends body to the gateway's endpoint with headers, and returns the
// decoded answer.
func (g *gateway) post(t *testing.T, body []byte, headers map[string]string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, g.srv.URL+"/mcp", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatalf("answer to %s: %v", body, err)
	}
	return msg
}

func (g *gateway) viaLambda(t *testing.T, body []byte) map[string]any {
	t.Helper()
	return lambdaCall(t, g.h, context.Background(), body)
}

func lambdaCall(t *testing.T, h http.Handler, ctx context.Context, body []byte) map[string]any {
	t.Helper()
	ev := loadEvent(t, "function-url-event.json")
	ev.Body = string(body)
	delete(ev.Headers, "content-length")
	resp, err := lambdaHandler(h)(ctx, ev)
	if err != nil {
		t.Fatalf("lambdaHandler: %v", err)
	}
	return decodeJSON(t, "Lambda", []byte(resp.Body))
}

func rpc(t *testing.T, do send, method string, params any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	return do(t, body)
}

// wantResult fails unless msg is a result, and returns it.
func wantResult(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	r, ok := msg["result"].(map[string]any)
	if !ok {
		t.Fatalf("got %v, want a result", msg)
	}
	return r
}

// wantError fails unless msg is an error with code, and returns its message.
func wantError(t *testing.T, msg map[string]any, code int) string {
	t.Helper()
	if got := path(msg, "error", "code"); got != float64(code) {
		t.Fatalf("got %v, want error code %d", msg, code)
	}
	s, _ := path(msg, "error", "message").(string)
	return s
}

func toolNames(t *testing.T, msg map[string]any) []string {
	t.Helper()
	var names []string
	for _, tool := range path(wantResult(t, msg), "tools").([]any) {
		names = append(names, path(tool, "name").(string))
	}
	return names
}
