package library_test

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"airtable-mcp-server@1.14.0": "airtable-mcp-server",
		"@scope/pkg@2.0.0-beta.1":    "@scope/pkg",
		"@scope/pkg":                 "@scope/pkg",
		"plain":                      "plain",
		"":                           "",
	} {
		if got := library.PackageName(in); got != want {
			t.Errorf("PackageName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSimilar(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		match bool
	}{
		{"List records from a table", "list records from a table.", true},                          // the same words
		{"Get it", "get it", true},                                                                 // short, but the same words
		{"Get it", "Get them", false},                                                              // short and different
		{"List the records of a table in a base", "List the records of a table in the base", true}, // one word changed
		{"List the records of a table in a base", "Delete the records of a table", false},
		{"Create a comment on a record", "Adds a remark to one row", false}, // reworded: not a rename match
		{"", "", false},
	} {
		if got := library.Similar(c.a, c.b) >= library.SimilarThreshold; got != c.match {
			t.Errorf("Similar(%q, %q) = %.2f: match %v, want %v", c.a, c.b, library.Similar(c.a, c.b), got, c.match)
		}
	}
}

// testLibrary is a library of two servers: "acme-mcp" (a package) and
// "widgets" (known by its serverInfo.name only).
func testLibrary(t *testing.T) *library.Library {
	t.Helper()
	lib, err := library.Load(fstest.MapFS{
		"acme-mcp.json": {Data: []byte(`{"identity":"acme-mcp","serverInfo":"acme","source":{"file":"a.json","package":"acme-mcp@1.0.0","license":"MIT"},"items":[
 {"kind":"tool","name":"list_records","description":"List the records of a table in a base","requests":["show me the rows of my table"]},
 {"kind":"tool","name":"create_comment","description":"Create a comment on a record","requests":["leave a note on a row"]},
 {"kind":"tool","name":"delete_base","description":"Delete a whole base and every table in it","requests":["remove my base"]}]}`)},
		"widgets.json": {Data: []byte(`{"identity":"widgets","serverInfo":"widgets","source":{"file":"w.json"},"items":[
 {"kind":"tool","name":"spin","description":"Spin a widget around its axis for a while","requests":["make the widget turn"]}]}`)},
	}, "test")
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func item(server, name, desc string, requests ...string) catalog.Item {
	return catalog.Item{Kind: ext.KindTool, Server: server, Name: server + "__" + name, UpstreamName: name, Description: desc, Requests: requests}
}

// TestAttach: a team's crawl of a known public server — under its own
// key, at a newer version, with a tool renamed and a description
// reworded — gets the library's requests for its unchanged and renamed
// tools; a team's own requests win; another server with a library
// server's key, or with the same description, borrows nothing.
func TestAttach(t *testing.T) {
	cat := &catalog.Catalog{
		Servers: []catalog.Server{
			{Name: "team-acme", Package: "acme-mcp@2.3.0"},
			{Name: "widgets", InfoName: "gadgets"},                         // the library's key, another server
			{Name: "spinner", InfoName: "widgets"},                         // found by serverInfo.name
			{Name: "mine", Package: "my-private@1.0"},                      // unknown
			{Name: "claim", Package: "team-spin@1.0", InfoName: "widgets"}, // an unknown package, a known serverInfo.name
		},
		Items: []catalog.Item{
			item("team-acme", "list_table_records", "List the records of a table in the base"), // renamed
			item("team-acme", "create_comment", "Adds a remark to one row"),                    // reworded
			item("team-acme", "delete_base", "Delete a whole base", "drop the base we own"),    // its own requests
			item("team-acme", "brand_new", "Something no version had"),
			item("widgets", "spin", "Spin a widget around its axis for a while"),
			item("spinner", "rotate", "Spin a widget around its axis for a while"),
			item("mine", "create_comment", "Create a comment on a record"),
			item("claim", "rotate", "Spin a widget around its axis for a while"),
		},
	}
	cov := library.Attach(cat, testLibrary(t))
	want := map[string][]string{
		"team-acme__list_table_records": {"show me the rows of my table"},
		"team-acme__create_comment":     {"leave a note on a row"},
		"team-acme__delete_base":        {"drop the base we own"},
		"team-acme__brand_new":          nil,
		"widgets__spin":                 nil,
		"spinner__rotate":               {"make the widget turn"},
		"mine__create_comment":          nil,
		"claim__rotate":                 nil,
	}
	for _, it := range cat.Items {
		if !slices.Equal(it.Requests, want[it.Name]) {
			t.Errorf("%s: requests %q, want %q", it.Name, it.Requests, want[it.Name])
		}
		fromLib := it.RequestsFrom == catalog.RequestsFromLibrary
		if fromLib != (want[it.Name] != nil && it.Name != "team-acme__delete_base") {
			t.Errorf("%s: RequestsFrom %q", it.Name, it.RequestsFrom)
		}
	}
	if cov.Own != 1 || cov.FromLibrary != 3 || cov.ByDescription != 2 || cov.None != 4 || cov.Library == "" {
		t.Errorf("coverage %+v: want 1 own, 3 the library's (2 by description), 4 none", cov)
	}
	if got := cov.ServersWithout(); !slices.Equal(got, []string{"widgets", "mine", "claim"}) {
		t.Errorf("servers without: %q", got)
	}
	if cov.Servers[0].Identity != "acme-mcp" || cov.Servers[1].Identity != "" || cov.Servers[2].Identity != "widgets" {
		t.Errorf("identities %+v", cov.Servers)
	}
}

// TestAttachRenameNeedsOneBestMatch: two new items that fit one library
// item equally get nothing, and a library item whose name an item still
// carries is not given to a renamed one.
func TestAttachRenameNeedsOneBestMatch(t *testing.T) {
	cat := &catalog.Catalog{
		Servers: []catalog.Server{{Name: "a", Package: "acme-mcp"}},
		Items: []catalog.Item{
			item("a", "records_1", "List the records of a table in a base"),
			item("a", "records_2", "List the records of a table in a base"),
			item("a", "create_comment", "Totally new text", "own"),
			item("a", "comment_create", "Create a comment on a record"),
		},
	}
	cov := library.Attach(cat, testLibrary(t))
	if cov.FromLibrary != 0 {
		for _, it := range cat.Items {
			t.Logf("%s %q", it.Name, it.Requests)
		}
		t.Errorf("coverage %+v: want nothing from the library", cov)
	}
}

// TestAttachOff: a nil library attaches nothing and counts the catalog's
// own.
func TestAttachOff(t *testing.T) {
	cat := &catalog.Catalog{
		Servers: []catalog.Server{{Name: "a", Package: "acme-mcp"}},
		Items:   []catalog.Item{item("a", "list_records", "x"), item("a", "y", "y", "own")},
	}
	cov := library.Attach(cat, nil)
	if cov.FromLibrary != 0 || cov.Own != 1 || cov.None != 1 || cov.Library != "" || cat.Items[0].Requests != nil {
		t.Errorf("coverage %+v, items %+v", cov, cat.Items)
	}
}

// TestLibraryVersion: any change of a request changes the version; the
// order of files does not.
func TestLibraryVersion(t *testing.T) {
	f := func(req string) *library.File {
		return &library.File{Identity: "x", Items: []library.Item{{Kind: ext.KindTool, Name: "t", Requests: []string{req}}}}
	}
	g := &library.File{Identity: "y", Items: []library.Item{{Kind: ext.KindTool, Name: "u", Requests: []string{"r"}}}}
	a, _ := library.New([]*library.File{f("one"), g})
	b, _ := library.New([]*library.File{g, f("one")})
	c, _ := library.New([]*library.File{f("two"), g})
	if a.Version() != b.Version() || a.Version() == c.Version() || len(a.Version()) != 16 {
		t.Errorf("versions %s %s %s", a.Version(), b.Version(), c.Version())
	}
	if _, err := library.New([]*library.File{f("one"), f("two")}); err == nil {
		t.Error("two files of one identity: no error")
	}
}

func TestLoadNamesFileAndField(t *testing.T) {
	_, err := library.Load(fstest.MapFS{"bad.json": {Data: []byte(`{"identity":"b","source":{},"items":[{"kind":"tool","name":"t","requests":[]}]}`)}}, "lib")
	if err == nil || err.Error() != `library lib/bad.json: items[0] "t": field requests: 0 requests, want 1 to 32` {
		t.Errorf("got %v", err)
	}
}

func TestCoverageString(t *testing.T) {
	c := &library.Coverage{Library: "abc", Own: 1, FromLibrary: 2, ByDescription: 1, None: 3}
	for i := range 12 {
		c.Servers = append(c.Servers, library.ServerCoverage{Server: string(rune('a' + i)), None: 1})
	}
	want := "requests (library abc): 1 items their own, 2 the library's (1 matched by description), 3 none; 12 servers without: a, b, c, d, e, f, g, h, i, j and 2 more (mcpsearch requests coverage lists them)"
	if got := c.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	c.Servers, c.Library = c.Servers[:1], ""
	if got := c.String(); got != "requests (library off): 1 items their own, 2 the library's (1 matched by description), 3 none; 1 server without: a" {
		t.Errorf("got %q", got)
	}
}
