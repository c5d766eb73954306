package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"
)

// testCatalog is a tiny catalog of two servers, one of whose tools is
// plainly the answer to "take a screenshot of the page".
var testCatalog = map[string]string{
	"demo.json": `{"server":"demo","tools":[
		{"name":"browser_take_screenshot","description":"Take a screenshot of the current page",
		 "inputSchema":{"type":"object","properties":{"fullPage":{"type":"boolean","description":"whole page"}}}},
		{"name":"browser_navigate","description":"Navigate the browser to a URL",
		 "inputSchema":{"type":"object","properties":{"url":{"type":"string","description":"address to open"}}}},
		{"name":"browser_click","description":"Click an element on the page",
		 "inputSchema":{"type":"object","properties":{"selector":{"type":"string","description":"CSS selector"}}}}
	]}`,
	"files.json": `{"server":"files","tools":[
		{"name":"read_file","description":"Read the contents of a file from disk",
		 "inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"file path"}}}},
		{"name":"write_file","description":"Write text to a file, replacing it",
		 "inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"file path"},"content":{"type":"string"}}}}
	]}`,
}

// mustHandler builds an index of testCatalog under tb.TempDir, opens it and
// returns the function's HTTP handler over it.
func mustHandler(tb testing.TB) http.Handler {
	tb.Helper()
	dir := tb.TempDir()
	catDir := filepath.Join(dir, "catalog")
	if err := os.Mkdir(catDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, data := range testCatalog {
		if err := os.WriteFile(filepath.Join(catDir, name), []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cat, err := catalog.LoadDir(catDir, nil)
	if err != nil {
		tb.Fatal(err)
	}
	bundle := filepath.Join(dir, "index")
	if _, err := index.Build(cat, bundle, nil); err != nil {
		tb.Fatal(err)
	}
	idx, err := index.Open(bundle)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { idx.Close() })
	h, err := newHandler(mustConfig(tb, nil), idx, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ev
}

// eventBody is the JSON-RPC message an event carries.
func eventBody(t *testing.T, ev events.APIGatewayV2HTTPRequest) []byte {
	t.Helper()
	if !ev.IsBase64Encoded {
		return []byte(ev.Body)
	}
	body, err := base64.StdEncoding.DecodeString(ev.Body)
	if err != nil {
		t.Fatalf("fixture body: %v", err)
	}
	return body
}

func invoke(t *testing.T, h http.Handler, ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
	t.Helper()
	resp, err := lambdaHandler(h)(context.Background(), ev)
	if err != nil {
		t.Fatalf("lambdaHandler: got error %v, want none", err)
	}
	return resp
}

// eventHeader looks a response header up as Lambda would, ignoring case.
func eventHeader(resp events.APIGatewayV2HTTPResponse, name string) string {
	for k, v := range resp.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// postHTTP sends the event's JSON-RPC message to url over real HTTP, with
// the event's Accept header.
func postHTTP(t *testing.T, url string, ev events.APIGatewayV2HTTPRequest) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(eventBody(t, ev)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", ev.Headers["accept"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func isJSONType(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && media == "application/json"
}

func decodeJSON(t *testing.T, what string, body []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s body %q: %v", what, body, err)
	}
	return v
}

// path walks nested JSON objects and arrays: path(v, "result", "tools", 0).
func path(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func checkSearch(t *testing.T, msg map[string]any) {
	t.Helper()
	tools, _ := path(msg, "result", "tools").([]any)
	if len(tools) == 0 || len(tools) > 3 {
		t.Fatalf("got %d tools in %v, want 1 to 3 (limit 3)", len(tools), msg)
	}
	if got, want := path(tools[0], "name"), "demo__browser_take_screenshot"; got != want {
		t.Errorf("first tool: got %v, want %s", got, want)
	}
	if score, ok := path(tools[0], "_meta", "io.github.mcpsearch/score").(float64); !ok || score <= 0 {
		t.Errorf("first tool _meta: got %v, want a positive io.github.mcpsearch/score", path(tools[0], "_meta"))
	}
	if got := path(msg, "id"); got != float64(1) {
		t.Errorf("id: got %v, want 1", got)
	}
}

func checkInitialize(t *testing.T, msg map[string]any) {
	t.Helper()
	if got := path(msg, "result", "capabilities", "tools", "search"); got != true {
		t.Errorf("result.capabilities.tools.search: got %v, want true in %v", got, msg)
	}
	if got := path(msg, "id"); got != "init-1" {
		t.Errorf("id: got %v, want init-1", got)
	}
}

func TestLambdaMatchesHTTP(t *testing.T) {
	t.Parallel()
	h := mustHandler(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	testCases := []struct {
		fixture string
		check   func(*testing.T, map[string]any)
	}{
		{"function-url-event.json", checkSearch},
		{"http-api-v2-event.json", checkSearch},
		{"function-url-initialize-event.json", checkInitialize},
	}
	for i, tc := range testCases {
		t.Run(fmt.Sprintf("testCase[%d] %s", i, tc.fixture), func(t *testing.T) {
			ev := loadEvent(t, tc.fixture)
			lresp := invoke(t, h, ev)
			hresp, hbody := postHTTP(t, srv.URL+"/mcp", ev)
			if lresp.StatusCode != hresp.StatusCode {
				t.Errorf("status: got %d through Lambda, want %d as over HTTP", lresp.StatusCode, hresp.StatusCode)
			}
			if ct := eventHeader(lresp, "Content-Type"); !isJSONType(ct) {
				t.Errorf("Lambda Content-Type: got %q, want application/json", ct)
			}
			if ct := hresp.Header.Get("Content-Type"); !isJSONType(ct) {
				t.Errorf("HTTP Content-Type: got %q, want application/json", ct)
			}
			if lresp.IsBase64Encoded {
				t.Errorf("Lambda isBase64Encoded: got true, want false for a JSON body")
			}
			got := decodeJSON(t, "Lambda", []byte(lresp.Body))
			want := decodeJSON(t, "HTTP", hbody)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("body through Lambda:\ngot  %s\nwant %s (over HTTP)", lresp.Body, hbody)
			}
			tc.check(t, got)
		})
	}
}

func TestLambdaGetNotAllowed(t *testing.T) {
	t.Parallel()
	ev := loadEvent(t, "function-url-event.json")
	ev.RequestContext.HTTP.Method = http.MethodGet
	ev.Body = ""
	delete(ev.Headers, "content-type")
	delete(ev.Headers, "content-length")
	resp := invoke(t, mustHandler(t), ev)
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("status: got %d, want %d", resp.StatusCode, http.StatusMethodNotAllowed)
	}
	if got := eventHeader(resp, "Allow"); got != http.MethodPost {
		t.Errorf("Allow: got %q, want POST (headers %v)", got, resp.Headers)
	}
}

func TestStripStage(t *testing.T) {
	t.Parallel()
	testCases := []struct {
		path, stage, want string
	}{
		{"/prod/mcp", "prod", "/mcp"},
		{"/mcp", "$default", "/mcp"},
		{"/mcp", "", "/mcp"},
		{"/production/mcp", "prod", "/production/mcp"},
		{"/prod", "prod", "/"},
		{"/mcp", "prod", "/mcp"},
		{"", "$default", "/"},
		{"", "prod", "/"},
	}
	for i, tc := range testCases {
		t.Run(fmt.Sprintf("testCase[%d] %q %q", i, tc.path, tc.stage), func(t *testing.T) {
			if got := stripStage(tc.path, tc.stage); got != tc.want {
				t.Errorf("stripStage(%q, %q): got %q, want %q", tc.path, tc.stage, got, tc.want)
			}
		})
	}
}

func TestLambdaBadEvent(t *testing.T) {
	t.Parallel()
	never := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("handler called with %s %s, want no call for a bad event", r.Method, r.URL)
	})
	post := events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: http.MethodPost, Path: "/mcp"}
	testCases := []struct {
		name    string
		ev      events.APIGatewayV2HTTPRequest
		wantErr string
	}{
		{"body not base64", events.APIGatewayV2HTTPRequest{
			RawPath: "/mcp", Body: "{not base64!}", IsBase64Encoded: true,
			RequestContext: events.APIGatewayV2HTTPRequestContext{HTTP: post},
		}, "event body"},
		{"no http method", events.APIGatewayV2HTTPRequest{
			RawPath: "/mcp", Body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		}, "Function URL"},
	}
	for i, tc := range testCases {
		t.Run(fmt.Sprintf("testCase[%d] %s", i, tc.name), func(t *testing.T) {
			resp, err := lambdaHandler(never)(context.Background(), tc.ev)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got error %v, want one mentioning %q", err, tc.wantErr)
			}
			if !reflect.DeepEqual(resp, events.APIGatewayV2HTTPResponse{}) {
				t.Errorf("response: got %+v, want the zero response with an error", resp)
			}
		})
	}
}
