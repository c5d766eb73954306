package crawl

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/testenv/fleet"
)

// TestCrawlKeepsRequests: a crawl over a file whose items carry written
// requests keeps those of the items whose name and description are
// unchanged, drops those of an item whose description changed and of one
// that is gone, names the dropped ones, and writes a file the catalog
// loads with the kept requests.
func TestCrawlKeepsRequests(t *testing.T) {
	up := fleet.Start(t, "keep", fleet.Spec{Tools: 3})
	cfg := mustParse(t, "servers:\n"+httpServer("keep", up.URL))
	out := t.TempDir()
	results, err := Run(context.Background(), cfg, out, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := results[0].File
	var f catalogFile
	if err := json.Unmarshal(mustRead(t, path), &f); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(f.Tools))
	for i, raw := range f.Tools {
		key, _ := keyOf("tools", raw)
		names[i] = key.name
		if f.Tools[i], err = catalog.WithMetaKey(raw, catalog.MetaRequests, json.RawMessage(`["a request for `+key.name+`", "another"]`)); err != nil {
			t.Fatal(err)
		}
	}
	// the file says tool 1 did something else: its description changed
	var changed bytes.Buffer
	if err := json.Compact(&changed, f.Tools[1]); err != nil {
		t.Fatal(err)
	}
	if f.Tools[1] = bytes.Replace(changed.Bytes(), []byte(`"description":"`), []byte(`"description":"Formerly: `), 1); bytes.Equal(f.Tools[1], changed.Bytes()) {
		t.Fatal("tool 1 has no description to change")
	}
	f.Tools = append(f.Tools, json.RawMessage(`{"name":"gone","description":"No longer listed","inputSchema":{"type":"object"},"_meta":{"`+catalog.MetaRequests+`":["bring it back"]}}`))
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}

	results, err = Run(context.Background(), cfg, out, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if want := []string{"gone", names[1]}; r.RequestsKept != 2 || !slices.Equal(r.RequestsDropped, want) {
		t.Errorf("kept %d, dropped %q; want 2 kept (%s, %s), %q dropped", r.RequestsKept, r.RequestsDropped, names[0], names[2], want)
	}
	cat, err := catalog.LoadDir(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, it := range cat.Items {
		got[it.Label] = len(it.Requests)
	}
	if got[names[0]] != 2 || got[names[1]] != 0 || got[names[2]] != 2 {
		t.Errorf("requests by tool %v: want %s and %s with 2, %s with none", got, names[0], names[2], names[1])
	}
	var summary strings.Builder
	if err := WriteSummary(&summary, results, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary.String(), "dropped the requests of 2 items") || !strings.Contains(summary.String(), "gone") {
		t.Errorf("summary %q: want the dropped requests named", summary.String())
	}
}
