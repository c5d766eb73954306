package retrieval_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// filterCatalog has a public server with a non-standard annotation, a
// server only the group ops sees with another, and a server of prompts.
func filterCatalog(tb testing.TB) *retrievaltest.Bundle {
	tb.Helper()
	return retrievaltest.Files(tb, map[string]string{
		"open.json": `{"server":"open","tools":[
			{"name":"forecast","description":"Weather forecast for a city","inputSchema":{"type":"object"},"annotations":{"category":"weather","readOnlyHint":true}},
			{"name":"alerts","description":"Storm alerts for a region","inputSchema":{"type":"object"}}]}`,
		"secret.json": `{"server":"secret","visibility":{"groups":["ops"]},"tools":[
			{"name":"launch","description":"Launch the cluster","inputSchema":{"type":"object"},"annotations":{"team":"red"}}]}`,
		"talk.json": `{"server":"talk","prompts":[{"name":"greet","description":"Greet the weather reader"}]}`,
	})
}

var opsCaller = ext.Access{Groups: []string{"ops"}}

// TestFilterAnnotations: an annotation filter that cannot match by its
// name or type is -32602 naming it and the names the caller may use; a
// name only hidden tools carry is refused exactly as an unknown one.
func TestFilterAnnotations(t *testing.T) {
	t.Parallel()
	x := filterCatalog(t)
	const standard = "title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint"
	for _, test := range []struct {
		name        string
		kind        ext.Kind
		access      ext.Access
		annotations map[string]any
		err         string // "" when the filter is accepted
	}{
		{"standard", ext.KindTool, ext.Access{}, map[string]any{"readOnlyHint": true}, ""},
		{"standard in another case", ext.KindTool, ext.Access{}, map[string]any{"READONLYHINT": true}, ""},
		{"catalog's own", ext.KindTool, ext.Access{}, map[string]any{"category": "weather"}, ""},
		{"unknown", ext.KindTool, ext.Access{}, map[string]any{"colour": "red"},
			"filter.annotations.colour: unknown annotation (known: " + standard + ", category)"},
		{"hidden tools' own", ext.KindTool, ext.Access{}, map[string]any{"team": "red"},
			"filter.annotations.team: unknown annotation (known: " + standard + ", category)"},
		{"hidden tools' own, seen", ext.KindTool, opsCaller, map[string]any{"team": "red"}, ""},
		{"unknown, listing what ops sees", ext.KindTool, opsCaller, map[string]any{"colour": "red"},
			"(known: " + standard + ", category, team)"},
		{"hint not a boolean", ext.KindTool, ext.Access{}, map[string]any{"readOnlyHint": "yes"}, "filter.annotations.readOnlyHint must be a boolean"},
		{"title not a string", ext.KindTool, ext.Access{}, map[string]any{"title": true}, "filter.annotations.title must be a string"},
		{"unknown and long", ext.KindTool, ext.Access{}, map[string]any{strings.Repeat("x", 100_000): "red"},
			`filter.annotations."` + strings.Repeat("x", ext.MaxEchoBytes) + `"… (100000 bytes): unknown annotation`},
		{"prompts have none", ext.KindPrompt, ext.Access{}, map[string]any{"readOnlyHint": true}, "filter.annotations applies to tools only"},
		{"one hint in two spellings", ext.KindTool, ext.Access{}, map[string]any{"readOnlyHint": true, "READONLYHINT": true},
			"filter.annotations names one annotation twice, as READONLYHINT and readOnlyHint (names match in any case)"},
		{"one hint in two spellings, two values", ext.KindTool, ext.Access{}, map[string]any{"readonlyhint": false, "readOnlyHint": true}, "names one annotation twice"},
		{"the catalog's own in two spellings", ext.KindTool, ext.Access{}, map[string]any{"category": "weather", "Category": "weather"}, "as Category and category"},
		{"two spellings of an unknown one", ext.KindTool, ext.Access{}, map[string]any{"colour": "red", "COLOUR": "red"}, "names one annotation twice"},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := x.Search(context.Background(), ext.Query{Kind: test.kind, Text: "weather", Limit: 5, Filter: ext.Filter{Annotations: test.annotations}}, test.access)
			switch {
			case test.err == "" && err != nil:
				t.Errorf("got error %v, want the filter accepted", err)
			case test.err != "" && (!errors.Is(err, ext.ErrInvalidParams) || !strings.Contains(err.Error(), test.err)):
				t.Errorf("got error %v, want -32602 containing %q", err, test.err)
			}
		})
	}
}

