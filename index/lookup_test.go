package index

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// listNames returns the canonical names of every item of kind k, in list
// order.
func listNames(tb testing.TB, x *Index, k ext.Kind) []string {
	tb.Helper()
	page, err := x.List(context.Background(), k, 0, x.Manifest().Counts[k])
	if err != nil {
		tb.Fatal(err)
	}
	names := make([]string, len(page.Items))
	for i, h := range page.Items {
		var obj struct{ Name string }
		decode(tb, h.Object, &obj)
		names[i] = obj.Name
	}
	return names
}

// TestNamesUniqueAndStable: the tool names that several servers of the
// bundled catalog share get distinct canonical names, and a rebuild gives
// every item the same name in the same place.
func TestNamesUniqueAndStable(t *testing.T) {
	t.Parallel()
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string][]string{}
	canonical := map[string]string{}
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool {
			servers[it.UpstreamName] = append(servers[it.UpstreamName], it.Server)
			canonical[it.Server+"\x00"+it.UpstreamName] = it.Name
		}
	}
	shared, distinct := 0, map[string]bool{}
	for name, s := range servers {
		if len(s) < 2 {
			continue
		}
		shared++
		for _, server := range s {
			distinct[canonical[server+"\x00"+name]] = true
		}
	}
	if shared == 0 {
		t.Fatal("no tool name is shared by two servers: the test proves nothing")
	}
	if want := countShared(servers); len(distinct) != want {
		t.Errorf("%d tool names shared by several servers: got %d distinct canonical names for their %d tools", shared, len(distinct), want)
	}
	t.Logf("%d tool names are shared by several servers (%d tools)", shared, len(distinct))
	first := listNames(t, defaultIndex(t), ext.KindTool)
	if n := len(slices.Compact(slices.Sorted(slices.Values(first)))); n != len(first) {
		t.Errorf("got %d distinct canonical names for %d tools", n, len(first))
	}
	second := listNames(t, mustBuild(t, defaultCatalog), ext.KindTool)
	if !slices.Equal(first, second) {
		t.Errorf("a rebuild changed the tool names: %d and %d names, first difference %q", len(first), len(second), firstDiff(first, second))
	}
}

// countShared counts the tools whose name another server's tool has too.
func countShared(servers map[string][]string) int {
	n := 0
	for _, s := range servers {
		if len(s) > 1 {
			n += len(s)
		}
	}
	return n
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + " / " + b[i]
		}
	}
	return "(lengths)"
}

// TestResolveEveryName: every tool and prompt of the bundled catalog is
// found by its canonical name, with its server and upstream name.
func TestResolveEveryName(t *testing.T) {
	t.Parallel()
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := defaultIndex(t)
	ctx := context.Background()
	for _, it := range cat.Items {
		if it.Kind != ext.KindTool && it.Kind != ext.KindPrompt {
			continue
		}
		got, err := x.Resolve(ctx, it.Kind, it.Name)
		if err != nil {
			t.Fatalf("Resolve(%s %q): %v", it.Kind, it.Name, err)
		}
		if got.Server != it.Server || got.UpstreamName != it.UpstreamName || got.Name != it.Name {
			t.Fatalf("Resolve(%s %q): got server %q, upstream name %q; want %q, %q", it.Kind, it.Name, got.Server, got.UpstreamName, it.Server, it.UpstreamName)
		}
	}
	for _, name := range []string{"", "playwright__", "playwright__nope", "zzz", "browser_take_screenshot"} {
		if _, err := x.Resolve(ctx, ext.KindTool, name); !errors.Is(err, ext.ErrNotFound) {
			t.Errorf("Resolve(tool %q): got %v, want ErrNotFound", name, err)
		}
	}
}

// TestResolveSeparator: a catalog built with another separator names and
// finds its items with it.
func TestResolveSeparator(t *testing.T) {
	t.Parallel()
	dir := writeCatalog(t, map[string]string{
		"a.json": `{"server":"a","tools":[{"name":"run","inputSchema":{"type":"object"}}]}`,
		"b.json": `{"server":"b","tools":[{"name":"run","inputSchema":{"type":"object"}}]}`,
	})
	cat, err := catalog.LoadDir(dir, &catalog.LoadOptions{Separator: "."})
	if err != nil {
		t.Fatal(err)
	}
	bundle := t.TempDir() + "/bundle"
	if _, err := Build(cat, bundle, nil); err != nil {
		t.Fatal(err)
	}
	x, err := Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := listNames(t, x, ext.KindTool); !slices.Equal(got, []string{"a.run", "b.run"}) {
		t.Errorf("got names %v, want a.run, b.run", got)
	}
	if tg, err := x.Resolve(context.Background(), ext.KindTool, "b.run"); err != nil || tg.Server != "b" || tg.UpstreamName != "run" {
		t.Errorf("Resolve(b.run): got %+v, %v", tg, err)
	}
}

// TestResolveResources: resources by URI, then templates; a URI that two
// servers list goes to the one with an upstream.
func TestResolveResources(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, writeCatalog(t, map[string]string{
		"docs.json": `{"server":"docs","resources":[{"uri":"memo://shared","name":"shared"},{"uri":"memo://notes/9","name":"nine"}],
			"resourceTemplates":[{"uriTemplate":"memo://notes/{id}","name":"note"}]}`,
		"live.json": `{"server":"live","upstream":{"transport":"streamable-http","url":"http://127.0.0.1:1/mcp"},
			"resources":[{"uri":"memo://shared","name":"shared"},{"uri":"memo://only-live","name":"live"}],
			"resourceTemplates":[{"uriTemplate":"memo://notes/{id}","name":"note"},{"uriTemplate":"file:///{+path}","name":"file"}]}`,
	}))
	ctx := context.Background()
	for _, test := range []struct{ uri, server string }{
		{"memo://shared", "live"},
		{"memo://only-live", "live"},
		{"memo://notes/7", "live"},
		{"memo://notes/9", "live"}, // docs lists it, but only live can be called
		{"file:///etc/hosts", "live"},
	} {
		tg, err := x.Resolve(ctx, ext.KindResource, test.uri)
		if err != nil || tg.Server != test.server || tg.UpstreamName != test.uri || len(tg.Upstream) == 0 {
			t.Errorf("Resolve(%s): got %+v, %v; want server %s with its upstream", test.uri, tg, err, test.server)
		}
	}
	if _, err := x.Resolve(ctx, ext.KindResource, "memo://nowhere"); !errors.Is(err, ext.ErrNotFound) {
		t.Errorf("Resolve(memo://nowhere): got %v, want ErrNotFound", err)
	}
}
