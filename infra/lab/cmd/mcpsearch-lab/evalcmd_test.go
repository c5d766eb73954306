package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalCatalog: --catalog builds a catalog directory, its gold ids being
// canonical names; figures come per split, language and typo subset, the
// negatives' no-match rate per split, and the floors and ceilings take
// nested keys.
func TestEvalCatalog(t *testing.T) {
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.jsonl")
	writeFile(t, queries, `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"dev","lang":"en"}
{"qid":"q2","query":"wetter vorhersage","relevant_groups":[["weather__get_forecast"]],"split":"test","lang":"de","typo":true}
{"qid":"q3","query":"write a new note","relevant_groups":[["notes__create_note"]],"split":"test","lang":"en"}
`)
	negatives := filepath.Join(dir, "negatives.jsonl")
	writeFile(t, negatives, `{"qid":"n1","query":"bake a chocolate cake","split":"dev","lang":"en"}
{"qid":"n2","query":"mow the lawn","split":"test","lang":"en"}
`)
	code, out, errOut := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--negatives", negatives, "--json",
		"--min", "splits.dev.recall@1=1", "--max", "splits.dev.emptied_rate=0")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"splits.dev.recall@1", "splits.test.emptied_rate", "langs.de.ndcg@10", "typo.recall@5",
		"negative_splits.test.no_match_rate", "negative_langs.en.no_match_rate", "emptied_rate"} {
		if _, ok := figure(got, key); !ok {
			t.Errorf("no figure %s in %s", key, out)
		}
	}
	if code, _, errOut := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--max", "splits.test.recall@1=0"); code != 1 || !strings.Contains(errOut, "splits.test.recall@1") || !strings.Contains(errOut, "above its ceiling") {
		t.Errorf("--max: got exit %d %q, want the figure above its ceiling named", code, errOut)
	}
	code, out, _ = runCLI("eval", "--catalog", testCatalog, "--queries", queries)
	for _, row := range []string{"dev", "test", "all", "lang de", "typo", "empty"} {
		if code != 0 || !strings.Contains(out, row) {
			t.Errorf("table: exit %d, no %q in\n%s", code, row, out)
		}
	}
}

// TestEvalNearMisses: negatives that say their kind are counted by kind,
// and near misses by whether the hint names the product they miss.
func TestEvalNearMisses(t *testing.T) {
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.jsonl")
	writeFile(t, queries, `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"dev"}
`)
	negatives := filepath.Join(dir, "negatives.jsonl")
	// the test catalog's notes and weather: "notes in Evernote" keeps the
	// notes tool with a hint naming Evernote; the rest get no items
	writeFile(t, negatives, `{"qid":"n1","query":"bake a chocolate cake","split":"dev","kind":"errand"}
{"qid":"n2","query":"create a note in Evernote","split":"test","kind":"near-miss","missing":"Evernote"}
{"qid":"n3","query":"list my Zorblax boards","split":"test","kind":"near-miss","missing":"Zorblax"}
`)
	code, out, errOut := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--negatives", negatives, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"negative_kinds.errand.no_match_rate", "negative_kinds.near-miss.no_match_rate", "missing_named_rate"} {
		if _, ok := figure(got, key); !ok {
			t.Errorf("no figure %s in %s", key, out)
		}
	}
	rate, _ := figure(got, "missing_named_rate")
	if kinds, _ := figure(got, "negative_kinds.near-miss.negatives"); kinds != 2 {
		t.Errorf("near misses counted %v, want 2", kinds)
	}
	_, table, _ := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--negatives", negatives)
	var named, of int
	line := table[strings.Index(table, "near misses:"):]
	if _, err := fmt.Sscanf(line, "near misses: the hint names the missing product for %d of %d", &named, &of); err != nil || of != 2 {
		t.Fatalf("table line %q (%v): want the near misses counted, 2", line, err)
	}
	if rate != float64(named)/2 || !strings.Contains(table, "kind near-miss") {
		t.Errorf("JSON rate %v, table %d of 2:\n%s", rate, named, table)
	}
}

// TestEvalCatalogErrors: gold naming no tool of the catalog fails with the
// query and the id; --tools and --catalog exclude each other.
func TestEvalCatalogErrors(t *testing.T) {
	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	writeFile(t, queries, `{"qid":"q1","query":"weather","relevant_groups":[["weather__get_forecast"]]}
{"qid":"q7","query":"radar","relevant_groups":[["weather__get_radar"]]}
`)
	for _, test := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--catalog", testCatalog, "--queries", queries}, 1, `query q7: gold id "weather__get_radar" is not a tool of the catalog`},
		{[]string{"--catalog", testCatalog, "--tools", queries, "--queries", queries}, 2, "one of --tools and --catalog"},
		{[]string{"--queries", queries}, 2, "one of --tools and --catalog"},
		{[]string{"--catalog", testCatalog}, 2, "--queries is required"},
	} {
		code, _, errOut := runCLI(append([]string{"eval"}, test.args...)...)
		if code != test.code || !strings.Contains(errOut, test.want) {
			t.Errorf("%v: got exit %d %q, want %d containing %q", test.args, code, errOut, test.code, test.want)
		}
	}
}

