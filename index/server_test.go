package index

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// The tests here run the extension over the real default index.

func newServer(x *Index, pageSize int) *server.Handler {
	return server.New(x, &server.Options{PageSize: pageSize, CursorKey: x.CursorKey(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

type listResult struct {
	Result map[string]json.RawMessage `json:"result"`
	Error  *ext.Error                 `json:"error"`
}

func rpcCall(t *testing.T, s http.Handler, method string, params map[string]any) listResult {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var r listResult
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s: %v in %s", method, err, rec.Body)
	}
	return r
}

// walkList pages through a list method and returns each item's identifier.
func walkList(t *testing.T, s http.Handler, method, key string) []string {
	t.Helper()
	var ids []string
	params := map[string]any{}
	for page := 0; page < 100000; page++ {
		r := rpcCall(t, s, method, params)
		if r.Error != nil {
			t.Fatalf("%s page %d: %v", method, page, r.Error)
		}
		var items []struct{ Name, URI, URITemplate string }
		json.Unmarshal(r.Result[key], &items)
		for _, it := range items {
			ids = append(ids, it.Name+it.URI+it.URITemplate)
		}
		var next string
		json.Unmarshal(r.Result["nextCursor"], &next)
		if next == "" {
			if len(items) == 0 && page > 0 {
				t.Errorf("%s: the last page is empty", method)
			}
			return ids
		}
		params = map[string]any{"cursor": next}
	}
	t.Fatalf("%s: no end", method)
	return nil
}

func TestListWalksDefaultCatalogOnce(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, size := range []int{100, 7} {
		s := newServer(x, size)
		for _, k := range ext.Kinds {
			ids := walkList(t, s, listMethod(k), k.ResultKey())
			seen := map[string]bool{}
			for _, id := range ids {
				if seen[id] {
					t.Errorf("page size %d: %s %s listed twice", size, k, id)
				}
				seen[id] = true
			}
			if want := x.Manifest().Counts[k]; len(ids) != want || len(seen) != want {
				t.Errorf("page size %d: %s: got %d items (%d distinct), want %d", size, k, len(ids), len(seen), want)
			}
		}
	}
}

func listMethod(k ext.Kind) string {
	if k == ext.KindResourceTemplate {
		return "resources/templates/list"
	}
	return k.ResultKey() + "/list"
}

func TestCursorsAreBoundToTheirIndex(t *testing.T) {
	t.Parallel()
	def := newServer(defaultIndex(t), 7)
	small := newServer(mustBuild(t, "testdata/catalog"), 2)
	var smallCursor string
	json.Unmarshal(rpcCall(t, small, "tools/list", nil).Result["nextCursor"], &smallCursor)
	var defCursor string
	json.Unmarshal(rpcCall(t, def, "tools/search", map[string]any{"query": "merge request"}).Result["nextCursor"], &defCursor)
	if smallCursor == "" || defCursor == "" {
		t.Fatal("no cursors to test with")
	}
	for _, test := range []struct {
		name, method string
		params       map[string]any
		want         string
	}{
		{"list cursor of another index", "tools/list", map[string]any{"cursor": smallCursor}, "another index version"},
		{"search cursor for another query", "tools/search", map[string]any{"query": "merge requests", "cursor": defCursor}, "another query"},
		{"search cursor with another filter", "tools/search", map[string]any{"query": "merge request", "cursor": defCursor, "filter": map[string]any{"servers": []string{"mcp-gitlab"}}}, "another query"},
		{"garbled cursor", "tools/list", map[string]any{"cursor": "bm90IGEgY3Vyc29y"}, "not a cursor issued"},
	} {
		r := rpcCall(t, def, test.method, test.params)
		if r.Error == nil || r.Error.Code != ext.CodeInvalidParams || !strings.Contains(r.Error.Message, test.want) {
			t.Errorf("%s: got %v, want -32602 saying %q", test.name, r.Error, test.want)
		}
	}
	r := rpcCall(t, def, "tools/search", map[string]any{"query": "merge request", "cursor": defCursor})
	if r.Error != nil {
		t.Errorf("the cursor's own query: %v", r.Error)
	}
}

func TestSearchPagesDoNotOverlap(t *testing.T) {
	t.Parallel()
	s := newServer(defaultIndex(t), 100)
	seen := map[string]int{}
	params := map[string]any{"query": "create issue", "limit": 10}
	for page := 1; page <= 5; page++ {
		r := rpcCall(t, s, "tools/search", params)
		var tools []struct{ Name string }
		json.Unmarshal(r.Result["tools"], &tools)
		for _, tool := range tools {
			if p, dup := seen[tool.Name]; dup {
				t.Errorf("%s on page %d and page %d", tool.Name, p, page)
			}
			seen[tool.Name] = page
		}
		var next string
		json.Unmarshal(r.Result["nextCursor"], &next)
		params = map[string]any{"query": "create issue", "limit": 10, "cursor": next}
	}
	if len(seen) != 50 {
		t.Errorf("got %d distinct tools in 5 pages of 10, want 50", len(seen))
	}
}

func TestListEndsWithoutEmptyPage(t *testing.T) {
	t.Parallel()
	s := newServer(mustBuild(t, "testdata/catalog"), 3) // 6 tools: exactly two pages
	r := rpcCall(t, s, "tools/list", nil)
	var next string
	json.Unmarshal(r.Result["nextCursor"], &next)
	r = rpcCall(t, s, "tools/list", map[string]any{"cursor": next})
	var tools []any
	json.Unmarshal(r.Result["tools"], &tools)
	if len(tools) != 3 || r.Result["nextCursor"] != nil {
		t.Errorf("second page: got %d tools and nextCursor %s, want 3 and no cursor", len(tools), r.Result["nextCursor"])
	}
}
