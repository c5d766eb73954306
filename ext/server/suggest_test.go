package server

import (
	"github.com/mcpsearch/mcpsearch/ext"

	"encoding/json"
	"strings"
	"testing"
)

// TestMethodNotFoundSuggests: -32601 for a typo of a method names the
// method meant; a name near none, a notification's name and a very long
// name get mcp-go's plain message.
func TestMethodNotFoundSuggests(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 3), nil)
	long := strings.Repeat("tools/search", 10000)
	for _, test := range []struct{ method, want string }{
		{"tools/serch", "Method tools/serch not found; did you mean tools/search?"},
		{"tool/search", "Method tool/search not found; did you mean tools/search?"},
		{"Tools/List", "Method Tools/List not found; did you mean tools/list?"},
		{"resources/templates/serach", "Method resources/templates/serach not found; did you mean resources/templates/search?"},
		{"prompt/get", "Method prompt/get not found; did you mean prompts/get?"},
		{"tools/frobnicate", "Method tools/frobnicate not found"},
		{"foo/bar", "Method foo/bar not found"},
		{"notifications/initialized", "Method notifications/initialized not found"},
		{long, `Method "` + long[:ext.MaxEchoBytes] + `"… (120000 bytes) not found`},
	} {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": test.method})
		_, out := post(t, s, string(body))
		var r rpcResponse
		if err := json.Unmarshal(out, &r); err != nil || r.Error == nil {
			t.Fatalf("%.40s: got %s, want an error", test.method, out)
		}
		if r.Error.Code != -32601 || r.Error.Message != test.want {
			t.Errorf("%.40s: got %d %q, want -32601 %.80q", test.method, r.Error.Code, r.Error.Message, test.want)
		}
	}
}

// TestSuggestionKeepsToTheEra: a method the request's protocol era does
// not answer is not suggested.
func TestSuggestionKeepsToTheEra(t *testing.T) {
	t.Parallel()
	if got := nearestMethod("initialise", era{}); got != "initialize" {
		t.Errorf("legacy era: got %q, want initialize", got)
	}
	if got := nearestMethod("initialise", era{modern: true}); got != "" {
		t.Errorf("2026-07-28 era: got %q, want no suggestion (initialize was removed)", got)
	}
}
