package retrieval_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// teamCatalog is the server files of the test catalog with the team's
// server beside it.
func teamCatalog(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{"acme.json": retrievaltest.TeamServer}
	for _, f := range []string{"notes.json", "weather.json"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(data)
	}
	return files
}

// TestTeamToolFoundByItsRequests: a team's tool described only by its
// written requests is found by a request that shares no word with its name
// or description, and is not found with the requests switched off; the
// explanation shows the request that matched.
func TestTeamToolFoundByItsRequests(t *testing.T) {
	t.Parallel()
	x := retrievaltest.Files(t, teamCatalog(t))
	all := ext.Access{All: true}
	query := "balancing our accounts for the audit"
	own := text.Analyze("run_recon run recon Triggers the nightly recon job for ledger L2.")
	for _, w := range text.Analyze(query) {
		if slices.Contains(own, w) {
			t.Fatalf("the query shares %q with the tool's name or description", w)
		}
	}
	page, err := x.Page(context.Background(), ext.Query{Kind: ext.KindTool, Text: query, Limit: 3, Explain: true}, all)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 || !strings.Contains(string(page.Items[0].Object), `"acme__run_recon"`) {
		t.Fatalf("first items %d (hint %q), want acme__run_recon first", len(page.Items), page.Hint)
	}
	e := page.Items[0].Explain.(*retrieval.Explanation)
	if e.Request == nil || e.Request.Text != "balance the accounts before the audit" {
		t.Errorf("explanation %q: want the matched request shown", e.Summary)
	}
	if x.Off, err = rules.Off("written-requests"); err != nil {
		t.Fatal(err)
	}
	off, err := x.Page(context.Background(), ext.Query{Kind: ext.KindTool, Text: query, Limit: 3}, all)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range off.Items {
		if strings.Contains(string(h.Object), `"acme__run_recon"`) {
			t.Errorf("found with the requests switched off: the query is not about its own words")
		}
	}
}

// TestRequestsSeeOnlyWhatTheCallerSees: a caller who may not see the team's
// server finds nothing through its requests, and a word only they hold is
// unknown to it.
func TestRequestsSeeOnlyWhatTheCallerSees(t *testing.T) {
	files := teamCatalog(t)
	files["acme.json"] = strings.Replace(retrievaltest.TeamServer, `{"server":"acme",`, `{"server":"acme","visibility":{"groups":["finance"]},`, 1)
	x := retrievaltest.Files(t, files)
	query := ext.Query{Kind: ext.KindTool, Text: "balance the accounts before the audit", Limit: 5, Explain: true}
	for _, tc := range []struct {
		access ext.Access
		found  bool
	}{{ext.Access{Groups: []string{"finance"}}, true}, {ext.Access{Groups: []string{"sales"}}, false}, {ext.Access{}, false}} {
		page, err := x.Page(context.Background(), query, tc.access)
		if err != nil {
			t.Fatal(err)
		}
		found := slices.ContainsFunc(page.Items, func(h ext.Hit) bool { return strings.Contains(string(h.Object), "run_recon") })
		if found != tc.found {
			t.Errorf("%+v: found %v, want %v", tc.access, found, tc.found)
		}
		for _, h := range page.Items {
			if e, ok := h.Explain.(*retrieval.Explanation); ok && (strings.Contains(e.Summary, "audit") || e.Request != nil && strings.Contains(e.Request.Text, "audit")) && !tc.found {
				t.Errorf("%+v: an explanation shows a hidden item's request: %s", tc.access, e.Summary)
			}
		}
	}
}
