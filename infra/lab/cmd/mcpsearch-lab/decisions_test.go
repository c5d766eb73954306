package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalDecisions: eval counts, per split, the no-match decision each
// request reached (the page's Explain), in the tables, the JSON and, with
// --decisions, request by request: over the test catalog, a forecast for
// Paris keeps its items with a hint naming Paris (near-miss-hint), and no
// item holds a word of a cake's recipe (no-candidates).
func TestEvalDecisions(t *testing.T) {
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.jsonl")
	writeFile(t, queries, `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"dev"}
`)
	negatives := filepath.Join(dir, "negatives.jsonl")
	writeFile(t, negatives, `{"qid":"n1","query":"bake a chocolate cake","split":"test"}
`)
	code, out, errOut := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--negatives", negatives, "--decisions")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"decision\tq1\tdev\tanswered\tnear-miss-hint keep\n", "decision\tn1\ttest\tnegative\tno-candidates\n", "decisions dev: near-miss-hint keep 1\n", "negative decisions test: no-candidates 1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--negatives", negatives, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var got struct {
		Decisions         map[string]map[string]int `json:"decisions"`
		NegativeDecisions map[string]map[string]int `json:"negative_decisions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Decisions["dev"]["near-miss-hint keep"] != 1 || got.Decisions["all"]["near-miss-hint keep"] != 1 || got.NegativeDecisions["test"]["no-candidates"] != 1 {
		t.Errorf("decisions %v, negative decisions %v", got.Decisions, got.NegativeDecisions)
	}
}
