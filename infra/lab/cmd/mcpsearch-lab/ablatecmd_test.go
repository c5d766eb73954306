package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAblate: --ablate switches each named rule off in turn over the gate's
// sets and reports, per column, the change and whether it is beyond the
// bootstrap's noise; switching the no-match test off gives off-catalog
// requests items (each shares a word with the catalog). The sets here are a small everyday set over the test
// catalog, laid out as the gate's.
func TestAblate(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"everyday", "offcatalog"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "everyday", "queries.jsonl"), `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"test"}
{"qid":"q2","query":"write a new note","relevant_groups":[["notes__create_note"]],"split":"test"}
{"qid":"q3","query":"delete my note","relevant_groups":[["notes__delete_note"]],"split":"dev"}
`)
	var negatives []string
	for i, q := range []string{"search cheap flights to Rome", "search for a pizza place", "forecast the stock market", "delete my bank account",
		"create a new spotify playlist", "list my netflix movies", "search youtube videos of cats", "note the football score"} {
		negatives = append(negatives, fmt.Sprintf(`{"qid":"n%d","query":%q,"split":"test"}`, i, q))
	}
	writeFile(t, filepath.Join(dir, "offcatalog", "queries.jsonl"), strings.Join(negatives, "\n")+"\n")
	code, out, errOut := runCLI("eval", "--ablate", "--data", gateData, "--dir", dir, "--catalog", testCatalog,
		"--sets", "everyday", "--rules", "no-match,unread-cjk", "--rounds", "200", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var got ablation
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if b := got.Baseline["everyday negatives test"]; b["no_match_rate"] != 1 {
		t.Errorf("baseline of everyday negatives test: %v, want every negative given no items", b)
	}
	rules := map[string]bool{}
	var noMatch *ablationRow
	for i, r := range got.Rows {
		rules[r.Rule] = true
		if r.Rule == "no-match" && r.Column == "everyday negatives test" {
			noMatch = &got.Rows[i]
		}
	}
	if !rules["no-match"] || !rules["unread-cjk"] || len(rules) != 2 {
		t.Errorf("rules ablated: %v, want no-match and unread-cjk", rules)
	}
	if noMatch == nil || !noMatch.Loss || !noMatch.Empty.Significant() || noMatch.Empty.Mean >= 0 || !noMatch.HeldOut {
		t.Errorf("no-match off, everyday negatives test: %+v, want fewer negatives emptied, beyond noise, held out", noMatch)
	}
	// every negative reached the coverage cut; switched off, each moves
	// to a line that keeps its items
	if n := got.Decisions["everyday negatives test"]["no-match empty"]; n != len(negatives) {
		t.Errorf("decisions of everyday negatives test: %v, want %d no-match empty", got.Decisions["everyday negatives test"], len(negatives))
	}
	moved := 0
	for _, s := range got.Shifts {
		if s.Rule == "no-match" && s.Column == "everyday negatives test" && s.From == "no-match empty" && !strings.HasSuffix(s.To, " empty") {
			moved += s.Requests
		}
	}
	if moved != len(negatives) {
		t.Errorf("no-match off moved %d negatives to a line that keeps items, want %d: %+v", moved, len(negatives), got.Shifts)
	}
}

func TestAblateErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--rules", "nonesuch", "--sets", "everyday"},
		{"--sets", "nonesuch"},
		{"--queries", "q.jsonl"},
		{"--rounds", "10"},
	} {
		code, out, errOut := runCLI(append([]string{"eval", "--ablate", "--dir", "../../../../infra/lab/eval/testdata", "--catalog", "../../../../functions/search/catalog"}, args...)...)
		if code == 0 || !strings.Contains(errOut, "nonesuch") && !strings.Contains(errOut, "--") {
			t.Errorf("eval --ablate %v: exit %d, %q%q; want an error naming the fault", args, code, out, errOut)
		}
	}
}

// TestEvalOffUnknownRule: --off names only registered rules.
func TestEvalOffUnknownRule(t *testing.T) {
	queries := t.TempDir() + "/q.jsonl"
	writeFile(t, queries, `{"qid":"q1","query":"weather forecast","relevant_groups":[["weather__get_forecast"]]}`+"\n")
	code, _, errOut := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--off", "phrases,nonesuch")
	if code == 0 || !strings.Contains(errOut, `"nonesuch"`) {
		t.Errorf("eval --off nonesuch: exit %d, %q; want an error naming the rule", code, errOut)
	}
}

// TestAblateTypoVariant: with --typo-variant every set is measured on its
// typo variant, named with "+typos", its queries with no long word left
// out.
func TestAblateTypoVariant(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"everyday", "offcatalog"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "everyday", "queries.jsonl"), `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"test"}
{"qid":"q2","query":"a new note","relevant_groups":[["notes__create_note"]],"split":"test"}
`)
	writeFile(t, filepath.Join(dir, "offcatalog", "queries.jsonl"), `{"qid":"n1","query":"bake a chocolate cake","split":"test"}
`)
	code, out, errOut := runCLI("eval", "--ablate", "--data", gateData, "--dir", dir, "--catalog", testCatalog,
		"--sets", "everyday", "--rules", "typos", "--rounds", "200", "--json", "--typo-variant", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var got ablation
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	queries := map[string]int{}
	for _, r := range got.Rows {
		queries[r.Column] = r.Queries
	}
	if want := map[string]int{"everyday+typos test": 1, "everyday+typos negatives test": 1}; !maps.Equal(queries, want) {
		t.Errorf("columns %v, want %v", queries, want)
	}
}

// TestEvalLibraryUsage: --library attaches to --tools only, and its
// SERVER=PACKAGE pairs must each name both.
func TestEvalLibraryUsage(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--catalog", "x", "--queries", "q", "--library", "@azure/mcp"},
		{"eval", "--tools", "x", "--queries", "q", "--against-library"},
		{"eval", "--tools", "x", "--queries", "q", "--library", "a=b,=c"},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || !strings.Contains(errOut, "library") {
			t.Errorf("%q: exit %d, %s; want a usage error naming the library", args, code, errOut)
		}
	}
}
