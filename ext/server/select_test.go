package server

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// selectAnswer is what a select answer holds: the key of each item (name,
// URI or URI template), whether any has a score, the hint and the cursor.
type selectAnswer struct {
	keys    []string
	scored  bool
	servers []any
	hint    any
	hasNext bool
}

func selectVia(t *testing.T, s *Handler, method string, params map[string]any) selectAnswer {
	t.Helper()
	r := call(t, s, method, params)
	if r.Error != nil {
		t.Fatalf("%s %v: got error %+v", method, params, r.Error)
	}
	var a selectAnswer
	for _, v := range r.Result {
		items, ok := v.([]any)
		if !ok {
			continue
		}
		for _, it := range items {
			obj := it.(map[string]any)
			a.keys = append(a.keys, fmt.Sprint(firstOf(obj, "uriTemplate", "uri", "name")))
			meta, _ := obj["_meta"].(map[string]any)
			_, scored := meta[ext.MetaScore]
			a.scored = a.scored || scored
			a.servers = append(a.servers, meta[ext.MetaServer])
		}
	}
	a.hint = path(r.Result, "_meta", ext.MetaHint)
	_, a.hasNext = r.Result["nextCursor"]
	return a
}

func firstOf(obj map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			return v
		}
	}
	return nil
}

// path walks maps and slices by key and index; nil where it cannot.
func path(v any, steps ...any) any {
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[s]
		case int:
			l, _ := v.([]any)
			if s >= len(l) {
				return nil
			}
			v = l[s]
		}
	}
	return v
}

// TestSelect: a select: query answers the named items, in order, once
// each, with their server and no score, on one page; the names that give
// nothing are in the hint.
func TestSelect(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 60), nil)
	for _, test := range []struct {
		method, query string
		want          []string
		hint          any
	}{
		{"tools/search", "select:srv__tool_007,srv__tool_002", []string{"srv__tool_007", "srv__tool_002"}, nil},
		{"tools/search", "  SELECT: srv__tool_002 , ,srv__tool_001,", []string{"srv__tool_002", "srv__tool_001"}, nil},
		{"tools/search", "select:srv__tool_002,nope__x,srv__tool_002,Srv__tool_001,srv__tool_001", []string{"srv__tool_002", "srv__tool_001"}, "unknown: nope__x, Srv__tool_001"},
		{"tools/search", "select:mcp__mcpsearch__srv__tool_003,srv__tool_003,mcp__a__b__srv__tool_004", []string{"srv__tool_003", "srv__tool_004"}, nil},
		{"tools/search", "select:mcp__srv__tool_005,tool_005", nil, "unknown: mcp__srv__tool_005, tool_005"},
		{"tools/search", "select:screenshot", nil, "unknown: screenshot"},
		{"prompts/search", "select:srv__summarize,mcp__x__srv__summarize", []string{"srv__summarize"}, nil},
		{"resources/search", "select:file:///readme.md, file:///{path}", []string{"file:///readme.md"}, "unknown: file:///{path}"},
		{"resources/templates/search", "select:file:///{path},file:///readme.md", []string{"file:///{path}"}, "unknown: file:///readme.md"},
	} {
		t.Run(test.method+" "+test.query, func(t *testing.T) {
			a := selectVia(t, s, test.method, map[string]any{"query": test.query, "limit": 1})
			if !reflect.DeepEqual(a.keys, test.want) || a.hint != test.hint {
				t.Errorf("got %v hint %v, want %v hint %v", a.keys, a.hint, test.want, test.hint)
			}
			if a.scored || a.hasNext {
				t.Errorf("got a score (%v) or a nextCursor (%v), want neither", a.scored, a.hasNext)
			}
			for _, server := range a.servers {
				if server != "srv" {
					t.Errorf("got _meta server %v, want srv", server)
				}
			}
		})
	}
	all := make([]string, ext.MaxLimit)
	for i := range all {
		all[i] = fmt.Sprintf("srv__tool_%03d", i)
	}
	if a := selectVia(t, s, "tools/search", map[string]any{"query": "select:" + strings.Join(all, ",")}); !reflect.DeepEqual(a.keys, all) || a.hasNext {
		t.Errorf("%d names: got %d items (next %v), want all of them on one page", len(all), len(a.keys), a.hasNext)
	}
}

