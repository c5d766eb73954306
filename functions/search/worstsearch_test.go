package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// worstSearch is one search request built to cost as much as one input a
// caller controls allows: body is the request, refused whether the server
// refuses it (-32602) rather than answering it.
type worstSearch struct {
	name    string
	body    string
	refused bool
}

// BenchmarkWorstSearch sends each request of worstSearches side by side
// with an ordinary search (the mix of costQueries at the default limit),
// over HTTP through the handler, to the default catalog: each round one
// ordinary request, then the hostile one. It reports, for each, the least
// CPU time the process spent on it (ordinary-cpu-µs, worst-cpu-µs; with
// -cpu 1 nothing else of the process runs meanwhile) and their ratio
// (x-ordinary), the fastest wall time and its ratio (x-ordinary-wall), and
// what each allocates (ordinary-MB, worst-MB, x-ordinary-B). The least of
// many rounds is the request least disturbed by the other work of a shared
// machine, which stretches wall time far more than CPU time.
//
//	go test ./functions/search -run '^$' -bench WorstSearch -benchtime 50x -cpu 1
func BenchmarkWorstSearch(b *testing.B) {
	h := costHandler(b)
	for _, ws := range worstSearches(b, h) {
		b.Run(ws.name, func(b *testing.B) {
			var ordinary, worst requestCosts
			runtime.GC()
			for i := 0; b.Loop(); i++ {
				ordinary.add(b, h, ordinarySearch(i))
				worst.add(b, h, ws.body)
			}
			b.ReportMetric(float64(ordinary.cpu)/1e3, "ordinary-cpu-µs")
			b.ReportMetric(float64(worst.cpu)/1e3, "worst-cpu-µs")
			b.ReportMetric(float64(worst.cpu)/float64(max(ordinary.cpu, 1)), "x-ordinary")
			b.ReportMetric(float64(worst.wall)/float64(ordinary.wall), "x-ordinary-wall")
			b.ReportMetric(ordinary.meanMB(), "ordinary-MB")
			b.ReportMetric(worst.meanMB(), "worst-MB")
			b.ReportMetric(worst.meanMB()/ordinary.meanMB(), "x-ordinary-B")
		})
	}
}

// TestWorstSearchesAsNamed: each worst search the limits allow is
// answered, and each past them refused with -32602, as BenchmarkWorstSearch
// names them: a limit that moves shows here, not as a figure gone quiet.
func TestWorstSearchesAsNamed(t *testing.T) {
	t.Parallel()
	worstSearches(t, costHandler(t))
}

