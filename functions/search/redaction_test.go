package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// TestMain doubles as a stdio upstream: started with UPSTREAMTEST_MODE
// set, the test binary serves on stdin and stdout (see upstreamtest).
func TestMain(m *testing.M) {
	upstreamtest.ServeStdioIfAsked()
	os.Exit(m.Run())
}

// testSecret is the value of MCPSEARCH_TEST_SECRET: every upstream of
// TestSecretsNeverLeave puts it in its configuration.
const testSecret = "Sup3r-S3cret_4b9e1d"

// leakyServer is the catalog file of a server whose one tool, prompt and
// resource fail at upstream, which holds the secret as configured.
func leakyServer(name string, up map[string]any) string {
	file := map[string]any{"server": name, "upstream": up,
		"tools":     []any{map[string]any{"name": "leak", "description": "Fail with a secret", "inputSchema": map[string]any{"type": "object"}}},
		"prompts":   []any{map[string]any{"name": "leak", "description": "Fail with a secret"}},
		"resources": []any{map[string]any{"uri": "memo://" + name + "/leak", "name": "leak"}},
	}
	out, _ := json.Marshal(file)
	return string(out)
}

// TestSecretsNeverLeave: with the secret in every field a ${VAR} may be in
// (url, headers, command, args, env), over streamable HTTP and stdio, no
// failure of tools/call, prompts/get, resources/read or meta mode's
// call_tool puts it in the answer or in the server's log; each answer names
// the upstream and the kind of failure.
func TestSecretsNeverLeave(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	httpUp := secretHTTPUpstream
	stdioUp := func(mode string) map[string]any { return secretStdioUpstream(exe, mode) }
	servers := map[string]struct {
		up   map[string]any
		kind ext.UpstreamFailure
	}{
		"httpdown":     {httpUp("http://127.0.0.1:1/mcp"), ext.UpstreamUnreachable},
		"httpecho":     {httpUp(upstreamtest.StartScripted(t, "echo", http.StatusOK)), ext.UpstreamAnsweredError},
		"http500":      {httpUp(upstreamtest.StartScripted(t, "echo", http.StatusInternalServerError)), ext.UpstreamAnsweredError},
		"stdiomissing": {map[string]any{"transport": "stdio", "command": "/nonexistent/${MCPSEARCH_TEST_SECRET}/server"}, ext.UpstreamUnreachable},
		"stdioecho":    {stdioUp("echo"), ext.UpstreamAnsweredError},
		"stdiodies":    {stdioUp("die"), ext.UpstreamUnreachable},
	}
	files := map[string]string{}
	for name, s := range servers {
		files[name+".json"] = leakyServer(name, s.up)
	}
	idx := mustGatewayIndex(t, files)
	var logs syncBuffer
	h, err := newGatewayHandlerLogging(t, idx, map[string]string{"MCPSEARCH_TEST_SECRET": testSecret, "MCPSEARCH_LIST_MODE": "meta"},
		slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	defer h.(io.Closer).Close() // ends the stdio upstreams
	srv := httptest.NewServer(h)
	defer srv.Close()

	for name, s := range servers {
		for _, req := range []struct{ method, key, value string }{
			{"tools/call", "name", name + "__leak"},
			{"prompts/get", "name", name + "__leak"},
			{"resources/read", "uri", "memo://" + name + "/leak"},
		} {
			raw, msg := postRaw(t, srv.URL, req.method, map[string]any{req.key: req.value})
			checkFailure(t, name+" "+req.method, raw, wantError(t, msg, ext.CodeUpstreamError), name, s.kind)
		}
		raw, msg := postRaw(t, srv.URL, "tools/call", map[string]any{"name": "call_tool", "arguments": map[string]any{"name": name + "__leak"}})
		res := wantResult(t, msg)
		text, _ := path(res, "content", 0, "text").(string)
		if path(res, "isError") != true {
			t.Errorf("%s call_tool: got %v, want an isError result", name, res)
		}
		checkFailure(t, name+" call_tool", raw, text, name, s.kind)
	}
	if strings.Contains(logs.String(), testSecret) {
		t.Errorf("the server log holds the secret:\n%s", logs.String())
	}
	if n := strings.Count(logs.String(), "upstream call failed"); n < 4*len(servers) {
		t.Errorf("got %d logged upstream failures, want one a call (%d): the log was not captured", n, 4*len(servers))
	}
	if !strings.Contains(logs.String(), upstreamtest.DieMarker) {
		t.Errorf("the log does not hold the stderr of the stdio upstream that died")
	}
}

// checkFailure checks one failed call's answer: raw holds no secret, the
// message names the upstream and the kind of failure.
func checkFailure(t *testing.T, what string, raw []byte, msg, server string, kind ext.UpstreamFailure) {
	t.Helper()
	if strings.Contains(string(raw), testSecret) {
		t.Errorf("%s: the answer holds the secret: %s", what, raw)
	}
	if want := fmt.Sprintf("upstream %q: %s", server, kind); !strings.HasPrefix(msg, want) {
		t.Errorf("%s: got %q, want it to start with %q", what, msg, want)
	}
}

// postRaw sends one JSON-RPC request and returns the answer's bytes and
// the decoded answer.
func postRaw(t *testing.T, url, method string, params any) ([]byte, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	resp, err := http.Post(url+"/mcp", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return raw, decodeJSON(t, method, raw)
}

// TestUpstreamMaxBytes: MCPSEARCH_UPSTREAM_MAX_BYTES bounds a forwarded
// answer, which past it is -32010 naming the limit; a bad value stops the
// server at start.
func TestUpstreamMaxBytes(t *testing.T) {
	g := mustGateway(t, map[string]string{"MCPSEARCH_UPSTREAM_MAX_BYTES": "2000"})
	msg := wantError(t, rpc(t, g.viaHTTP, "tools/call", map[string]any{"name": "gitlab__create_merge_request",
		"arguments": map[string]any{"title": strings.Repeat("x", 2000)}}), ext.CodeUpstreamError)
	if want := `upstream "gitlab": result too large: the answer is larger than the limit of 2000 bytes`; msg != want {
		t.Errorf("got %q, want %q", msg, want)
	}
	wantResult(t, rpc(t, g.viaHTTP, "tools/call", map[string]any{"name": "gitlab__create_merge_request",
		"arguments": map[string]any{"title": "short"}}))
	for _, bad := range []string{"0", "-1", "3MB", "1e6"} {
		if _, err := newGatewayHandler(t, g.idx, map[string]string{"MCPSEARCH_UPSTREAM_MAX_BYTES": bad}); err == nil || !strings.Contains(err.Error(), "MCPSEARCH_UPSTREAM_MAX_BYTES") {
			t.Errorf("MCPSEARCH_UPSTREAM_MAX_BYTES=%q: got %v, want an error naming the variable", bad, err)
		}
	}
}

// secretHTTPUpstream is a streamable HTTP upstream at url whose URL and
// Authorization header carry ${MCPSEARCH_TEST_SECRET}.
func secretHTTPUpstream(url string) map[string]any {
	return map[string]any{"transport": "streamable-http", "url": url + "?api_key=${MCPSEARCH_TEST_SECRET}",
		"headers": map[string]string{"Authorization": "Bearer ${MCPSEARCH_TEST_SECRET}"}}
}

// secretStdioUpstream runs exe (this test binary) as a stdio upstream in
// the scripted mode, with ${MCPSEARCH_TEST_SECRET} in its arguments and
// its environment, which it repeats.
func secretStdioUpstream(exe, mode string) map[string]any {
	return map[string]any{"transport": "stdio", "command": exe, "args": []string{"--api-key=${MCPSEARCH_TEST_SECRET}"},
		"env": map[string]string{upstreamtest.ModeEnv: mode, upstreamtest.EchoEnv: "${MCPSEARCH_TEST_SECRET}"}}
}
