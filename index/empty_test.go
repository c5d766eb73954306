package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestBuildRefusesEmptyCatalog: a catalog whose servers list no items (as
// a crawl of servers that answer nothing writes) is refused with an error
// naming the catalog and its servers, never a panic, and leaves no bundle
// and nothing beside it.
func TestBuildRefusesEmptyCatalog(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"empty lists", map[string]string{
			"quiet.json": `{"server":"quiet","tools":[],"prompts":[],"resources":[],"resourceTemplates":[]}`,
		}, "(server quiet) lists no tools, prompts, resources or resource templates"},
		{"no lists, two servers", map[string]string{
			"a.json": `{"server":"a"}`,
			"b.json": `{"server":"b","tools":null,"resourceContents":[]}`,
		}, "(servers a, b) lists no tools"},
		{"many servers", map[string]string{
			"s1.json": `{"server":"s1"}`, "s2.json": `{"server":"s2"}`, "s3.json": `{"server":"s3"}`,
			"s4.json": `{"server":"s4"}`, "s5.json": `{"server":"s5"}`, "s6.json": `{"server":"s6"}`, "s7.json": `{"server":"s7"}`,
		}, "(servers s1, s2, s3, s4, s5, and 2 more)"},
	} {
		t.Run(test.name, func(t *testing.T) {
			cat := writeCatalog(t, test.files)
			parent := t.TempDir()
			dir := filepath.Join(parent, "bundle")
			var err error
			noPanic(t, "Build", func() { _, err = BuildDir(cat, dir, nil) })
			if err == nil || !strings.Contains(err.Error(), "catalog "+cat+" ") || !strings.Contains(err.Error(), test.want) {
				t.Fatalf("got %v, want an error naming catalog %s and %q", err, cat, test.want)
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 0 {
				t.Errorf("the refused build left %v", entries)
			}
		})
	}
	t.Run("catalog made in code", func(t *testing.T) {
		var err error
		noPanic(t, "Build", func() { _, err = Build(&catalog.Catalog{}, filepath.Join(t.TempDir(), "bundle"), nil) })
		if err == nil || !strings.Contains(err.Error(), "the catalog (no server) lists no tools") {
			t.Fatalf("got %v, want the empty catalog refused", err)
		}
	})
}

// TestBuildOfSomeKinds: a catalog with items of one kind only, beside a
// server that lists nothing, builds; its kind is searched and listed, the
// other kinds answer empty pages.
func TestBuildOfSomeKinds(t *testing.T) {
	t.Parallel()
	items := map[ext.Kind]string{
		ext.KindTool:             `"tools":[{"name":"forecast","description":"weather forecast","inputSchema":{"type":"object"}}]`,
		ext.KindPrompt:           `"prompts":[{"name":"forecast","description":"weather forecast"}]`,
		ext.KindResource:         `"resources":[{"name":"forecast","uri":"file:///forecast","description":"weather forecast"}]`,
		ext.KindResourceTemplate: `"resourceTemplates":[{"name":"forecast","uriTemplate":"file:///forecast/{day}","description":"weather forecast"}]`,
	}
	ctx := context.Background()
	for kind, list := range items {
		t.Run(string(kind), func(t *testing.T) {
			x := mustBuild(t, writeCatalog(t, map[string]string{
				"quiet.json":   `{"server":"quiet","tools":[],"prompts":[]}`,
				"weather.json": `{"server":"weather",` + list + `}`,
			}))
			for _, k := range ext.Kinds {
				want := 0
				if k == kind {
					want = 1
				}
				page, err := x.Search(ctx, ext.Query{Kind: k, Text: "weather forecast", Limit: 5})
				if err != nil || len(page.Items) != want {
					t.Errorf("search %s: got %v, %v; want %d items", k, page, err, want)
				}
				list, err := x.List(ctx, k, 0, 5)
				if err != nil || len(list.Items) != want {
					t.Errorf("list %s: got %v, %v; want %d items", k, list, err, want)
				}
			}
		})
	}
}
