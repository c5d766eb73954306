package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// promises are the words of a text that says the servers can be reached
// or their tools called through this one.
var promises = []string{"reach", "call_tool", "Then call", "do not call", "by its exact name"}

func promisesIn(text string) []string {
	var found []string
	for _, p := range promises {
		if strings.Contains(text, p) {
			found = append(found, p)
		}
	}
	return found
}

// TestHonestMetaMode: in meta-tool mode without call_tool (a catalog
// without upstreams), neither the instructions nor search_tools'
// description promise reaching or calling servers, and search_tools says
// what its results are for; with call_tool (and a caller) both say the
// servers are reached and name call_tool.
func TestHonestMetaMode(t *testing.T) {
	t.Parallel()
	cat := describedResolving{newResolvingCatalog()}
	for _, test := range []struct {
		name     string
		proxy    bool
		caller   ext.Caller
		promises bool
	}{
		{"without upstreams", false, nil, false},
		{"without upstreams, a caller", false, callerFunc(nil), false},
		{"with upstreams", true, callerFunc(nil), true},
	} {
		t.Run(test.name, func(t *testing.T) {
			m, err := NewMetaTools(context.Background(), cat, MetaOptions{Mode: ListMeta, Proxy: test.proxy, Servers: []string{"up"}})
			if err != nil {
				t.Fatal(err)
			}
			s := newTestServer(t, cat, &Options{Meta: m, Caller: test.caller})
			init := call(t, s, "initialize", initParams("2025-11-25"))
			instructions, _ := init.Result["instructions"].(string)
			description, _ := path(call(t, s, "tools/list", nil).Result, "tools", 0, "description").(string)
			if !strings.Contains(instructions, "Servers") || !strings.Contains(description, "Servers") {
				t.Fatalf("no directory: instructions %q, search_tools %q", instructions, description)
			}
			if got := promisesIn(description); (len(got) > 0) != test.promises {
				t.Errorf("search_tools says %q (%v), want promises of calls: %v", description, got, test.promises)
			}
			if got := promisesIn(instructions); (len(got) > 0) != test.promises {
				t.Errorf("the instructions say %q (%v), want promises of calls: %v", instructions, got, test.promises)
			}
			if !test.promises && !strings.Contains(description, "It does not run them: the results say which tools exist and what they take.") {
				t.Errorf("search_tools does not say what its results are for: %q", description)
			}
		})
	}
}

// TestCallWithoutUpstream: a call of an item the caller sees that no
// upstream serves says so, by tools/call (-32602) and by call_tool (an
// isError result), apart from an unknown item's.
func TestCallWithoutUpstream(t *testing.T) {
	t.Parallel()
	cat := newResolvingCatalog()
	m, err := NewMetaTools(context.Background(), cat, MetaOptions{Mode: ListMeta, Proxy: true, Servers: []string{"up"}})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, cat, &Options{Meta: m, Caller: callerFunc(nil)})
	for name, want := range map[string]string{
		"srv__tool_001": `tool "srv__tool_001" is indexed here for search, but no upstream serves it: this server forwards no calls to its server "srv"`,
		"srv__nothing":  `unknown tool "srv__nothing"`,
	} {
		r := call(t, s, "tools/call", map[string]any{"name": name})
		if r.Error == nil || r.Error.Code != ext.CodeInvalidParams || r.Error.Message != "invalid params: "+want {
			t.Errorf("tools/call %s: got %+v, want -32602 %q", name, r.Error, want)
		}
		r = call(t, s, "tools/call", map[string]any{"name": CallToolName, "arguments": map[string]any{"name": name}})
		if text := fmt.Sprint(path(r.Result, "content", 0, "text")); r.Result["isError"] != true || !strings.HasPrefix(text, want) {
			t.Errorf("call_tool %s: got %v, want an isError result %q", name, r.Result, want)
		}
	}
}
