package server

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestMetaToolsAlwaysLoad: every tool meta-tool mode lists — search_tools
// (with and without the directory in its description), call_tool and the
// always-listed tools — carries _meta["anthropic/alwaysLoad"]: true, so
// that Claude Code does not defer it behind its own tool search; the
// always-listed tool keeps its server.
func TestMetaToolsAlwaysLoad(t *testing.T) {
	t.Parallel()
	for name, cat := range map[string]ext.Searcher{
		"without a directory": newResolvingCatalog(),
		"with a directory":    describedResolving{newResolvingCatalog()},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := NewMetaTools(context.Background(), cat, MetaOptions{Mode: ListMeta, Proxy: true, Servers: []string{"up"}, Always: []string{"up__deploy"}})
			if err != nil {
				t.Fatal(err)
			}
			list := call(t, newTestServer(t, cat, &Options{Meta: m}), "tools/list", nil)
			tools, _ := list.Result["tools"].([]any)
			if len(tools) != 3 {
				t.Fatalf("got %v, want three tools", list.Result)
			}
			for i := range tools {
				if got := path(list.Result, "tools", i, "_meta", ext.MetaAlwaysLoad); got != true {
					t.Errorf("%v: _meta[%q] is %v, want true", path(list.Result, "tools", i, "name"), ext.MetaAlwaysLoad, got)
				}
			}
			if got := path(list.Result, "tools", 2, "_meta", ext.MetaServer); got != "up" {
				t.Errorf("the always-listed tool's server: got %v, want up", got)
			}
		})
	}
}

// describedResolving is a resolvingCatalog with a directory of servers.
type describedResolving struct{ resolvingCatalog }

func (describedResolving) Directory(context.Context) ([]ext.ServerEntry, error) {
	return []ext.ServerEntry{{Name: "srv", About: "screenshots", Items: 3}, {Name: "up", Items: 1}}, nil
}
