package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/catalog"
)

// TestRequestsHoldOut: requests holdout writes a catalog mcpsearch eval
// builds and queries it reads, one a held-out request, each split by its
// server; the server's tools are found from requests the index never read.
func TestRequestsHoldOut(t *testing.T) {
	src := t.TempDir()
	data, err := os.ReadFile("../../../functions/search/catalog/mcp-slack.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "mcp-slack.json"), string(data))
	out, queries := filepath.Join(t.TempDir(), "catalog"), filepath.Join(t.TempDir(), "queries.jsonl")
	code, stdout, stderr := runCLI("requests", "holdout", "--catalog", src, "--out", out, "--queries", queries, "--n", "1")
	if code != 0 || !strings.Contains(stdout, "held out") {
		t.Fatalf("holdout: exit %d, %s%s", code, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, queries)), "\n")
	code, stdout, stderr = runCLI("eval", "--catalog", out, "--queries", queries, "--json")
	if code != 0 {
		t.Fatalf("eval: exit %d, %s", code, stderr)
	}
	var got struct {
		Splits map[string]struct {
			Queries int     `json:"queries"`
			R5      float64 `json:"recall@5"`
		} `json:"splits"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	slack := got.Splits["mcp-slack"]
	if slack.Queries != len(lines) || len(lines) < 8 || slack.R5 < 0.5 {
		t.Errorf("%d held-out requests; eval read %+v, want them all under split mcp-slack, most found in the first 5", len(lines), got.Splits)
	}
	if code, _, stderr := runCLI("requests", "holdout", "--catalog", src, "--out", src, "--queries", queries); code == 0 || !strings.Contains(stderr, "that is the catalog itself") {
		t.Errorf("holdout into the catalog itself: exit %d, %s", code, stderr)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestBuildNamesErrandServers: the build names a server whose written
// requests the errand model reads as everyday errands, and what to set;
// a catalog of software requests (the bundled catalog's Slack server) gets
// no such line, and the bundled catalog names no server.
func TestBuildNamesErrandServers(t *testing.T) {
	bundled, err := catalog.LoadDir("../../../functions/search/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	var named bytes.Buffer
	if err := warnErrandServers(bundled, &named, ""); err != nil || named.Len() > 0 {
		t.Errorf("the bundled catalog: %v, %s; want no server named", err, named.String())
	}
	data, err := os.ReadFile("../../../functions/search/catalog/mcp-slack.json")
	if err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	writeFile(t, filepath.Join(plain, "mcp-slack.json"), string(data))
	if code, out, errOut := runCLI("build", "--catalog", plain, "--out", filepath.Join(t.TempDir(), "b")); code != 0 || strings.Contains(out, "no-match:") {
		t.Errorf("software requests: exit %d, %s%s; want no no-match line", code, out, errOut)
	}
	// written here, in no training or evaluation set; every tool of the
	// server carries one, so its searches ask the errand model
	withChores := t.TempDir()
	writeFile(t, filepath.Join(withChores, "mcp-slack.json"), string(data))
	writeFile(t, filepath.Join(withChores, "chores.json"), `{"server":"chores","tools":[
{"name":"plants","description":"Plant care","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["water the plants on sunday morning","repot the basil, its roots poke out"]}},
{"name":"dinner","description":"Meal ideas","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["what should I cook for dinner tonight","knit a warm scarf for my grandmother"]}}]}`)
	code, out, errOut := runCLI("build", "--catalog", withChores, "--out", filepath.Join(t.TempDir(), "b"))
	if code != 0 || !strings.Contains(out, "no-match: the errand model reads these servers' written requests as everyday errands (chores ") ||
		!strings.Contains(out, "MCPSEARCH_RULES_OFF=errand-model") || strings.Contains(out, "mcp-slack ") {
		t.Errorf("exit %d, %s%s; want chores named, and the setting", code, out, errOut)
	}
}
