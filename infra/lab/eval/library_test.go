package eval

import (
	"slices"
	"testing"

	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
)

// TestAttachLibrary: the tools of a set get the library's requests only
// for the servers a team's build would know — by the package it names,
// or by the server field as serverInfo.name — and keep their own.
func TestAttachLibrary(t *testing.T) {
	lib, err := librarydata.Library()
	if err != nil {
		t.Fatal(err)
	}
	chart, other := "MCP Server Chart", "Our Charts"
	tools := func() []Tool {
		return []Tool{
			{ID: "a", Name: "generate_pie_chart", Description: "d", Server: &chart},
			{ID: "b", Name: "generate_pie_chart", Description: "d", Server: &other},
			{ID: "c", Name: "generate_bar_chart", Description: "d", Server: &chart, Requests: []string{"our own"}},
		}
	}
	byPackage := tools()
	got := AttachLibrary(byPackage, lib, func(server string) string {
		if server == chart {
			return "@antv/mcp-server-chart"
		}
		return ""
	})
	if got.Tools != 3 || got.Covered != 1 || !slices.Equal(got.Identities, []string{"@antv/mcp-server-chart"}) {
		t.Errorf("by package: %+v, want 1 of 3 covered by @antv/mcp-server-chart", got)
	}
	if len(byPackage[0].Requests) < 6 || byPackage[1].Requests != nil || !slices.Equal(byPackage[2].Requests, []string{"our own"}) {
		t.Errorf("by package: requests %q / %q / %q: want the library's, none, our own", byPackage[0].Requests, byPackage[1].Requests, byPackage[2].Requests)
	}
	byName := tools()
	if got := AttachLibrary(byName, lib, func(string) string { return "" }); got.Covered != 0 {
		t.Errorf("by serverInfo.name %q (not the library's %q): %+v, want none covered", chart, "mcp-server-chart", got)
	}
}
