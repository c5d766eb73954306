package index

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// namedServersCatalog is a catalog whose visible server ledger holds one
// tool (jot) that BM25 puts past the re-ranking window for "ledgers": the
// open server's rank.RerankWindow+5 tools hold the word in their names,
// titles, descriptions and parameters, jot only in its server's name (and
// as many tools of the tasks server hold it nowhere, so that it weighs
// something). The hidden servers alpha-ledger, beta-ledger and
// gamma-ledger (group ops), named by the same word, come first in the
// catalog's order.
func namedServersCatalog(tb testing.TB) string {
	tb.Helper()
	var tools, others []string
	for i := range rank.RerankWindow + 5 {
		tools = append(tools, fmt.Sprintf(`{"name":"ledger_%d","title":"Ledger %d","description":"Ledger line %d of the ledgers","inputSchema":{"type":"object","properties":{"ledger":{"type":"string","description":"the ledger"}}}}`, i, i, i))
		others = append(others, fmt.Sprintf(`{"name":"task_%d","description":"Task number %d","inputSchema":{"type":"object"}}`, i, i))
	}
	files := map[string]string{
		"open.json":   `{"server":"open","tools":[` + strings.Join(tools, ",") + `]}`,
		"tasks.json":  `{"server":"tasks","tools":[` + strings.Join(others, ",") + `]}`,
		"ledger.json": `{"server":"ledger","tools":[{"name":"jot","description":"Save a short text","inputSchema":{"type":"object"}}]}`,
	}
	for _, s := range []string{"alpha-ledger", "beta-ledger", "gamma-ledger"} {
		files[s+".json"] = `{"server":"` + s + `","visibility":{"groups":["ops"]},"tools":[{"name":"hide","description":"Keep a secret","inputSchema":{"type":"object"}}]}`
	}
	return writeCatalog(tb, files)
}

// TestNamedServersTheCallerSees: the servers a request names join their
// best items to the re-ranking window only among those the caller may see and the
// filter keeps, so that a hidden server of the same name neither takes
// the place of a visible one (rank.MaxNamedServers) nor costs a search:
// what a caller gets does not depend on hidden servers' names.
func TestNamedServersTheCallerSees(t *testing.T) {
	x := mustBuild(t, namedServersCatalog(t))
	for _, tc := range []struct {
		name   string
		access ext.Access
		filter []string
	}{
		{"a caller without groups", ext.Access{}, nil},
		{"a filter on ledger", ext.Access{All: true}, []string{"ledger"}},
		{"a filter on ledger and open", ext.Access{All: true}, []string{"open", "ledger"}},
	} {
		ctx := ext.WithAccess(context.Background(), tc.access)
		q := ext.Query{Kind: ext.KindTool, Text: "ledgers", Limit: 2 * rank.RerankWindow, Filter: ext.Filter{Servers: tc.filter}, Explain: true}
		page, err := x.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if named := ranked(t, x, q, tc.access).NamedServers; !slices.Equal(named, []string{"ledger"}) {
			t.Errorf("%s: servers named %v; want [ledger] alone, and so one search", tc.name, named)
		}
		i := slices.Index(pageNames(page), "ledger__jot")
		if i < 0 || page.Items[i].Explain.(*Explanation).Rerank == nil {
			t.Errorf("%s: got %v, want ledger__jot (the named server's tool) re-ranked", tc.name, pageNames(page))
		}
	}
}

func pageNames(page *ext.Page) []string {
	out := make([]string, len(page.Items))
	for i, h := range page.Items {
		var obj struct{ Name string }
		json.Unmarshal(h.Object, &obj)
		out[i] = obj.Name
	}
	return out
}

// TestNoServerNamedBuildsNoServerWords: a query that names no server
// does not build the table of every server's words (serverWords), which
// the first search of a cold start at 100,000 tools paid 3–6 ms for; one
// that names a server does, and finds it.
func TestNoServerNamedBuildsNoServerWords(t *testing.T) {
	x := mustBuild(t, defaultCatalog)
	q := ext.Query{Kind: ext.KindTool, Text: "take a screenshot of the page", Limit: 5}
	if _, err := x.Search(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if x.serverNames.servers != nil {
		t.Error("a query naming no server built the table of server words")
	}
	named := ranked(t, x, ext.Query{Kind: ext.KindTool, Text: "send a slack message", Limit: 5}, ext.Access{All: true}).NamedServers
	if !slices.Equal(named, []string{"mcp-slack"}) || x.serverNames.servers == nil {
		t.Errorf("got servers %v, want [mcp-slack] from the table of server words", named)
	}
}

// TestNoServerNamedReadsNoFilterNames: a query that names no server does
// not read the servers' item tables (filterNames), which a cold start at
// 100,000 tools paid 10 ms for on its first search (bench coldstart).
func TestNoServerNamedReadsNoFilterNames(t *testing.T) {
	x := defaultIndex(t) // opened afresh: no search has read anything yet
	if _, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "take a screenshot of the page", Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if x.filterNames.servers != nil {
		t.Error("a query naming no server read the filter's server tables")
	}
	if _, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "send a slack message", Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if x.filterNames.servers == nil {
		t.Error("a query naming slack did not read the server tables it needs")
	}
}
