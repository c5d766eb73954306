package server

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestTableServesTheExtension: every advertised search method, and the
// search and list method of every kind, is in the table and runs under the
// request deadline; the forwarded calls do not.
func TestTableServesTheExtension(t *testing.T) {
	t.Parallel()
	var want []string
	want = append(want, ext.SearchMethods...)
	for _, k := range ext.Kinds {
		want = append(want, k.SearchMethod(), listMethodName(k))
	}
	for _, name := range want {
		if m, ok := methods[name]; !ok || m.handle == nil || !m.deadline || m.lifecycle || m.era != anyEra {
			t.Errorf("%s: got entry %+v (in the table: %v), want one run under the deadline in every era", name, m, ok)
		}
	}
	for _, name := range []string{"tools/call", "prompts/get", "resources/read"} {
		if m := methods[name]; m.handle == nil || m.deadline {
			t.Errorf("%s: got entry %+v, want a forwarded call bounded by the upstream timeout", name, m)
		}
	}
}

func listMethodName(k ext.Kind) string {
	if k == ext.KindResourceTemplate {
		return "resources/templates/list"
	}
	return k.ResultKey() + "/list"
}
