package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// bulkyCatalog has n tools whose descriptions are size bytes of quotes,
// which JSON escapes: each item takes twice size on the wire.
func bulkyCatalog(n, size int) *memCatalog {
	c := &memCatalog{version: "v1", items: map[ext.Kind][]ext.Hit{}}
	desc, _ := json.Marshal(strings.Repeat(`"`, size))
	for i := range n {
		c.add(ext.KindTool, "srv", fmt.Sprintf(`{"name":"srv__tool_%03d","description":%s,"inputSchema":{"type":"object"}}`, i, desc))
	}
	return c
}

// TestPagesFitTheResponseLimit: pages of items within the catalog limits
// (50 descriptions of 120 KB that escape to 240 KB: 12 MB) are cut under
// the response limit (by default one that fits Lambda's 6 MB once escaped
// again), with a cursor that goes on with the items left out and a note;
// following the cursors gives every item once, in order.
func TestPagesFitTheResponseLimit(t *testing.T) {
	t.Parallel()
	const lambdaBody = 3_145_728 // half of Lambda's 6 MB: the body is escaped once more there
	s := newTestServer(t, bulkyCatalog(50, 120_000), &Options{PageSize: 50})
	for _, method := range []string{"tools/search", "tools/list"} {
		params := map[string]any{"query": "tool", "limit": 50}
		if method == "tools/list" {
			params = map[string]any{}
		}
		var names []string
		for pages := 0; ; pages++ {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
			_, out := post(t, s, string(body))
			var r rpcResponse
			json.Unmarshal(out, &r)
			if len(out) > lambdaBody || r.Error != nil {
				t.Fatalf("%s: page %d is %d bytes (error %v), want at most %d", method, pages, len(out), r.Error, lambdaBody)
			}
			items, _ := r.Result["tools"].([]any)
			for _, it := range items {
				names = append(names, it.(map[string]any)["name"].(string))
			}
			meta, _ := r.Result["_meta"].(map[string]any)
			cursor, _ := r.Result["nextCursor"].(string)
			if pages == 0 && (len(items) == 50 || !strings.Contains(fmt.Sprint(meta[ext.MetaTruncated]), "nextCursor goes on with them")) {
				t.Errorf("%s: first page of %d items, note %q; want it cut and said", method, len(items), meta[ext.MetaTruncated])
			}
			if cursor == "" {
				break
			}
			params["cursor"] = cursor
		}
		if len(names) != 50 || names[0] != "srv__tool_000" || names[49] != "srv__tool_049" {
			t.Errorf("%s: the pages gave %d items (%v…), want the 50 in order", method, len(names), names[:min(3, len(names))])
		}
	}
}

// TestItemLargerThanTheLimit: an item larger than the response limit on
// its own is left out, named in the note, and the page goes on without it.
func TestItemLargerThanTheLimit(t *testing.T) {
	t.Parallel()
	cat := bulkyCatalog(3, 10)
	cat.items[ext.KindTool][1] = ext.Hit{Server: "srv", Object: json.RawMessage(`{"name":"srv__huge","description":"` + strings.Repeat("x", 100_000) + `"}`)}
	s := newTestServer(t, cat, &Options{MaxResponseBytes: 64 << 10})
	r := call(t, s, "tools/list", nil)
	items, _ := r.Result["tools"].([]any)
	meta, _ := r.Result["_meta"].(map[string]any)
	note := fmt.Sprint(meta[ext.MetaTruncated])
	if r.Error != nil || len(items) != 2 || !strings.Contains(note, `"srv__huge" (1000`) || !strings.Contains(note, "larger than the response limit of 65536 bytes") {
		t.Errorf("got %d items, note %q, error %v; want the two others and the huge one named", len(items), note, r.Error)
	}
}

// TestAnswerOverTheLimit: an answer that cannot be cut (here, a forwarded
// result) and is over the limit is replaced by an error that says so.
func TestAnswerOverTheLimit(t *testing.T) {
	t.Parallel()
	big := json.RawMessage(`{"content":[{"type":"text","text":"` + strings.Repeat("x", 100_000) + `"}]}`)
	s := newTestServer(t, newResolvingCatalog(), &Options{MaxResponseBytes: 64 << 10, Caller: callerFunc(func(_ context.Context, _ *ext.Target, _ string, _ json.RawMessage) (json.RawMessage, error) {
		return big, nil
	})})
	r := call(t, s, "tools/call", map[string]any{"name": "up__deploy"})
	if r.Error == nil || r.Error.Code != ext.CodeInternalError || !strings.Contains(r.Error.Message, "larger than the response limit of 65536 bytes") || string(r.ID) != "1" {
		t.Errorf("got id %s, error %v; want -32603 naming the limit, with the request's id", r.ID, r.Error)
	}
}

// TestSelectAnswerFitsTheLimit: a select answer, which has one page, is
// cut too, and its note says to select the rest on their own.
func TestSelectAnswerFitsTheLimit(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, bulkyCatalog(5, 20_000), &Options{MaxResponseBytes: 100_000})
	r := call(t, s, "tools/search", map[string]any{"query": "select:srv__tool_000,srv__tool_001,srv__tool_002,srv__tool_003,srv__tool_004"})
	items, _ := r.Result["tools"].([]any)
	meta, _ := r.Result["_meta"].(map[string]any)
	if r.Error != nil || len(items) == 0 || len(items) == 5 || r.Result["nextCursor"] != nil ||
		!strings.Contains(fmt.Sprint(meta[ext.MetaTruncated]), "select them on their own") {
		t.Errorf("got %d items, cursor %v, note %q, error %v; want fewer than 5, no cursor, the note", len(items), r.Result["nextCursor"], meta[ext.MetaTruncated], r.Error)
	}
}
