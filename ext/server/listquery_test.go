package server

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// items is the items of a list or search result, each as JSON.
func items(t *testing.T, r rpcResponse, k ext.Kind) []string {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("got error %+v", r.Error)
	}
	list, _ := r.Result[k.ResultKey()].([]any)
	out := make([]string, len(list))
	for i, it := range list {
		b, _ := json.Marshal(it)
		out[i] = string(b)
	}
	return out
}

// listOf is the list method of kind k.
func listOf(k ext.Kind) string {
	return strings.TrimSuffix(ext.SearchMethods[kindIndex(k)], "search") + "list"
}

func kindIndex(k ext.Kind) int {
	return map[ext.Kind]int{ext.KindTool: 0, ext.KindPrompt: 1, ext.KindResource: 2, ext.KindResourceTemplate: 3}[k]
}

// TestListWithQuery: a list whose params hold a query (SEP-1821) answers
// what the search of its kind answers for the same params, page after
// page, in both eras; the hint of a search that finds nothing too.
func TestListWithQuery(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 30), &Options{PageSize: 5})
	for _, era := range []struct {
		name    string
		headers func(string) []string
		meta    map[string]any
	}{{"2025-11-25", func(string) []string { return nil }, nil}, {"2026-07-28", modernHeaders, modernMeta}} {
		for _, test := range []struct {
			k      ext.Kind
			params map[string]any
		}{
			{ext.KindTool, map[string]any{"query": "screenshot", "limit": 2}},
			{ext.KindTool, map[string]any{"query": "deploy", "limit": 3, "filter": map[string]any{"servers": []string{"srv"}}, "_meta": map[string]any{ext.MetaExplain: true}}},
			{ext.KindTool, map[string]any{"query": "select:srv__tool_002,srv__nothing"}},
			{ext.KindTool, map[string]any{"query": "nothing matches this"}},
			{ext.KindPrompt, map[string]any{"query": "summarize"}},
			{ext.KindResource, map[string]any{"query": "readme"}},
			{ext.KindResourceTemplate, map[string]any{"query": "project file"}},
		} {
			params := maps.Clone(test.params)
			if era.meta != nil {
				m, _ := params["_meta"].(map[string]any)
				m = maps.Clone(m)
				if m == nil {
					m = map[string]any{}
				}
				maps.Copy(m, era.meta)
				params["_meta"] = m
			}
			search, list := ext.SearchMethods[kindIndex(test.k)], listOf(test.k)
			listParams, searchParams := maps.Clone(params), maps.Clone(params)
			for page := 1; ; page++ {
				want := call(t, s, search, searchParams, era.headers(search)...)
				got := call(t, s, list, listParams, era.headers(list)...)
				if g, w := strings.Join(items(t, got, test.k), "\n"), strings.Join(items(t, want, test.k), "\n"); g != w {
					t.Errorf("%s %s %v page %d: got\n%s\nwant what %s answers:\n%s", era.name, list, test.params, page, g, search, w)
				}
				if g, w := path(got.Result, "_meta", ext.MetaHint), path(want.Result, "_meta", ext.MetaHint); g != w {
					t.Errorf("%s %s %v page %d: hint %v, want %v", era.name, list, test.params, page, g, w)
				}
				if era.meta != nil && got.Result["resultType"] != "complete" {
					t.Errorf("%s %s: got %v, want a 2026-07-28 result", era.name, list, got.Result)
				}
				wantNext, _ := want.Result["nextCursor"].(string)
				gotNext, _ := got.Result["nextCursor"].(string)
				if (gotNext == "") != (wantNext == "") {
					t.Fatalf("%s %s %v page %d: nextCursor %q, want one exactly when %s gives one", era.name, list, test.params, page, gotNext, search)
				}
				if gotNext == "" {
					break
				}
				listParams["cursor"], searchParams["cursor"] = gotNext, wantNext
			}
		}
	}
}

// TestListWithoutQuery: a list without a query — none, null, empty or
// white space — answers the plain list, whatever else its params hold.
func TestListWithoutQuery(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 30), &Options{PageSize: 5})
	plain := call(t, s, "tools/list", nil)
	cursor := nextCursor(t, plain)
	for _, params := range []map[string]any{
		{}, {"query": nil}, {"query": ""}, {"query": "  \t"},
		{"query": "", "limit": 99, "filter": map[string]any{"colour": 1}, "metadata": 5, "other": true},
	} {
		got := call(t, s, "tools/list", params)
		if g, w := strings.Join(items(t, got, ext.KindTool), "\n"), strings.Join(items(t, plain, ext.KindTool), "\n"); g != w || got.Result["nextCursor"] != cursor {
			t.Errorf("tools/list %v: got %v, want the plain list", params, got.Result)
		}
		params["cursor"] = cursor
		if got := call(t, s, "tools/list", params); got.Error != nil || len(items(t, got, ext.KindTool)) != 5 {
			t.Errorf("tools/list %v: got %+v, want the plain list's second page", params, got)
		}
	}
}