// TestSelectRefused: a select: query names 1 to MaxLimit items, and takes
// no cursor, filter or explain; a bad limit is refused as in any search.
func TestSelectRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	many := "select:" + strings.Repeat("srv__tool_001,", ext.MaxLimit) + "srv__tool_002"
	for _, test := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"query": "select:"}, "names no item"},
		{map[string]any{"query": "select: , ,"}, "names no item"},
		{map[string]any{"query": many}, fmt.Sprintf("names %d items, at most %d are allowed", ext.MaxLimit+1, ext.MaxLimit)},
		{map[string]any{"query": "select:srv__tool_001", "cursor": "abc"}, "single page"},
		{map[string]any{"query": "select:srv__tool_001", "filter": map[string]any{"servers": []string{"srv"}}}, "takes no filter"},
		{map[string]any{"query": "select:srv__tool_001", "_meta": map[string]any{ext.MetaExplain: true}}, "nothing to explain"},
		{map[string]any{"query": "select:srv__tool_001", "limit": 0}, "limit 0 is not between"},
		{map[string]any{"query": "select:" + strings.Repeat("x", ext.MaxQueryBytes)}, "bytes long"},
	} {
		r := call(t, s, "tools/search", test.params)
		if r.Error == nil || r.Error.Code != ext.CodeInvalidParams || !strings.Contains(r.Error.Message, test.want) {
			t.Errorf("%.80v: got %+v, want -32602 containing %q", test.params, r.Error, test.want)
		}
	}
}

// notSelector is a searcher that cannot select: every name is unknown.
type notSelector struct{ ext.Searcher }

// countingSelector counts the lookups of a selector.
type countingSelector struct {
	*memCatalog
	lookups int
}

func (c *countingSelector) Select(ctx context.Context, k ext.Kind, name string) ([]ext.Hit, error) {
	c.lookups++
	return c.memCatalog.Select(ctx, k, name)
}

// TestSelectWithoutSelector: with a searcher that is no ext.Selector,
// select: names nothing, and is never searched as words.
func TestSelectWithoutSelector(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, notSelector{newMemCatalog("v1", 3)}, nil)
	if a := selectVia(t, s, "tools/search", map[string]any{"query": "select:srv__tool_001"}); len(a.keys) != 0 || a.hint != "unknown: srv__tool_001" {
		t.Errorf("got %v hint %v, want nothing and the name unknown", a.keys, a.hint)
	}
}

// TestSelectCandidates: Claude Code's prefix is tried off at each "__",
// a bounded number of times, and only on tools and prompts.
func TestSelectCandidates(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		kind ext.Kind
		name string
		want []string
	}{
		{ext.KindTool, "gitlab__x", []string{"gitlab__x"}},
		{ext.KindTool, "mcp__search__gitlab__x", []string{"mcp__search__gitlab__x", "gitlab__x", "x"}},
		{ext.KindPrompt, "mcp__a__b", []string{"mcp__a__b", "b"}},
		{ext.KindTool, "mcp____x", []string{"mcp____x"}},
		{ext.KindResource, "mcp__a__b", []string{"mcp__a__b"}},
		{ext.KindTool, "mcp__a__b__c__d__e__f__g", []string{"mcp__a__b__c__d__e__f__g", "b__c__d__e__f__g", "c__d__e__f__g", "d__e__f__g", "e__f__g"}},
	} {
		if got := selectCandidates(test.kind, test.name); !reflect.DeepEqual(got, test.want) {
			t.Errorf("%s %s: got %v, want %v", test.kind, test.name, got, test.want)
		}
	}
	c := &countingSelector{memCatalog: newMemCatalog("v1", 3)}
	s := newTestServer(t, c, nil)
	selectVia(t, s, "tools/search", map[string]any{"query": "select:mcp__a__b__c__d__e__f__g__h__i"})
	if c.lookups != maxClientPrefixes+1 {
		t.Errorf("got %d lookups for one name, want %d", c.lookups, maxClientPrefixes+1)
	}
}

// TestSelectSearchTools: in meta-tool mode, search_tools takes select: and
// answers the named tools call_tool reaches; the others, and malformed
// lists, are in the result the model reads.
func TestSelectSearchTools(t *testing.T) {
	t.Parallel()
	m, err := NewMetaTools(context.Background(), newResolvingCatalog(), MetaOptions{Mode: ListMeta, Proxy: true, Servers: []string{"up"}})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, newResolvingCatalog(), &Options{Meta: m})
	search := func(query string) map[string]any {
		r := call(t, s, "tools/call", map[string]any{"name": "search_tools", "arguments": map[string]any{"query": query}})
		if r.Error != nil {
			t.Fatalf("search_tools %q: got %+v", query, r.Error)
		}
		return r.Result
	}
	res := search("select: mcp__gw__up__deploy, srv__tool_001, nope, up__deploy")
	if got := path(res, "structuredContent", "tools"); len(got.([]any)) != 1 || path(got, 0, "name") != "up__deploy" || path(got, 0, "inputSchema", "type") != "object" {
		t.Errorf("got tools %v, want up__deploy once with its schema", got)
	}
	if got := path(res, "structuredContent", "hint"); got != "unknown: srv__tool_001, nope" {
		t.Errorf("got hint %v, want srv__tool_001 (its server is not reached) and nope unknown", got)
	}
	if res := search("select:"); res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "names no item") {
		t.Errorf("an empty select: got %v, want an isError result", res)
	}
}