// costHandler is the handler of the benchmarks: the default catalog, every
// item callable through a stub upstream.
func costHandler(tb testing.TB) http.Handler {
	idx := mustOpenCatalog(tb, "catalog")
	return server.New(callableIndex{idx}, &server.Options{CursorKey: idx.CursorKey(), Caller: stubCaller{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// ordinarySearch is the i-th ordinary request: a query of costQueries at
// the default limit.
func ordinarySearch(i int) string {
	return searchBody(map[string]any{"query": costQueries[i%len(costQueries)]})
}

func searchBody(params map[string]any) string {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/search", "params": params})
	if err != nil {
		panic(err)
	}
	return string(body)
}

// requestCosts records the time and the bytes allocated of requests.
type requestCosts struct {
	wall, cpu time.Duration // the least of each
	requests  int
	bytes     uint64
}

// add sends body to h and records what it cost.
func (c *requestCosts) add(b *testing.B, h http.Handler, body string) {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, startCPU := time.Now(), processCPU()
	h.ServeHTTP(rec, req)
	wall, cpu := time.Since(start), processCPU()-startCPU
	runtime.ReadMemStats(&after)
	if rec.Code != http.StatusOK {
		b.Fatalf("HTTP %d: %.300s", rec.Code, rec.Body)
	}
	if c.requests == 0 {
		c.wall, c.cpu = wall, cpu
	}
	c.wall, c.cpu = min(c.wall, wall), min(c.cpu, cpu)
	c.requests++
	c.bytes += after.TotalAlloc - before.TotalAlloc
}

func (c requestCosts) meanMB() float64 {
	return float64(c.bytes) / float64(max(c.requests, 1)) / (1 << 20)
}

// worstSearches are the worst search requests the limits allow, one for
// each input a caller controls (the query's words, limit, explain, cursor,
// filter.servers, filter.annotations, select:), then all of them at once,
// and the nearest requests past the limits, refused. Each is sent once
// here, to check that it is answered, or refused, as its name says.
func worstSearches(tb testing.TB, h http.Handler) []worstSearch {
	tb.Helper()
	common := commonDescriptionWords(tb, h, ext.MaxQueryTerms)
	servers := longestServers(tb, h)
	annotations := everyAnnotation()
	all := map[string]any{"query": strings.Join(common, " "), "limit": ext.MaxLimit,
		"filter": map[string]any{"servers": servers, "annotations": defaultHints()}, "_meta": map[string]any{ext.MetaExplain: true}}
	cases := []worstSearch{
		{name: "query: one word of 4,096 letters", body: searchBody(map[string]any{"query": strings.Repeat("q", ext.MaxQueryBytes)})},
		{name: "query: 128 words of 31 random letters", body: searchBody(map[string]any{"query": randomLetters(ext.MaxQueryTerms, 31)})},
		{name: "query: the 128 words most descriptions hold", body: searchBody(map[string]any{"query": strings.Join(common, " ")})},
		{name: "limit 50, explained", body: searchBody(map[string]any{"query": "take a screenshot of the page", "limit": ext.MaxLimit, "_meta": map[string]any{ext.MetaExplain: true}})},
		{name: "cursor: the deepest page (results 951-1000)", body: deepestPage(tb, h, map[string]any{"query": strings.Join(common[:8], " "), "limit": ext.MaxLimit})},
		{name: "filter.servers: 1,000 names of 64 characters, unknown", body: searchBody(map[string]any{"query": "take a screenshot", "filter": map[string]any{"servers": unknownServers(ext.MaxFilterServers)}})},
		{name: "filter.servers: 1,000 names, every server of the catalog among them", body: searchBody(map[string]any{"query": "take a screenshot", "filter": map[string]any{"servers": servers}})},
		{name: "filter.annotations: every annotation of the catalog once, a title of 1,024 bytes", body: searchBody(map[string]any{"query": "take a screenshot", "filter": map[string]any{"annotations": annotations}})},
		{name: "select: 50 names of 5 spellings each, unknown", body: searchBody(map[string]any{"query": unknownSelect(ext.MaxLimit)})},
		{name: "select: the 50 largest tools", body: searchBody(map[string]any{"query": "select:" + strings.Join(largestTools(tb, h, ext.MaxLimit), ",")})},
		{name: "combined: the 128 common words, limit 50, explained", body: searchBody(map[string]any{"query": strings.Join(common, " "), "limit": ext.MaxLimit, "_meta": map[string]any{ext.MetaExplain: true}})},
		{name: "combined: the 128 common words, limit 10, explained", body: searchBody(map[string]any{"query": strings.Join(common, " "), "_meta": map[string]any{ext.MetaExplain: true}})},
		{name: "combined: the 128 common words, limit 50, deepest page, 1,000 servers, the four hints", body: deepestPage(tb, h, without(all, "_meta"))},
		{name: "combined: all at once (the same, explained)", body: deepestPage(tb, h, all)},
		{name: "refused: a query of 1 MB", body: searchBody(map[string]any{"query": strings.Repeat("q", 1_000_000)}), refused: true},
		{name: "refused: filter.annotations, 9,900 spellings of the four hints", body: searchBody(map[string]any{"query": "take a screenshot", "filter": map[string]any{"annotations": caseVariants(9900)}}), refused: true},
		{name: "refused: filter.annotations, a title of 1 MB", body: searchBody(map[string]any{"query": "take a screenshot", "filter": map[string]any{"annotations": map[string]any{"title": strings.Repeat("t", 1_000_000)}}}), refused: true},
		{name: "refused: filter.annotations, a name of 1 MB", body: searchBody(map[string]any{"query": "take a screenshot", "filter": map[string]any{"annotations": map[string]any{strings.Repeat("n", 1_000_000): true}}}), refused: true},
		{name: "refused: select: 51 names", body: searchBody(map[string]any{"query": unknownSelect(ext.MaxLimit + 1)}), refused: true},
	}
	for _, c := range cases {
		checkAnswered(tb, h, c)
	}
	return cases
}

// checkAnswered fails unless h answers c as its name says: a result, or
// for a refused request -32602.
func checkAnswered(tb testing.TB, h http.Handler, c worstSearch) {
	tb.Helper()
	out := postBody(tb, h, c.body)
	var r struct {
		Result json.RawMessage
		Error  *ext.Error
	}
	if err := json.Unmarshal(out, &r); err != nil {
		tb.Fatalf("%s: %v", c.name, err)
	}
	switch {
	case c.refused && (r.Error == nil || r.Error.Code != ext.CodeInvalidParams):
		tb.Fatalf("%s: got %.300s, want -32602", c.name, out)
	case !c.refused && r.Error != nil:
		tb.Fatalf("%s: got error %d %q, want a result", c.name, r.Error.Code, r.Error.Message)
	}
}

// postBody sends body to h and returns the answer.
func postBody(tb testing.TB, h http.Handler, body string) []byte {
	tb.Helper()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Body.Bytes()
}

// deepestPage is the request of the last page a search may reach
// (ext.MaxSearchDepth) for params: its cursor is followed there, page by
// page.
func deepestPage(tb testing.TB, h http.Handler, params map[string]any) string {
	tb.Helper()
	params = maps.Clone(params)
	for offset := 0; offset+ext.MaxLimit < ext.MaxSearchDepth; offset += ext.MaxLimit {
		var r struct {
			Result struct{ NextCursor string } `json:"result"`
		}
		out := postBody(tb, h, searchBody(params))
		if json.Unmarshal(out, &r) != nil || r.Result.NextCursor == "" {
			tb.Fatalf("the page at %d has no next cursor: %.300s", offset, out)
		}
		params["cursor"] = r.Result.NextCursor
	}
	return searchBody(params)
}

// without is m without the member name.
func without(m map[string]any, name string) map[string]any {
	m = maps.Clone(m)
	delete(m, name)
	return m
}

// listedTools are the tools of h, every page of tools/list.
func listedTools(tb testing.TB, h http.Handler) []json.RawMessage {
	tb.Helper()
	var tools []json.RawMessage
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
		var r struct {
			Result struct {
				Tools      []json.RawMessage
				NextCursor string
			}
		}
		if err := json.Unmarshal(postBody(tb, h, string(body)), &r); err != nil {
			tb.Fatal(err)
		}
		tools = append(tools, r.Result.Tools...)
		if cursor = r.Result.NextCursor; cursor == "" {
			return tools
		}
	}
}

// commonDescriptionWords are the n words of at least four letters that
// the most tool descriptions hold.
func commonDescriptionWords(tb testing.TB, h http.Handler, n int) []string {
	tb.Helper()
	df := map[string]int{}
	for _, raw := range listedTools(tb, h) {
		var tool struct{ Description string }
		json.Unmarshal(raw, &tool)
		seen := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(tool.Description), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) >= 4 && !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	words := make([]string, 0, len(df))
	for w := range df {
		words = append(words, w)
	}
	slices.Sort(words)
	slices.SortStableFunc(words, func(a, b string) int { return df[b] - df[a] })
	return words[:min(n, len(words))]
}

// largestTools are the canonical names of the n tools of h whose objects
// are the largest.
func largestTools(tb testing.TB, h http.Handler, n int) []string {
	tb.Helper()
	tools := listedTools(tb, h)
	slices.SortStableFunc(tools, func(a, b json.RawMessage) int { return len(b) - len(a) })
	names := make([]string, 0, n)
	for _, raw := range tools[:min(n, len(tools))] {
		var tool struct{ Name string }
		json.Unmarshal(raw, &tool)
		names = append(names, tool.Name)
	}
	return names
}

// longestServers are ext.MaxFilterServers server names: every server of
// h's catalog, then unknown ones of the longest name.
func longestServers(tb testing.TB, h http.Handler) []string {
	tb.Helper()
	seen := map[string]bool{}
	var names []string
	for _, raw := range listedTools(tb, h) {
		var tool struct {
			Meta map[string]any `json:"_meta"`
		}
		json.Unmarshal(raw, &tool)
		if s, _ := tool.Meta[ext.MetaServer].(string); s != "" && !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	return append(names, unknownServers(ext.MaxFilterServers-len(names))...)
}

// everyAnnotation is a filter of every annotation the default catalog's
// tools carry, once each: the standard hints, title at the longest a
// catalog's may be, and the others.
func everyAnnotation() map[string]any {
	return map[string]any{
		"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false,
		"title": strings.Repeat("t", 1024), "category": "debugging",
	}
}

// defaultHints is a filter of the four hints at their MCP defaults, which
// most tools keep: a page as deep as a search may go still has items.
func defaultHints() map[string]any {
	return map[string]any{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}
}

// caseVariants are n spellings, differing in case only, of the four hints.
func caseVariants(n int) map[string]any {
	hints := []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
	out := map[string]any{}
	for i := 0; len(out) < n; i++ {
		name := []rune(hints[i%len(hints)])
		for j := range name {
			if (i/len(hints))>>(j%20)&1 == 1 {
				name[j] = []rune(strings.ToUpper(string(name[j])))[0]
			} else {
				name[j] = []rune(strings.ToLower(string(name[j])))[0]
			}
		}
		out[string(name)] = true
	}
	return out
}

// unknownSelect is a select: query of n names, each written as Claude Code
// writes a tool (mcp__a__b__c__d__e: five names to try), of about the
// length the query's limit leaves each.
func unknownSelect(n int) string {
	names := make([]string, n)
	room := (ext.MaxQueryBytes - len(ext.SelectPrefix)) / n
	for i := range names {
		prefix := fmt.Sprintf("mcp__c%02d__s__t__u__", i)
		names[i] = prefix + strings.Repeat("x", max(1, room-len(prefix)-1))
	}
	return ext.SelectPrefix + strings.Join(names, ",")
}

// randomLetters is n words of length random letters, joined by spaces.
func randomLetters(n, length int) string {
	r := rand.New(rand.NewPCG(3, 3))
	words := make([]string, n)
	for i := range words {
		b := make([]byte, length)
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		words[i] = string(b)
	}
	return strings.Join(words, " ")
}
