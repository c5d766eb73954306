package retrieval

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// TestReadmeListsEveryRule: the README's pipeline names every registered
// rule, and its table has one row a rule, in the registry's order, with
// its step and reason (what mcpsearch-lab eval --ablate --markdown prints).
func TestReadmeListsEveryRule(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	pipeline, table, ok := strings.Cut(readme, "## What each rule contributes")
	if !ok {
		t.Fatal("README.md has no section on what each rule contributes")
	}
	var rows []string
	inGateTable := false // the gate's sets, rendered from gate.json, are no rule rows
	for _, line := range strings.Split(table, "\n") {
		switch {
		case strings.HasPrefix(line, "<!-- gate-table:"):
			inGateTable = true
		case strings.HasPrefix(line, "<!-- /gate-table"):
			inGateTable = false
		case !inGateTable && strings.HasPrefix(line, "| ") && strings.Contains(line, "| `"):
			rows = append(rows, line)
		}
	}
	all := rules.All()
	if len(rows) != len(all) {
		t.Fatalf("the table has %d rule rows, the registry %d rules: run mcpsearch-lab eval --ablate --markdown", len(rows), len(all))
	}
	for i, r := range all {
		want := "| " + r.Step() + " | `" + r.Name() + "` | " + r.Reason() + " | "
		if !strings.HasPrefix(rows[i], want) {
			t.Errorf("row %d: %.80q…, want it to open %q", i+1, rows[i], want)
		}
		if !strings.Contains(pipeline, "`"+r.Name()+"`") {
			t.Errorf("the pipeline section does not name %s", r.Name())
		}
	}
}

// TestReadmeShowsTheDecisionList: the README's table of the no-match
// decision is the list nomatch.Decide walks (nomatch.Table), line by line.
func TestReadmeShowsTheDecisionList(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := nomatch.Table(); !strings.Contains(string(data), want) {
		t.Errorf("README.md does not hold the decision list as nomatch.Table renders it:\n%s", want)
	}
}