// TestFilterServersHint: an empty page whose filter names a server without
// items of the kind (to the caller) says so, instead of blaming the
// query's words; a server the caller may not see gets the very hint of a
// server that does not exist.
func TestFilterServersHint(t *testing.T) {
	t.Parallel()
	x := filterCatalog(t)
	for _, test := range []struct {
		name    string
		kind    ext.Kind
		access  ext.Access
		query   string
		servers []string
		hint    string // "" when the page has items
	}{
		{"typo", ext.KindTool, ext.Access{}, "forecast", []string{"opne"},
			`filter.servers names an unknown server "opne" (did you mean "open"?): no server of that name has tools you can search`},
		{"a word too many", ext.KindTool, ext.Access{}, "forecast", []string{"mcp-open"},
			`filter.servers names an unknown server "mcp-open" (did you mean "open"?): no server of that name has tools you can search`},
		{"typo of a hidden server", ext.KindTool, ext.Access{}, "forecast", []string{"secrt"},
			`filter.servers names an unknown server "secrt": no server of that name has tools you can search`},
		{"typo of a hidden server, seen", ext.KindTool, opsCaller, "launch", []string{"Secrt"},
			`filter.servers names an unknown server "Secrt" (did you mean "secret"?): no server of that name has tools you can search`},
		{"many unknown", ext.KindTool, ext.Access{}, "forecast", manyServers(1000),
			`filter.servers names unknown servers "a000000", "a000001", "a000002" and 997 more: no server of those names has tools you can search`},
		{"long name", ext.KindTool, ext.Access{}, "forecast", []string{strings.Repeat("é", 40)},
			`filter.servers names an unknown server "` + strings.Repeat("é", 32) + `"… (80 bytes): no server of that name has tools you can search`},
		{"hidden", ext.KindTool, ext.Access{}, "forecast", []string{"secret"},
			`filter.servers names an unknown server "secret": no server of that name has tools you can search`},
		{"hidden, seen", ext.KindTool, opsCaller, "launch", []string{"secret"}, ""},
		{"two unknown", ext.KindTool, ext.Access{}, "forecast", []string{"secret", "opne"},
			`filter.servers names unknown servers "secret" and "opne" (did you mean "open"?): no server of those names has tools you can search`},
		{"no items of the kind", ext.KindTool, ext.Access{}, "greet", []string{"talk"},
			`filter.servers names an unknown server "talk": no server of that name has tools you can search`},
		{"of the kind", ext.KindPrompt, ext.Access{}, "greet", []string{"talk"}, ""},
		{"one known, one not, no word matches", ext.KindTool, ext.Access{}, "launch", []string{"open", "secret"},
			`filter.servers names an unknown server "secret": no server of that name has tools you can search; no item that the filter keeps matches any word of the query`},
		{"known server, words elsewhere", ext.KindTool, ext.Access{}, "greet", []string{"open"},
			"no item that the filter keeps matches any word of the query"},
		{"no filter, no word", ext.KindTool, ext.Access{}, "greet", nil, "no item matches any word of the query"},
	} {
		t.Run(test.name, func(t *testing.T) {
			res, err := x.Search(context.Background(), ext.Query{Kind: test.kind, Text: test.query, Limit: 5, Filter: ext.Filter{Servers: test.servers}}, test.access)
			if err != nil {
				t.Fatal(err)
			}
			items := 0
			if !res.Empty {
				items = len(res.Candidates)
			}
			if res.Hint != test.hint || (test.hint == "") != (items > 0) {
				t.Errorf("got %d items, hint %q; want hint %q", items, res.Hint, test.hint)
			}
		})
	}
}

func manyServers(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("a%06d", i)
	}
	return names
}

// BenchmarkFilterNames measures what the first filter of a process pays to
// read the filter names, on the default catalog restricted to four groups.
func BenchmarkFilterNames(b *testing.B) {
	x := retrievaltest.Files(b, restrictedFiles(b, defaultCatalog, 4))
	for b.Loop() {
		if _, err := x.Reopened().FilterNames().Get(x.Source(ext.Access{All: true})); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOnlyAFilterReadsFilterNames: a search reads the servers' item tables
// (filterNames), which a cold start at 100,000 tools paid 10 ms for on its
// first search (bench coldstart), only for a filter that needs them; a
// query that names a server in its words does not (the named-servers rule
// that read them for it is retired).
func TestOnlyAFilterReadsFilterNames(t *testing.T) {
	t.Parallel()
	x := sharedDefault(t).Reopened() // opened afresh: no search has read anything yet
	all := ext.Access{All: true}
	for _, text := range []string{"take a screenshot of the page", "send a slack message"} {
		if _, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: text, Limit: 5}, all); err != nil {
			t.Fatal(err)
		}
		if x.FilterNames().Loaded() {
			t.Fatalf("%q, without a filter, read the filter's server tables", text)
		}
	}
	q := ext.Query{Kind: ext.KindTool, Text: "send a message", Limit: 5, Filter: ext.Filter{Servers: []string{"mcp-slack"}}}
	if _, err := x.Search(context.Background(), q, all); err != nil {
		t.Fatal(err)
	}
	if !x.FilterNames().Loaded() {
		t.Error("a filter on mcp-slack did not read the server tables it needs")
	}
}
