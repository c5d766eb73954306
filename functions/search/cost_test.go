package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index"
)

// lambdaResponseLimit is Lambda's limit on a synchronous response payload:
// the event the adapter returns, marshalled.
const lambdaResponseLimit = 6_291_556

// TestPagesFitLambda: a list page of items within the catalog limits
// (descriptions of 200 KB of quotes, which JSON escapes twice over: once
// in the body, once in the event) fits Lambda's response limit through
// the adapter, cut short with a cursor, and the cursors give every item.
func TestPagesFitLambda(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "catalog")
	os.Mkdir(dir, 0o755)
	desc, _ := json.Marshal(strings.Repeat(`"`, 200_000))
	var tools []string
	for i := range 12 {
		tools = append(tools, fmt.Sprintf(`{"name":"t%02d","description":%s,"inputSchema":{"type":"object"}}`, i, desc))
	}
	if err := os.WriteFile(filepath.Join(dir, "big.json"), []byte(`{"server":"big","tools":[`+strings.Join(tools, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := newHandler(mustConfig(t, nil), mustOpenCatalog(t, dir), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	seen, cursor := 0, ""
	for pages := 0; pages < 12; pages++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
		ev := events.APIGatewayV2HTTPRequest{Body: string(body), Headers: map[string]string{"content-type": "application/json"},
			RequestContext: events.APIGatewayV2HTTPRequestContext{HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST"}}}
		ev.RawPath = "/mcp"
		resp := invoke(t, h, ev)
		payload, _ := json.Marshal(resp)
		var r struct {
			Result struct {
				Tools      []json.RawMessage `json:"tools"`
				NextCursor string            `json:"nextCursor"`
			} `json:"result"`
		}
		json.Unmarshal([]byte(resp.Body), &r)
		if len(payload) > lambdaResponseLimit || len(r.Result.Tools) == 0 {
			t.Fatalf("page %d: %d items in a Lambda payload of %d bytes, want some within %d", pages, len(r.Result.Tools), len(payload), lambdaResponseLimit)
		}
		seen += len(r.Result.Tools)
		if cursor = r.Result.NextCursor; cursor == "" {
			break
		}
	}
	if seen != 12 {
		t.Errorf("the pages gave %d tools, want 12", seen)
	}
}

// callableIndex resolves every item as callable, so that a benchmark's
// tools/call reaches the (stub) upstream caller.
type callableIndex struct{ *index.Index }

func (x callableIndex) Resolve(ctx context.Context, k ext.Kind, name string) (*ext.Target, error) {
	t, err := x.Index.Resolve(ctx, k, name)
	if err == nil {
		t.Upstream = json.RawMessage(`{"transport":"streamable-http","url":"http://127.0.0.1:1/mcp"}`)
	}
	return t, err
}

type stubCaller struct{}

func (stubCaller) Call(context.Context, *ext.Target, string, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`), nil
}

var costQueries = []string{
	"open a merge request", "take a screenshot of the page", "list kubernetes pods",
	"send a slack message to a channel", "create a calendar event", "query a database table",
	"refund a payment", "search the web for news", "deploy a site", "read a file",
}

// costCase is one request of the benchmark: body(i) is its i-th body.
type costCase struct {
	name string
	body func(i int) string
}

// costCases are an ordinary search, then for each method the worst
// request it allows (the most JSON values allowed and a string to the
// body limit) and a body of small values to the body limit (about 500,000
// of them, refused by the scan).
func costCases() []costCase {
	cases := []costCase{{"search (ordinary)", func(i int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":%q}}`, costQueries[i%len(costQueries)])
	}}}
	methods := []struct{ name, template string }{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":%s}}}`},
		{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"experimental":{"x":%s}},"clientInfo":{"name":"c","version":"1"}}}`},
		{"tools/list", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":%s}}}`},
		{"tools/search", `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"take a screenshot of the page","limit":50,"_meta":{"io.github.mcpsearch/explain":true,"x":%s}}}`},
		{"tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"playwright__browser_take_screenshot","arguments":{"x":"` +
			strings.Repeat("a", ext.MaxArgumentsBytes-16) + `"},"_meta":{"x":%s}}}`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"x":%s}}}`},
		{"prompts/search", `{"jsonrpc":"2.0","id":1,"method":"prompts/search","params":{"query":"summarize a document","limit":50,"_meta":{"io.github.mcpsearch/explain":true,"x":%s}}}`},
		{"resources/search", `{"jsonrpc":"2.0","id":1,"method":"resources/search","params":{"query":"read a file","limit":50,"_meta":{"io.github.mcpsearch/explain":true,"x":%s}}}`},
		{"resources/templates/search", `{"jsonrpc":"2.0","id":1,"method":"resources/templates/search","params":{"query":"a page by id","limit":50,"_meta":{"io.github.mcpsearch/explain":true,"x":%s}}}`},
		{"prompts/list", `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{"_meta":{"x":%s}}}`},
		{"resources/list", `{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"_meta":{"x":%s}}}`},
	}
	values := "[" + strings.Repeat("0,", ext.MaxJSONValues-21) + "0"
	for _, m := range methods {
		room := server.DefaultMaxBodyBytes - len(m.template)
		worst := fmt.Sprintf(m.template, values+`,"`+strings.Repeat("a", room-len(values)-16)+`"]`)
		refused := fmt.Sprintf(m.template, "["+strings.Repeat("0,", room/2-2)+"0]")
		cases = append(cases,
			costCase{m.name + " (worst allowed)", func(int) string { return worst }},
			costCase{m.name + " (small values to the body limit, refused)", func(int) string { return refused }})
	}
	servers, _ := json.Marshal(unknownServers(ext.MaxFilterServers))
	cases = append(cases, costCase{"tools/search (1,000 unknown servers of the longest name)", func(int) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"take a screenshot","filter":{"servers":` + string(servers) + `}}}`
	}})
	return cases
}

func unknownServers(n int) []string {
	names := make([]string, n)
	for i := range names {
		prefix := fmt.Sprintf("server-%04d-", i)
		names[i] = prefix + strings.Repeat("x", ext.MaxServerNameChars-len(prefix))
	}
	return names
}

// BenchmarkRequestCost measures, side by side in one run over the default
// catalog, an ordinary search and the worst request each method allows,
// and reports each one's time and allocated bytes as multiples of the
// ordinary search's (x-search-time, x-search-B):
//
//	go test ./functions/search -run '^$' -bench RequestCost -benchtime 20x
func BenchmarkRequestCost(b *testing.B) {
	idx := mustOpenCatalog(b, "catalog")
	h := server.New(callableIndex{idx}, &server.Options{CursorKey: idx.CursorKey(), Caller: stubCaller{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	var baseNs, baseBytes float64
	for _, c := range costCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; b.Loop(); i++ {
				req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body(i)))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
			runtime.ReadMemStats(&after)
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			bytes := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
			if baseNs == 0 || strings.HasPrefix(c.name, "search (ordinary)") {
				baseNs, baseBytes = ns, bytes
			}
			b.ReportMetric(ns/baseNs, "x-search-time")
			b.ReportMetric(bytes/baseBytes, "x-search-B")
		})
	}
}