// TestListQueryRefused: a list with a query is checked as a search is
// (-32602), and its cursors page it only: neither a plain list, another
// query, a search nor another kind's list with the query, and no cursor of
// theirs pages it.
func TestListQueryRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 30), &Options{PageSize: 5})
	q := map[string]any{"query": "tool", "limit": 2}
	listQueryCursor := nextCursor(t, call(t, s, "tools/list", q))
	searchCursor := nextCursor(t, call(t, s, "tools/search", q))
	plainCursor := nextCursor(t, call(t, s, "tools/list", nil))
	long := strings.Repeat("a", ext.MaxQueryBytes+1)
	for _, test := range []struct {
		name, method string
		params       map[string]any
		message      string
	}{
		{"query too long", "tools/list", map[string]any{"query": long}, "query is 4097 bytes long"},
		{"too many words", "prompts/list", map[string]any{"query": strings.Repeat("a ", ext.MaxQueryTerms+1)}, "query has 129 words"},
		{"query not a string", "tools/list", map[string]any{"query": 5}, `field "query" must be a string`},
		{"limit too large", "resources/list", map[string]any{"query": "readme", "limit": 51}, "limit 51 is not between 1 and 50"},
		{"metadata not an object", "tools/list", map[string]any{"query": "tool", "metadata": "x"}, `field "metadata" must be an object, not a string`},
		{"unknown filter member", "tools/list", map[string]any{"query": "tool", "filter": map[string]any{"colour": "red"}}, `unknown field "colour" in filter`},
		{"the catalog's refusal of a filter", "tools/list", map[string]any{"query": "x", "filter": map[string]any{"annotations": map[string]any{"bad": true}}}, "filter.annotations.bad is not supported"},
		{"garbage cursor", "tools/list", map[string]any{"query": "tool", "cursor": "garbage"}, "not a cursor issued by this server"},
		{"a plain list's cursor", "tools/list", map[string]any{"query": "tool", "limit": 2, "cursor": plainCursor}, "cursor issued for another"},
		{"a search's cursor", "tools/list", map[string]any{"query": "tool", "limit": 2, "cursor": searchCursor}, "cursor issued for another"},
		{"another query's list cursor", "tools/list", map[string]any{"query": "tools", "limit": 2, "cursor": listQueryCursor}, "cursor issued for another"},
		{"another kind's list cursor", "prompts/list", map[string]any{"query": "tool", "limit": 2, "cursor": listQueryCursor}, "cursor issued for another"},
		{"the list's cursor, plain", "tools/list", map[string]any{"cursor": listQueryCursor}, "cursor issued for another"},
		{"the list's cursor, to a search", "tools/search", map[string]any{"query": "tool", "limit": 2, "cursor": listQueryCursor}, "cursor issued for another"},
		{"select with a cursor", "tools/list", map[string]any{"query": "select:srv__tool_001", "cursor": listQueryCursor}, "single page"},
	} {
		r := call(t, s, test.method, test.params)
		if r.Error == nil || r.Error.Code != ext.CodeInvalidParams || !strings.Contains(r.Error.Message, test.message) {
			t.Errorf("%s: got %+v, want -32602 saying %q", test.name, r, test.message)
		}
	}
	if r := call(t, s, "tools/list", map[string]any{"query": "tool", "metadata": map[string]any{"any": []int{1}}}); r.Error != nil {
		t.Errorf("metadata an object: got %+v, want it accepted", r.Error)
	}
}

// TestListQueryInMetaMode: in meta-tool mode a tools/list with a query
// answers the search over the tools search_tools searches: those of the
// servers call_tool reaches, or every tool without call_tool; a filter
// naming only other servers gets no items and names none of them.
func TestListQueryInMetaMode(t *testing.T) {
	t.Parallel()
	cat := newResolvingCatalog()
	cat.add(ext.KindTool, "up", `{"name":"up__screenshot","description":"take a screenshot","inputSchema":{"type":"object"}}`)
	proxy, err := NewMetaTools(context.Background(), cat, MetaOptions{Mode: ListMeta, Proxy: true, Servers: []string{"up"}})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := NewMetaTools(context.Background(), cat, MetaOptions{Mode: ListMeta})
	if err != nil {
		t.Fatal(err)
	}
	withProxy := newTestServer(t, cat, &Options{Meta: proxy})
	names := func(r rpcResponse) []string {
		var out []string
		for i := range items(t, r, ext.KindTool) {
			out = append(out, path(r.Result, "tools", i, "name").(string))
		}
		return out
	}
	q := map[string]any{"query": "screenshot"}
	if got := names(call(t, withProxy, "tools/list", q)); strings.Join(got, ",") != "up__screenshot" {
		t.Errorf("with call_tool: got %v, want the tools of up only", got)
	}
	if got := names(call(t, withProxy, "tools/list", map[string]any{"query": "select:up__deploy,srv__tool_000"})); strings.Join(got, ",") != "up__deploy" {
		t.Errorf("with call_tool, select: got %v, want up__deploy only", got)
	}
	r := call(t, withProxy, "tools/list", map[string]any{"query": "screenshot", "filter": map[string]any{"servers": []string{"srv"}}})
	if got := names(r); len(got) != 0 || path(r.Result, "_meta", ext.MetaHint) != outOfScopeHint {
		t.Errorf("with call_tool, a filter of other servers: got %v, want no items and the hint %q", r.Result, outOfScopeHint)
	}
	want := names(call(t, newTestServer(t, cat, nil), "tools/search", q))
	if got := names(call(t, newTestServer(t, cat, &Options{Meta: alone}), "tools/list", q)); strings.Join(got, ",") != strings.Join(want, ",") || len(got) < 2 {
		t.Errorf("without call_tool: got %v, want what tools/search answers, %v", got, want)
	}
	if got := names(call(t, withProxy, "tools/list", nil)); strings.Join(got, ",") != "search_tools,call_tool" {
		t.Errorf("without a query: got %v, want the meta tools", got)
	}
}
