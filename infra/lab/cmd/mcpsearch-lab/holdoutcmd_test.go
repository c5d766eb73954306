package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldOut: requests holdout writes a catalog mcpsearch-lab eval
// builds and queries it reads, one a held-out request, each split by its
// server; the server's tools are found from requests the index never read.
func TestHoldOut(t *testing.T) {
	src := t.TempDir()
	data, err := os.ReadFile("../../../../functions/search/catalog/mcp-slack.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "mcp-slack.json"), string(data))
	out, queries := filepath.Join(t.TempDir(), "catalog"), filepath.Join(t.TempDir(), "queries.jsonl")
	code, stdout, stderr := runCLI("holdout", "--catalog", src, "--out", out, "--queries", queries, "--n", "1")
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
	if code, _, stderr := runCLI("holdout", "--catalog", src, "--out", src, "--queries", queries); code == 0 || !strings.Contains(stderr, "that is the catalog itself") {
		t.Errorf("holdout into the catalog itself: exit %d, %s", code, stderr)
	}
}
