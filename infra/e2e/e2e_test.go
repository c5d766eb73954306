package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/infra/testenv/lambdaemu"
)

// event makes an event of the kind of fixture (a recorded Function URL or
// HTTP API v2 event) that carries body, base64-encoded as the fixture is.
func event(t *testing.T, fixture string, body string, headers map[string]string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "functions", "search", "testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	if ev["isBase64Encoded"] == true {
		ev["body"] = base64.StdEncoding.EncodeToString([]byte(body))
	} else {
		ev["body"] = body
	}
	h := ev["headers"].(map[string]any)
	for k, v := range headers {
		h[k] = v
	}
	out, _ := json.Marshal(ev)
	return out
}

// TestLambdaEndToEnd runs the real bootstrap binary under the runtime API
// emulator and invokes it with Function URL and HTTP API v2 events.
func TestLambdaEndToEnd(t *testing.T) {
	t.Parallel()
	_, bin := testArtifact(t)
	emu, err := lambdaemu.Start(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	var stderr bytes.Buffer
	cmd := emu.Command(bin, "MCPSEARCH_AUTH=none") // MCPSEARCH_INDEX unset: the default $LAMBDA_TASK_ROOT/index
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()

	for _, fixture := range []string{"function-url-event.json", "http-api-v2-event.json"} {
		t.Run(fixture, func(t *testing.T) {
			init := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`, nil))
			if caps, _ := init["result"].(map[string]any)["capabilities"].(map[string]any); caps["tools"].(map[string]any)["search"] != true {
				t.Errorf("initialize: got %v", init)
			}
			search := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":2,"method":"tools/search","params":{"query":"weather forecast for a city"}}`, map[string]string{"mcp-protocol-version": "2025-11-25"}))
			tools := search["result"].(map[string]any)["tools"].([]any)
			if first := tools[0].(map[string]any)["name"]; first != "weather__get_forecast" {
				t.Errorf("tools/search: got %v first, want weather__get_forecast", first)
			}
			list := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, nil))
			if n := len(list["result"].(map[string]any)["tools"].([]any)); n != 6 {
				t.Errorf("tools/list: got %d tools, want the 6 of the catalog", n)
			}
			bad := invoke(t, emu, event(t, fixture, `{"jsonrpc":"2.0","id":4,"method":"tools/search","params":{"query":""}}`, nil))
			if e, _ := bad["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
				t.Errorf("bad params: got %v, want -32602 in a 200 body", bad)
			}
		})
	}
	if t.Failed() {
		t.Logf("function stderr:\n%s", stderr.String())
	}
}

// invoke sends an event and returns the JSON-RPC message of the HTTP
// response the function answered with, checking it is a 200 JSON answer.
func invoke(t *testing.T, emu *lambdaemu.Emulator, ev []byte) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	payload, err := emu.Invoke(ctx, ev)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var resp struct {
		StatusCode      int               `json:"statusCode"`
		Headers         map[string]string `json:"headers"`
		Body            string            `json:"body"`
		IsBase64Encoded bool              `json:"isBase64Encoded"`
	}
	if err := json.Unmarshal(payload, &resp); err != nil {
		t.Fatalf("payload %s: %v", payload, err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Headers["Content-Type"], "application/json") {
		t.Fatalf("got status %d, headers %v, body %s", resp.StatusCode, resp.Headers, resp.Body)
	}
	var msg map[string]any
	if err := json.Unmarshal([]byte(resp.Body), &msg); err != nil {
		t.Fatalf("body %q: %v", resp.Body, err)
	}
	return msg
}

// TestLambdaRefusesToStart: a function whose bundle does not open
// (missing, or whose segment's footer has a damaged count of documents,
// which made the first search allocate terabytes: a fault of the
// process), whose authentication mode is not chosen or not one of the
// modes (white space included), or whose configuration fails against the
// index, exits with the reason on stderr and reports it to the runtime API
// instead of serving.
func TestLambdaRefusesToStart(t *testing.T) {
	t.Parallel()
	root, bin := testArtifact(t)
	for _, test := range []struct {
		name string
		env  []string
		want string
	}{
		{"missing bundle", []string{"MCPSEARCH_AUTH=none", "MCPSEARCH_INDEX=" + filepath.Join(root, "missing")}, "does not exist"},
		{"damaged segment", []string{"MCPSEARCH_AUTH=none", "MCPSEARCH_INDEX=" + damagedSegmentCopy(t, filepath.Join(root, "index"))}, "the manifest counts"},
		{"auth mode unset", []string{"MCPSEARCH_AUTH="}, "MCPSEARCH_AUTH is not set"},
		{"auth mode blank", []string{"MCPSEARCH_AUTH= "}, "MCPSEARCH_AUTH is not set"},
		{"auth mode padded", []string{"MCPSEARCH_AUTH=none\n"}, `MCPSEARCH_AUTH="none\n": white space around the value (want none, bearer, jwt or aws)`},
		{"auth mode unknown", []string{"MCPSEARCH_AUTH=bogus"}, `MCPSEARCH_AUTH="bogus": want none, bearer, jwt or aws`},
		{"always-listed tool unknown to the index", []string{"MCPSEARCH_AUTH=none", "MCPSEARCH_LIST_MODE=meta", "MCPSEARCH_ALWAYS_TOOLS=nobody__nothing"},
			`"nobody__nothing" is not in the catalog`},
	} {
		t.Run(test.name, func(t *testing.T) { checkRefusedStart(t, bin, test.env, test.want) })
	}
}

// damagedSegmentCopy copies the bundle at dir and flips the highest byte
// of the count of documents in its segment's footer (zap v16's footer is
// 52 bytes, the count first), and returns the copy.
func damagedSegmentCopy(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "bundle")
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dst, "bleve", "segment.zap")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-52] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func checkRefusedStart(t *testing.T, bin string, env []string, want string) {
	t.Helper()
	emu, err := lambdaemu.Start(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	var stderr bytes.Buffer
	cmd := emu.Command(bin, env...)
	cmd.Stderr = &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		logged, _ := json.Marshal(want) // the log is JSON: want as a JSON string holds it
		if err == nil || !strings.Contains(stderr.String(), string(logged[1:len(logged)-1])) {
			t.Errorf("exit %v, stderr %s: want a failure saying %q", err, stderr.String(), want)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the function kept running")
	}
	// The runtime API was told why: an invocation fails with the reason
	// (without the report it would wait for a function that is gone).
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var fe *lambdaemu.FunctionError
	if _, err := emu.Invoke(ctx, []byte(`{}`)); !errors.As(err, &fe) || !strings.Contains(fe.Message, want) {
		t.Errorf("invoke after a failed start: got %v, want the init error %q", err, want)
	}
}
