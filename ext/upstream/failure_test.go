package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// secret is the value of SECRET in these tests: it must reach upstreams
// and no error.
const secret = "Sup3r-S3cret_7f2a9c"

func testExe(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestFailures: each way a call fails gives its kind and one clean cause,
// with the secret redacted wherever the configuration put it.
func TestFailures(t *testing.T) {
	exe := testExe(t)
	echo, status500 := upstreamtest.StartScripted(t, "echo", http.StatusOK), upstreamtest.StartScripted(t, "echo", http.StatusInternalServerError)
	withSecret := func(url string) map[string]any {
		return map[string]any{"transport": "streamable-http", "url": url + "?api_key=${SECRET}",
			"headers": map[string]string{"Authorization": "Bearer ${SECRET}"}}
	}
	stdio := func(mode string) map[string]any {
		return map[string]any{"transport": "stdio", "command": exe, "args": []string{"--api-key=${SECRET}"},
			"env": map[string]string{upstreamtest.ModeEnv: mode, upstreamtest.EchoEnv: "${SECRET}"}}
	}
	for _, test := range []struct {
		name         string
		upstream     map[string]any
		kind         ext.UpstreamFailure
		detail, said string // what Detail is, what Said holds
	}{
		{"connection refused", withSecret("http://127.0.0.1:1/mcp"), ext.UpstreamUnreachable, "cannot connect: connection refused", ""},
		{"JSON-RPC error", withSecret(echo), ext.UpstreamAnsweredError, "JSON-RPC error -32603 (internal error)",
			"its message: refused; I was given /mcp?api_key=" + Redacted + " with Authorization: " + Redacted},
		{"HTTP 500", withSecret(status500), ext.UpstreamAnsweredError, "HTTP 500", "it said: refused; I was given /mcp?api_key=" + Redacted},
		{"command not found", map[string]any{"transport": "stdio", "command": "mcpsearch-no-such-command-${SECRET}"},
			ext.UpstreamUnreachable, "cannot start the command: executable file not found in $PATH", ""},
		{"no such file", map[string]any{"transport": "stdio", "command": "/nonexistent/${SECRET}/server"},
			ext.UpstreamUnreachable, "cannot start the command: no such file or directory", ""},
		{"stdio JSON-RPC error", stdio("echo"), ext.UpstreamAnsweredError, "JSON-RPC error -32603 (internal error)",
			"its message: refused; I was given args: --api-key=" + Redacted + " echo: " + Redacted},
		{"stdio dies at start", stdio("die"), ext.UpstreamUnreachable, "the process exited (exit status 3)", "its stderr ends:\n" +
			upstreamtest.DieMarker + "\nargs: --api-key=" + Redacted + "\necho: " + Redacted + "\nnpm error 404 Not Found"},
		{"unset variable", map[string]any{"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp?k=${UNSET}"},
			ext.UpstreamMissingCredential, "environment variable UNSET, used in upstream url, is not set on this server", ""},
		{"bad configuration", map[string]any{"transport": "sse", "url": "http://127.0.0.1:1/mcp"},
			ext.UpstreamMisconfigured, `catalog upstream: transport "sse" is not "streamable-http" or "stdio": the gateway calls no other transport`, ""},
	} {
		t.Run(test.name, func(t *testing.T) {
			c := New(&Options{AllowStdio: true, Getenv: env(map[string]string{"SECRET": secret})})
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := c.Call(ctx, target(test.upstream, "leak"), "tools/call", json.RawMessage(`{}`))
			var ue *ext.UpstreamError
			if !errors.As(err, &ue) || ue.Kind != test.kind {
				t.Fatalf("got %v, want an upstream error of kind %q", err, test.kind)
			}
			if ue.Detail != test.detail {
				t.Errorf("detail: got %q, want %q", ue.Detail, test.detail)
			}
			if !strings.HasPrefix(ue.Said, test.said) || (test.said == "") != (ue.Said == "") {
				t.Errorf("said: got %q, want it to start with %q", ue.Said, test.said)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "failed to send request") {
				t.Errorf("got %q: a secret, or mcp-go's layers", err)
			}
		})
	}
	refused := New(&Options{Getenv: env(map[string]string{"SECRET": secret})})
	_, err := refused.Call(context.Background(), target(stdio("serve"), "pid"), "tools/call", json.RawMessage(`{}`))
	if ue := (*ext.UpstreamError)(nil); !errors.As(err, &ue) || ue.Kind != ext.UpstreamUnavailable {
		t.Errorf("stdio outside the local server: got %v, want kind %q", err, ext.UpstreamUnavailable)
	}
}

// TestRedact: every spelling of a value is replaced, the longest value
// first; short values are left.
func TestRedact(t *testing.T) {
	cfg := &Config{Upstream: catalog.Upstream{URL: "https://${HOST}/mcp?key=${KEY}", Headers: map[string]string{"X-Static": "literal-token"},
		Env: map[string]string{"FLAG": "${FLAG}"}}}
	live, err := cfg.Expand(env(map[string]string{"HOST": "h.example", "KEY": `k e"y&/é`, "FLAG": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		`Post "https://h.example/mcp?key=k e\"y&/é": EOF`:  `Post "https://` + Redacted + `/mcp?key=` + Redacted + `": EOF`,
		`key=k+e%22y%26%2F%C3%A9 path k%20e%22y&%2F%C3%A9`: `key=` + Redacted + ` path ` + Redacted,
		`{"msg":"k e\"y\u0026/é"} and "k e\"y&/\u00e9"`:    `{"msg":"` + Redacted + `"} and "` + Redacted + `"`,
		"header literal-token, exit status 1":              "header " + Redacted + ", exit status 1",
	} {
		if got := live.Redact(in); got != want {
			t.Errorf("Redact(%s):\ngot  %s\nwant %s", in, got, want)
		}
	}
	if got := cfg.Redact("literal-token"); got != "literal-token" {
		t.Errorf("an unexpanded config redacted %q", got)
	}
}

// TestResultLimit: an upstream answering more than the limit fails the
// call naming the limit, over HTTP and over stdio, having read little
// more than the limit; a result that grows past the limit when passed on
// (JSON escaping) is refused too.
func TestResultLimit(t *testing.T) {
	const limit = 1 << 20
	http := map[string]any{"transport": "streamable-http", "url": upstreamtest.StartScripted(t, "big", 200)}
	stdio := map[string]any{"transport": "stdio", "command": testExe(t), "env": map[string]string{upstreamtest.ModeEnv: "big"}}
	for name, up := range map[string]map[string]any{"http": http, "stdio": stdio} {
		t.Run(name, func(t *testing.T) {
			c := New(&Options{AllowStdio: true, MaxResultBytes: limit})
			defer c.Close()
			alloc, err := measureCall(t, c, up)
			var ue *ext.UpstreamError
			if !errors.As(err, &ue) || ue.Kind != ext.UpstreamTooLarge || !strings.Contains(ue.Detail, "limit of 1048576 bytes") {
				t.Fatalf("got %v, want %q naming the limit", err, ext.UpstreamTooLarge)
			}
			t.Logf("a %d MB answer, limit %d bytes: %.1f MB allocated", upstreamtest.BigBytes>>20, limit, float64(alloc)/1e6)
			if alloc > 8*limit {
				t.Errorf("the call allocated %d bytes, want at most %d (8× the limit): the answer was read whole", alloc, 8*limit)
			}
		})
	}
	t.Run("escaping", func(t *testing.T) {
		// What is read fits; passed on, each '<' is escaped to 6 bytes.
		c := New(&Options{MaxResultBytes: 2 * upstreamtest.AngleCount})
		up := map[string]any{"transport": "streamable-http", "url": upstreamtest.StartScripted(t, "angles", 200)}
		_, err := c.Call(context.Background(), target(up, "angles"), "tools/call", json.RawMessage(`{}`))
		if ue := (*ext.UpstreamError)(nil); !errors.As(err, &ue) || ue.Kind != ext.UpstreamTooLarge {
			t.Errorf("got %v, want %q", err, ext.UpstreamTooLarge)
		}
		c = New(&Options{MaxResultBytes: 7 * upstreamtest.AngleCount})
		if _, err := c.Call(context.Background(), target(up, "angles"), "tools/call", json.RawMessage(`{}`)); err != nil {
			t.Errorf("with room for the escaped result: got %v", err)
		}
	})
}

// measureCall calls the tool big of up and returns the bytes allocated
// meanwhile and the error.
func measureCall(t *testing.T, c *Caller, up map[string]any) (uint64, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.Call(ctx, target(up, "big"), "tools/call", json.RawMessage(`{}`))
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}
