package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/upstream"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// basicCredential is the value of MCPSEARCH_TEST_BASIC: an HTTP Basic
// credential whose password is testSecret.
var basicCredential = base64.StdEncoding.EncodeToString([]byte("deploy:" + testSecret))

// formsCase is a server of TestTransformedSecretsNeverLeave and what its
// calls must answer: an error message, or (want empty) a result.
type formsCase struct {
	up   map[string]any
	want string
}

// TestTransformedSecretsNeverLeave: upstreams that repeat their
// credential upper-cased, base64 or hex encoded, truncated, reversed,
// spaced out and, for a Basic credential, decoded — in a JSON-RPC error,
// an HTTP error body, or a successful tool result with isError set — get
// no form of it to the client (tools/call, prompts/get, resources/read,
// call_tool; over HTTP and through the Lambda adapter, which answer
// alike) nor to the log. A failure's answer and the default (info) log
// say the kind and code only; what the upstream said is logged at debug
// level, redacted.
func TestTransformedSecretsNeverLeave(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bearer := secretHTTPUpstream
	basic := func(url string) map[string]any {
		return map[string]any{"transport": "streamable-http", "url": url, "headers": map[string]string{"Authorization": "Basic ${MCPSEARCH_TEST_BASIC}"}}
	}
	stdio := func(mode string) map[string]any { return secretStdioUpstream(exe, mode) }
	const internal = "upstream error: JSON-RPC error -32603 (internal error)"
	servers := map[string]formsCase{
		"formshttp":  {bearer(upstreamtest.StartScripted(t, "forms", http.StatusOK)), internal},
		"formsbasic": {basic(upstreamtest.StartScripted(t, "forms", http.StatusOK)), internal},
		"forms500":   {bearer(upstreamtest.StartScripted(t, "forms", http.StatusInternalServerError)), "upstream error: HTTP 500"},
		"formsstdio": {stdio("forms"), internal},
		"leakhttp":   {bearer(upstreamtest.StartScripted(t, "leak", http.StatusOK)), ""},
		"leakbasic":  {basic(upstreamtest.StartScripted(t, "leak", http.StatusOK)), ""},
		"leakstdio":  {stdio("leak"), ""},
	}
	files := map[string]string{}
	for name, s := range servers {
		files[name+".json"] = leakyServer(name, s.up)
	}
	idx := mustGatewayIndex(t, files)
	var info, debug syncBuffer
	logger := slog.New(teeHandler{slog.NewJSONHandler(&info, nil), slog.NewJSONHandler(&debug, &slog.HandlerOptions{Level: slog.LevelDebug})})
	h, err := newGatewayHandlerLogging(t, idx, map[string]string{"MCPSEARCH_TEST_SECRET": testSecret,
		"MCPSEARCH_TEST_BASIC": basicCredential, "MCPSEARCH_LIST_MODE": "meta"}, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer h.(io.Closer).Close() // ends the stdio upstreams
	g := &gateway{h: h, srv: httptest.NewServer(h), idx: idx}
	defer g.srv.Close()

	for name, s := range servers {
		for _, req := range formsRequests(name) {
			viaHTTP := rpc(t, g.viaHTTP, req.method, req.params)
			viaLambda := rpc(t, g.viaLambda, req.method, req.params)
			what := name + " " + req.method + " " + fmt.Sprint(req.params["name"])
			if !reflect.DeepEqual(viaHTTP, viaLambda) {
				t.Errorf("%s: over HTTP %v, through Lambda %v: want the same answer", what, viaHTTP, viaLambda)
			}
			checkNoForm(t, what, viaHTTP)
			checkFormsAnswer(t, what, viaHTTP, name, s.want, req.params["name"] == "call_tool")
		}
	}
	checkFormsLogs(t, info.String(), debug.String())
}

// formsRequests are the calls of TestTransformedSecretsNeverLeave to the
// items of server.
func formsRequests(server string) []struct {
	method string
	params map[string]any
} {
	return []struct {
		method string
		params map[string]any
	}{
		{"tools/call", map[string]any{"name": server + "__leak"}},
		{"prompts/get", map[string]any{"name": server + "__leak"}},
		{"resources/read", map[string]any{"uri": "memo://" + server + "/leak"}},
		{"tools/call", map[string]any{"name": "call_tool", "arguments": map[string]any{"name": server + "__leak"}}},
	}
}

// checkNoForm fails if any string of answer, decoded, holds a form of the
// secret or of the Basic credential.
func checkNoForm(t *testing.T, what string, answer any) {
	t.Helper()
	for _, s := range stringsOf(answer) {
		if leaks := append(upstreamtest.Leaks(s, testSecret), upstreamtest.Leaks(s, basicCredential)...); len(leaks) > 0 {
			t.Errorf("%s: the answer holds the secret %v in %q", what, leaks, s)
		}
	}
}

// checkFormsAnswer checks that a failure's answer is the kind and code
// alone (a tool error for call_tool), and that a result with isError
// arrives with its text redacted.
func checkFormsAnswer(t *testing.T, what string, answer map[string]any, server, want string, metaTool bool) {
	t.Helper()
	text, _ := path(answer, "error", "message").(string)
	if metaTool {
		text, _ = path(answer, "result", "content", 0, "text").(string)
	}
	switch {
	case want != "" && text != fmt.Sprintf("upstream %q: %s", server, want):
		t.Errorf("%s: got %v, want the message %q", what, answer, fmt.Sprintf("upstream %q: %s", server, want))
	case want == "" && strings.HasPrefix(what, server+" tools/call") && (path(answer, "result", "isError") != true ||
		!strings.Contains(fmt.Sprint(path(answer, "result", "content", 0, "text")), upstream.Redacted)):
		t.Errorf("%s: got %v, want the upstream's isError result, redacted", what, answer)
	}
}

// checkFormsLogs: the default log holds no word of what the upstreams
// said; the debug log holds it, redacted.
func checkFormsLogs(t *testing.T, info, debug string) {
	t.Helper()
	for level, log := range map[string]string{"info": info, "debug": debug} {
		for _, line := range strings.Split(log, "\n") {
			var rec any
			if json.Unmarshal([]byte(line), &rec) == nil {
				checkNoForm(t, "the "+level+" log", rec)
			}
		}
	}
	if strings.Contains(info, "I was given") || !strings.Contains(info, "upstream call failed") {
		t.Errorf("the info log holds what an upstream said, or no failure at all:\n%s", info)
	}
	if !strings.Contains(debug, "its message: refused; I was given") || !strings.Contains(debug, "it said: refused; I was given") {
		t.Errorf("the debug log does not hold what the upstreams said:\n%s", debug)
	}
}

// stringsOf lists every string in v, a decoded JSON value, member names
// included.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, stringsOf(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for k, e := range v {
			out = append(append(out, k), stringsOf(e)...)
		}
		return out
	}
	return nil
}

// teeHandler passes each record to both handlers.
type teeHandler [2]slog.Handler

func (h teeHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h[0].Enabled(ctx, l) || h[1].Enabled(ctx, l)
}

func (h teeHandler) Handle(ctx context.Context, r slog.Record) error {
	var errs []error
	for _, x := range h {
		if x.Enabled(ctx, r.Level) {
			errs = append(errs, x.Handle(ctx, r.Clone()))
		}
	}
	return errors.Join(errs...)
}

func (h teeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return teeHandler{h[0].WithAttrs(attrs), h[1].WithAttrs(attrs)}
}

func (h teeHandler) WithGroup(name string) slog.Handler {
	return teeHandler{h[0].WithGroup(name), h[1].WithGroup(name)}
}
