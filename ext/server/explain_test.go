package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestExplainOption(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 12), nil)
	explain := func(v any) map[string]any {
		return map[string]any{"query": "screenshot", "limit": 2, "_meta": map[string]any{ext.MetaExplain: v}}
	}
	for _, test := range []struct {
		name   string
		params map[string]any
		want   bool // explanations on the items
	}{
		{"off by default", map[string]any{"query": "screenshot", "limit": 2}, false},
		{"off", explain(false), false},
		{"null is off", explain(nil), false},
		{"other _meta keys", map[string]any{"query": "screenshot", "_meta": map[string]any{"io.example/explain": true}}, false},
		{"on", explain(true), true},
	} {
		t.Run(test.name, func(t *testing.T) {
			r := call(t, s, "tools/search", test.params)
			if r.Error != nil {
				t.Fatalf("got error %+v", r.Error)
			}
			tools, _ := r.Result["tools"].([]any)
			if len(tools) == 0 {
				t.Fatalf("got no tools: %v", r.Result)
			}
			for i, tool := range tools {
				meta, _ := tool.(map[string]any)["_meta"].(map[string]any)
				e, has := meta[ext.MetaExplain].(map[string]any)
				if has != test.want {
					t.Errorf("tool %d: explanation %v, want one: %v", i, meta[ext.MetaExplain], test.want)
				}
				if has && !strings.Contains(e["summary"].(string), "query words") {
					t.Errorf("tool %d: explanation %v, want the catalog's, unchanged", i, e)
				}
				if meta[ext.MetaScore] == nil {
					t.Errorf("tool %d: no score beside the explanation", i)
				}
			}
		})
	}
}

func TestExplainOptionBadType(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 12), nil)
	for _, test := range []struct {
		name string
		meta any
		want string
	}{
		{"string", map[string]any{ext.MetaExplain: "yes"}, `_meta["io.github.mcpsearch/explain"] must be a boolean`},
		{"number", map[string]any{ext.MetaExplain: 1}, "must be a boolean"},
		{"object", map[string]any{ext.MetaExplain: map[string]any{}}, "must be a boolean"},
		{"_meta not an object", []int{1}, `field "_meta" must be an object`},
	} {
		t.Run(test.name, func(t *testing.T) {
			r := call(t, s, "prompts/search", map[string]any{"query": "summarize", "_meta": test.meta})
			if r.Error == nil || r.Error.Code != ext.CodeInvalidParams || !strings.Contains(r.Error.Message, test.want) {
				t.Errorf("got %+v, want %d with %q", r.Error, ext.CodeInvalidParams, test.want)
			}
		})
	}
}

func TestExplainKeepsCursors(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, newMemCatalog("v1", 30), nil)
	first := call(t, s, "tools/search", map[string]any{"query": "tool", "limit": 2, "_meta": map[string]any{ext.MetaExplain: true}})
	next := call(t, s, "tools/search", map[string]any{"query": "tool", "limit": 2, "cursor": nextCursor(t, first)})
	if next.Error != nil {
		t.Errorf("a cursor of an explained page, used without explain: got %+v, want the next page", next.Error)
	}
}

// describedCatalog is a memCatalog that describes itself, and gives every
// caller the same directory.
type describedCatalog struct{ *memCatalog }

func (describedCatalog) Directory(context.Context) ([]ext.ServerEntry, error) {
	return []ext.ServerEntry{{Name: "srv", About: "screenshots, merges and deploys", Items: 13}}, nil
}

func (describedCatalog) Describe() (ext.CatalogInfo, error) {
	return ext.CatalogInfo{
		Servers:     []ext.ServerInfo{{Name: "srv", Counts: map[ext.Kind]int{ext.KindTool: 12, ext.KindPrompt: 1}}},
		Counts:      map[ext.Kind]int{ext.KindTool: 12, ext.KindPrompt: 1},
		BuiltAt:     time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC),
		BundleBytes: 4096,
	}, nil
}

func TestCapabilityDescribesCatalog(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, describedCatalog{newMemCatalog("v1", 12)}, nil)
	r := call(t, s, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	ext, _ := r.Result["capabilities"].(map[string]any)["extensions"].(map[string]any)[ext.ExtensionID].(map[string]any)
	got, _ := json.Marshal(ext["catalog"])
	want := `{"builtAt":"2026-11-22T12:00:00Z","bundleBytes":4096,"counts":{"prompt":1,"tool":12},"serverCount":1,` +
		`"servers":[{"counts":{"prompt":1,"tool":12},"name":"srv"}]}`
	if string(got) != want || ext["explain"] != true {
		t.Errorf("got catalog %s explain %v, want %s and true", got, ext["explain"], want)
	}
}

type restrictedCatalog struct{ *memCatalog }

func (restrictedCatalog) Describe() (ext.CatalogInfo, error) {
	return ext.CatalogInfo{BuiltAt: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), BundleBytes: 4096, Restricted: true,
		Servers: []ext.ServerInfo{{Name: "secret-team-server"}}, Counts: map[ext.Kind]int{ext.KindTool: 12}}, nil
}

// TestCapabilityHidesRestrictedCatalog: the capability is the same for
// every caller, so a restricted catalog's settings carry no servers or
// counts, whatever the catalog put in its description.
func TestCapabilityHidesRestrictedCatalog(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, restrictedCatalog{newMemCatalog("v1", 12)}, nil)
	r := call(t, s, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	ext, _ := r.Result["capabilities"].(map[string]any)["extensions"].(map[string]any)[ext.ExtensionID].(map[string]any)
	got, _ := json.Marshal(ext["catalog"])
	if want := `{"builtAt":"2026-11-22T12:00:00Z","bundleBytes":4096,"restricted":true}`; string(got) != want {
		t.Errorf("got catalog %s, want %s", got, want)
	}
}

type versionedRules struct{ *memCatalog }

func (versionedRules) RulesVersion() string { return "rules-7" }

// TestCapabilityReportsRules: a searcher that versions its query-time
// rules (ext.RulesVersioner) has the version reported beside its index's;
// one that does not has no "rules".
func TestCapabilityReportsRules(t *testing.T) {
	for _, c := range []struct {
		searcher ext.Searcher
		want     any
	}{{versionedRules{newMemCatalog("v1", 3)}, "rules-7"}, {newMemCatalog("v1", 3), nil}} {
		s := newTestServer(t, c.searcher, nil)
		r := call(t, s, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "test", "version": "1"}})
		caps := r.Result["capabilities"].(map[string]any)
		for _, settings := range []any{caps["extensions"].(map[string]any)[ext.ExtensionID], caps["experimental"].(map[string]any)["search"]} {
			if got := settings.(map[string]any)["rules"]; got != c.want || settings.(map[string]any)["index"] != "v1" {
				t.Errorf("%T: got rules %v index %v, want %v and v1", c.searcher, got, settings.(map[string]any)["index"], c.want)
			}
		}
	}
}
