package server

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// walk follows nextCursor from the first page of a list method to the last
// and returns the names of every item, in order.
func walk(t *testing.T, s *Handler, method, key string, params map[string]any) []string {
	t.Helper()
	var names []string
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatalf("%s: no end after %d pages", method, pages)
		}
		r := call(t, s, method, params)
		if r.Error != nil {
			t.Fatalf("%s page %d: %+v", method, pages, r.Error)
		}
		items, _ := r.Result[key].([]any)
		for _, it := range items {
			obj := it.(map[string]any)
			names = append(names, fmt.Sprint(obj["name"]))
		}
		next, _ := r.Result["nextCursor"].(string)
		if next == "" {
			return names
		}
		params = map[string]any{"cursor": next}
	}
}

func TestListPagination(t *testing.T) {
	t.Parallel()
	for _, size := range []int{7, 10, 100} {
		t.Run(fmt.Sprintf("page size %d", size), func(t *testing.T) {
			s := newTestServer(t, newMemCatalog("v1", 50), &Options{PageSize: size})
			names := walk(t, s, "tools/list", "tools", nil)
			if len(names) != 50 {
				t.Fatalf("got %d tools, want 50", len(names))
			}
			for i, n := range names {
				if want := fmt.Sprintf("srv__tool_%03d", i); n != want {
					t.Fatalf("item %d: got %s, want %s", i, n, want)
				}
			}
		})
	}
}

func TestSearchPagination(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 50), nil)
	params := map[string]any{"query": "merge", "limit": 3}
	var names []string
	for {
		r := call(t, s, "tools/search", params)
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		for _, it := range r.Result["tools"].([]any) {
			names = append(names, it.(map[string]any)["name"].(string))
		}
		next, _ := r.Result["nextCursor"].(string)
		if next == "" {
			break
		}
		params = map[string]any{"query": "merge", "limit": 3, "cursor": next}
	}
	if len(names) != 10 { // every 5th of 50 tools is about "merge"
		t.Errorf("got %d results %v, want the 10 merge tools", len(names), names)
	}
}

func TestSearchResultShape(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 10), nil)
	r := call(t, s, "tools/search", map[string]any{"query": "screenshot", "limit": 1, "filter": map[string]any{"servers": []string{"srv"}}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	tools := r.Result["tools"].([]any)
	if len(tools) != 1 {
		t.Fatalf("got %d tools, want limit 1", len(tools))
	}
	tool := tools[0].(map[string]any)
	meta, _ := tool["_meta"].(map[string]any)
	if meta[ext.MetaServer] != "srv" || meta[ext.MetaScore] == nil || tool["inputSchema"] == nil {
		t.Errorf("got %v, want the stored object with server and score in _meta", tool)
	}
	if r.Result["nextCursor"] == nil {
		t.Errorf("no nextCursor although two tools match")
	}
	none := call(t, s, "tools/search", map[string]any{"query": "screenshot", "filter": map[string]any{"servers": []string{"other"}}})
	if got := none.Result["tools"].([]any); len(got) != 0 {
		t.Errorf("server filter: got %d tools of server srv, want none", len(got))
	}
}

func TestWithMeta(t *testing.T) {
	t.Parallel()
	meta := map[string]any{ext.MetaServer: "s"}
	for _, test := range []struct{ in, want string }{
		{`{"name":"a"}`, `{"_meta":{"io.github.mcpsearch/server":"s"},"name":"a"}`},
		{`{}`, `{"_meta":{"io.github.mcpsearch/server":"s"}}`},
		{`{"name":"a","_meta":{"x":1}}`, `{"_meta":{"io.github.mcpsearch/server":"s","x":1},"name":"a"}`},
	} {
		got, err := withMeta(json.RawMessage(test.in), meta)
		if err != nil || string(got) != test.want {
			t.Errorf("withMeta(%s): got %s, %v, want %s", test.in, got, err, test.want)
		}
	}
}

func TestPageResultWireOrder(t *testing.T) {
	t.Parallel()
	r := &pageResult{key: "tools", items: []json.RawMessage{json.RawMessage(`{"name":"a"}`)}, nextCursor: "abc"}
	got, _ := json.Marshal(r)
	if want := `{"tools":[{"name":"a"}],"nextCursor":"abc"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	r.extra = map[string]any{"resultType": "complete"}
	got, _ = json.Marshal(r)
	if want := `{"tools":[{"name":"a"}],"nextCursor":"abc","resultType":"complete"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	empty, _ := json.Marshal(&pageResult{key: "prompts"})
	if string(empty) != `{"prompts":[]}` {
		t.Errorf("empty page: got %s, want an empty array", empty)
	}
}
