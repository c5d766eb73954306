package index

import (
	"context"
	"reflect"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// selectCatalog has a public server, a server of the ops group, and a
// URI and a template that both list.
func selectCatalog(t *testing.T) *Index {
	t.Helper()
	return mustBuild(t, writeCatalog(t, map[string]string{
		"open.json": `{"server":"open","serverInfo":{"name":"Open","description":"Weather and maps.  For everyone. Really."},
			"tools":[{"name":"weather","description":"Show the weather","inputSchema":{"type":"object"}},
				{"name":"forecast","description":"Forecast","inputSchema":{"type":"object"}},
				{"name":"forecast_map","description":"Forecast on a map","inputSchema":{"type":"object"}}],
			"prompts":[{"name":"brief","description":"A weather brief"}],
			"resources":[{"uri":"memo://shared","name":"shared"}],
			"resourceTemplates":[{"uriTemplate":"memo://notes/{id}","name":"note"}]}`,
		"ops.json": `{"server":"ops","visibility":{"groups":["ops"]},
			"tools":[{"name":"launch","description":"Launch","inputSchema":{"type":"object"}},
				{"name":"launch_reactor","description":"Launch the reactor","inputSchema":{"type":"object"}},
				{"name":"reactor_status","description":"Reactor status","inputSchema":{"type":"object"}}],
			"resources":[{"uri":"memo://shared","name":"shared too"}],
			"resourceTemplates":[{"uriTemplate":"memo://notes/{id}","name":"ops note"},{"uriTemplate":"bad://{","name":"broken"}]}`,
	}))
}

// TestSelect: Select finds items by their exact key, those the caller
// sees, and nothing for a hidden item as for an unknown one.
func TestSelect(t *testing.T) {
	t.Parallel()
	x := selectCatalog(t)
	public := context.Background()
	ops := ext.WithAccess(public, ext.Access{Groups: []string{"ops"}})
	for _, test := range []struct {
		ctx  context.Context
		kind ext.Kind
		name string
		want []string // servers of the items found
	}{
		{public, ext.KindTool, "open__weather", []string{"open"}},
		{public, ext.KindTool, "ops__launch", nil},
		{ops, ext.KindTool, "ops__launch", []string{"ops"}},
		{public, ext.KindTool, "open__nothing", nil},
		{public, ext.KindTool, "Open__weather", nil},
		{public, ext.KindTool, "weather", nil},
		{public, ext.KindPrompt, "open__brief", []string{"open"}},
		{public, ext.KindResource, "memo://shared", []string{"open"}},
		{ops, ext.KindResource, "memo://shared", []string{"open", "ops"}},
		{public, ext.KindResource, "memo://notes/1", nil},
		{public, ext.KindResourceTemplate, "memo://notes/{id}", []string{"open"}},
		{ops, ext.KindResourceTemplate, "memo://notes/{id}", []string{"open", "ops"}},
		{ops, ext.KindResourceTemplate, "bad://{", []string{"ops"}},
		{ops, ext.KindResourceTemplate, "memo://notes/1", nil},
	} {
		hits, err := x.Select(test.ctx, test.kind, test.name)
		var got []string
		for _, h := range hits {
			got = append(got, h.Server)
			if len(h.Object) == 0 || h.Score != 0 {
				t.Errorf("%s %s: got hit %+v, want its object and no score", test.kind, test.name, h)
			}
		}
		if err != nil || !reflect.DeepEqual(got, test.want) {
			t.Errorf("%s %s as %v: got %v, %v; want %v", test.kind, test.name, ext.AccessFrom(test.ctx).Groups, got, err, test.want)
		}
	}
}

// TestDirectory: each caller's directory holds the servers it sees an
// item of, with their own description, or else their tools' commonest
// words when the caller sees all of the server's items.
func TestDirectory(t *testing.T) {
	t.Parallel()
	x := selectCatalog(t)
	for _, test := range []struct {
		groups []string
		want   []ext.ServerEntry
	}{
		{nil, []ext.ServerEntry{{Name: "open", About: "Weather and maps", Items: 6}}},
		{[]string{"ops"}, []ext.ServerEntry{{Name: "open", About: "Weather and maps", Items: 6}, {Name: "ops", About: "launch, reactor", Items: 6}}},
	} {
		got, err := x.Directory(ext.WithAccess(context.Background(), ext.Access{Groups: test.groups}))
		if err != nil || !reflect.DeepEqual(got, test.want) {
			t.Errorf("groups %v: got %+v, %v; want %+v", test.groups, got, err, test.want)
		}
	}
}

// TestDirectoryIsTheCallersOwn: a server some of whose items a caller
// may not see is named to it as a catalog of the items it sees names it:
// with the words of those items, never of the hidden ones, and not
// without topics (which would tell it that hidden items exist there).
func TestDirectoryIsTheCallersOwn(t *testing.T) {
	t.Parallel()
	const open = `{"name":"list_invoices","description":"x","inputSchema":{"type":"object"}},
			{"name":"pay_invoice","description":"x","inputSchema":{"type":"object"}}`
	hidden := `{"name":"fire_employee","description":"x","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/visibility":{"groups":["hr"]}}},
			{"name":"promote_employee","description":"x","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/visibility":{"groups":["hr"]}}},
			{"name":"employee_payroll","description":"x","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/visibility":{"groups":["hr"]}}}`
	x := mustBuild(t, writeCatalog(t, map[string]string{"mixed.json": `{"server":"mixed","tools":[` + open + `,` + hidden + `]}`}))
	alone := mustBuild(t, writeCatalog(t, map[string]string{"mixed.json": `{"server":"mixed","tools":[` + open + `]}`}))
	public, _ := x.Directory(context.Background())
	want, _ := alone.Directory(context.Background())
	if !reflect.DeepEqual(public, want) || len(want) != 1 || want[0].About != "invoice" {
		t.Errorf("public caller: got %+v, want %+v (the directory of its own items, topic invoice)", public, want)
	}
	hr, _ := x.Directory(ext.WithAccess(context.Background(), ext.Access{Groups: []string{"hr"}}))
	if len(hr) != 1 || hr[0].About != "employee, invoice" || hr[0].Items != 5 {
		t.Errorf("hr: got %+v, want the words of all five tools", hr)
	}
}