func TestFigureNestedKeys(t *testing.T) {
	figures := map[string]any{"recall@1": 0.5, "splits": map[string]any{"test": map[string]any{"recall@5": 0.7}}}
	if err := checkFloors(figures, "splits.test.recall@5=0.6,recall@1=0.5"); err != nil {
		t.Errorf("figures at or above their floors: %v", err)
	}
	if err := checkCeilings(figures, "splits.test.recall@5=0.6"); err == nil || !strings.Contains(err.Error(), "0.7000 is above its ceiling 0.6000") {
		t.Errorf("got %v, want the figure above its ceiling", err)
	}
	if err := checkFloors(figures, "splits.dev.recall@5=0.6"); err == nil || !strings.Contains(err.Error(), "--min") {
		t.Errorf("unknown key: got %v, want a usage error", err)
	}
}

// TestEvalAgainst: --against evaluates a second tools file on the same
// queries and prints each figure of both with the paired bootstrap's
// interval of the change, marking one that excludes zero; the same file
// against itself changes nothing.
func TestEvalAgainst(t *testing.T) {
	dir := t.TempDir()
	base, alt := filepath.Join(dir, "base.jsonl"), filepath.Join(dir, "alt.jsonl")
	writeFile(t, base, `{"id":"recon","name":"run_recon","description":"Nightly recon job","server":"fin"}
{"id":"mail","name":"send_email","description":"Send an email","server":"mail"}
`)
	writeFile(t, alt, `{"id":"recon","name":"run_recon","description":"Nightly recon job","server":"fin","requests":["balance the ledger accounts for the auditors","reconcile the books"]}
{"id":"mail","name":"send_email","description":"Send an email","server":"mail","requests":["write to my landlord about the rent"]}
`)
	queries := filepath.Join(dir, "queries.jsonl")
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf(`{"qid":"r%d","query":"balance the ledger accounts for the auditors","relevant":["recon"]}`, i))
	}
	writeFile(t, queries, strings.Join(lines, "\n")+"\n")
	code, out, errOut := runCLI("eval", "--tools", base, "--queries", queries, "--against", alt)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var figure string
	var n int
	var before, after float64
	line := out[strings.Index(out, "R@1"):]
	if _, err := fmt.Sscanf(line, "%s %d %f %f", &figure, &n, &before, &after); err != nil || n != 20 || before != 0 || after != 1 {
		t.Fatalf("R@1 row %q (%v): want 20 queries, 0.000 then 1.000", line, err)
	}
	if !strings.Contains(line[:strings.Index(line, "\n")], "+1.000 *") {
		t.Errorf("R@1 row %q: want the change +1.000 marked beyond noise", line)
	}
	_, same, _ := runCLI("eval", "--tools", base, "--queries", queries, "--against", base)
	if strings.Contains(same, "*  [") || !strings.Contains(same, "+0.000  [+0.000, +0.000]") {
		t.Errorf("a file against itself:\n%s\nwant no change", same)
	}
	if code, _, errOut := runCLI("eval", "--tools", base, "--queries", queries, "--against", alt, "--json"); code != 2 || !strings.Contains(errOut, "--against compares two tools files") {
		t.Errorf("--against with --json: exit %d %q, want a usage error", code, errOut)
	}
	if code, _, errOut := runCLI("eval", "--tools", base, "--queries", queries, "--against", filepath.Join(dir, "missing.jsonl")); code != 1 || !strings.Contains(errOut, "missing.jsonl") {
		t.Errorf("--against a missing file: exit %d %q, want the file named", code, errOut)
	}
}

// TestEvalTypoVariant: --typo-variant searches the typo variant of the
// queries and negatives, leaving out those with no long word.
func TestEvalTypoVariant(t *testing.T) {
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.jsonl")
	writeFile(t, queries, `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"test"}
{"qid":"q2","query":"a new note","relevant_groups":[["notes__create_note"]],"split":"test"}
`)
	negatives := filepath.Join(dir, "negatives.jsonl")
	writeFile(t, negatives, `{"qid":"n1","query":"bake a chocolate cake","split":"test"}
{"qid":"n2","query":"mow the lawn","split":"test"}
`)
	for _, test := range []struct {
		seed               string
		queries, negatives float64
	}{{"0", 2, 2}, {"1", 1, 1}} {
		code, out, errOut := runCLI("eval", "--catalog", testCatalog, "--queries", queries, "--negatives", negatives, "--json", "--typo-variant", test.seed)
		if code != 0 {
			t.Fatalf("--typo-variant %s: exit %d: %s%s", test.seed, code, out, errOut)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if q, n := got["queries"], got["negatives"]; q != test.queries || n != test.negatives {
			t.Errorf("--typo-variant %s: %v queries and %v negatives, want %v and %v", test.seed, q, n, test.queries, test.negatives)
		}
	}
}
