package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// teamServer is a team's internal server: its tool's name and description
// are in the team's own words, and its requests in the words people use.
const teamServer = `{"server":"acme","tools":[
 {"name":"run_recon","description":"Triggers the nightly recon job for ledger L2.","inputSchema":{"type":"object"},
  "_meta":{"io.github.mcpsearch/requests":["close the books for the month","balance the accounts before the audit","make sure the finance numbers add up"]}},
 {"name":"ping","description":"Health probe for the acme gateway.","inputSchema":{"type":"object"}}]}`

// teamCatalog is the test catalog with the team's server beside it.
func teamCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"notes.json", "weather.json"} {
		data, err := os.ReadFile(filepath.Join("testdata/catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(teamServer), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTeamToolFoundByItsRequests: a team's tool described only by its
// written requests is found by a request that shares no word with its name
// or description, and is not found with the requests switched off; the
// explanation shows the request that matched.
func TestTeamToolFoundByItsRequests(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, teamCatalog(t))
	query := "balancing our accounts for the audit"
	own := text.Analyze("run_recon run recon Triggers the nightly recon job for ledger L2.")
	for _, w := range text.Analyze(query) {
		if slices.Contains(own, w) {
			t.Fatalf("the query shares %q with the tool's name or description", w)
		}
	}
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: query, Limit: 3, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 || !strings.Contains(string(page.Items[0].Object), `"acme__run_recon"`) {
		t.Fatalf("first items %d (hint %q), want acme__run_recon first", len(page.Items), page.Hint)
	}
	e := page.Items[0].Explain.(*Explanation)
	if e.Request == nil || e.Request.Text != "balance the accounts before the audit" {
		t.Errorf("explanation %q: want the matched request shown", e.Summary)
	}
	if err := x.SetRulesOff("written-requests"); err != nil {
		t.Fatal(err)
	}
	off, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: query, Limit: 3})
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
	dir := teamCatalog(t)
	restricted := strings.Replace(teamServer, `{"server":"acme",`, `{"server":"acme","visibility":{"groups":["finance"]},`, 1)
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(restricted), 0o644); err != nil {
		t.Fatal(err)
	}
	x := mustBuild(t, dir)
	query := ext.Query{Kind: ext.KindTool, Text: "balance the accounts before the audit", Limit: 5, Explain: true}
	for _, tc := range []struct {
		access ext.Access
		found  bool
	}{{ext.Access{Groups: []string{"finance"}}, true}, {ext.Access{Groups: []string{"sales"}}, false}, {ext.Access{}, false}} {
		page, err := x.Search(ext.WithAccess(context.Background(), tc.access), query)
		if err != nil {
			t.Fatal(err)
		}
		found := slices.ContainsFunc(page.Items, func(h ext.Hit) bool { return strings.Contains(string(h.Object), "run_recon") })
		if found != tc.found {
			t.Errorf("%+v: found %v, want %v", tc.access, found, tc.found)
		}
		for _, h := range page.Items {
			if e, ok := h.Explain.(*Explanation); ok && (strings.Contains(e.Summary, "audit") || e.Request != nil && strings.Contains(e.Request.Text, "audit")) && !tc.found {
				t.Errorf("%+v: an explanation shows a hidden item's request: %s", tc.access, e.Summary)
			}
		}
	}
}
