package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// TestNamedServerJoinsWindow: a command that names a server finds that
// server's tool although 30 tools of another server match its other words
// better (re-ranked, not left past the window); a filter on servers still
// holds.
func TestNamedServerJoinsWindow(t *testing.T) {
	var tools []string
	topics := strings.Fields("apples rivers trains music weather hotels flights movies books games stocks crypto recipes maps photos videos emails invoices orders tickets songs podcasts news sports cars houses jobs courses events plants")
	for i, topic := range topics {
		tools = append(tools, fmt.Sprintf(`{"name":"export_report_%d","description":"Export the monthly sales report of %s in an acme ledger as a PDF report","inputSchema":{"type":"object"}}`, i, topic))
	}
	var others []string
	for i := range 200 {
		others = append(others, fmt.Sprintf(`{"name":"other_%d","description":"Something else entirely, number %d","inputSchema":{"type":"object"}}`, i, i))
	}
	x := mustBuild(t, writeCatalog(t, map[string]string{
		"other.json":   `{"server":"other","tools":[` + strings.Join(others, ",") + `]}`,
		"reports.json": `{"server":"reports","tools":[` + strings.Join(tools, ",") + `]}`,
		"acme.json":    `{"server":"acme","tools":[{"name":"zork_totals","description":"Zork ledger totals","inputSchema":{"type":"object"}}]}`,
	}))
	q := ext.Query{Kind: ext.KindTool, Text: "export the monthly sales report pdf in acme", Limit: 3}
	terms := queryTerms(searchedText(q.Text))
	bq, err := searchQuery(q, terms, x.manifest.Separator, true, ext.Access{})
	if err != nil {
		t.Fatal(err)
	}
	cands, err := x.candidates(context.Background(), q.Kind, bq, rank.RerankWindow)
	if err != nil {
		t.Fatal(err)
	}
	const want = "zork_totals"
	if slices.ContainsFunc(cands, func(c rank.Candidate) bool { return c.Label == want }) {
		t.Fatalf("BM25 alone put %s in the window: no test", want)
	}
	out, window, err := x.addNamedServers(context.Background(), q, bq, terms, cands, len(cands))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(out[:window], func(c rank.Candidate) bool { return c.Label == want && c.Server == "acme" && c.BM25 > 0 }) {
		t.Errorf("a command naming acme: got window %v, want %s in it with its BM25 score", out[:window], want)
	}
	only := ext.Filter{Servers: []string{"reports"}}
	if hits := names(searchHits(t, x, ext.KindTool, "export the monthly sales report pdf in acme", 40, only)); slices.Contains(hits, "acme__zork_totals") {
		t.Errorf("filtered to reports: got acme__zork_totals in %v", hits)
	}
}
