package index

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/errand"
	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
)

// serverWithRequests is a server file whose tools (tool0, tool1, …) each
// carry one of requests as their written request, or none where it is "".
func serverWithRequests(name string, requests ...string) string {
	var tools []map[string]any
	for i, r := range requests {
		t := map[string]any{"name": fmt.Sprintf("tool%d", i), "description": "A tool of " + name, "inputSchema": map[string]any{"type": "object"}}
		if r != "" {
			t["_meta"] = map[string]any{catalog.MetaRequests: []string{r}}
		}
		tools = append(tools, t)
	}
	data, _ := json.Marshal(map[string]any{"server": name, "tools": tools})
	return string(data)
}

// TestErrandReadsOf: each server's written tool requests are counted, and
// those the errand model reads as everyday errands; a catalog whose tools
// mostly carry no requests, whose searches never ask the model, gets nil.
func TestErrandReadsOf(t *testing.T) {
	t.Parallel()
	// written here, in no training or evaluation set
	chores := []string{"water the plants on sunday morning", "knit a warm scarf for my grandmother", "what should I cook for dinner tonight"}
	software := []string{"open a pull request from my branch", "list the failed CI jobs of main", "query the orders table for yesterday"}
	m, err := errand.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range chores {
		if m.Score(q) >= nomatch.ErrandThreshold {
			t.Fatalf("%q is no errand to the model: choose another", q)
		}
	}
	cat := loadCatalog(t, writeCatalog(t, map[string]string{
		"chores.json": serverWithRequests("chores", chores...), "dev.json": serverWithRequests("dev", software...),
	}))
	reads, err := ErrandReadsOf(cat)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]ErrandReads{}
	for _, r := range reads {
		got[r.Server] = r
	}
	if c, d := got["chores"], got["dev"]; c.Requests != 3 || c.Errands != 3 || c.Share() != 1 || d.Requests != 3 || d.Errands != 0 {
		t.Errorf("got %+v, want chores 3 of 3 errands, dev 0 of 3", reads)
	}
	few := loadCatalog(t, writeCatalog(t, map[string]string{"chores.json": serverWithRequests("chores", chores[0], "", "", "")}))
	if reads, err := ErrandReadsOf(few); reads != nil || err != nil {
		t.Errorf("one tool of four with requests: got %+v, %v; want nil (the model is not asked)", reads, err)
	}
}

func loadCatalog(t *testing.T, dir string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}
