package eval

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the READMEs' gate tables from gate.json and figures.json")

// gateTableDocs are the documents holding gate tables, from the
// repository's root, and the tables each holds.
var gateTableDocs = map[string][]string{
	"README.md":                          {"summary"},
	"index/README.md":                    {"public", "everyday", "broad"},
	"infra/README.md":                    {"bounds"},
	"index/internal/retrieval/README.md": {"sets"},
}

// TestGateTables: every table of the gate's figures in the READMEs is
// what gate.json and the results of a run (figures.json) render, and
// those results pass the gate's bounds. With -update the test rewrites
// the tables.
func TestGateTables(t *testing.T) {
	const root = "../../.."
	g, m := loadGateData(t)
	if err := m.CheckBounds(g); err != nil {
		t.Errorf("%s does not pass %s's bounds: %v", FiguresFile, GateFile, err)
	}
	var rendered []string
	for doc, want := range gateTableDocs {
		path := filepath.Join(root, doc)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, names, err := RewriteTables(string(data), g, m)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s: gate tables %v, want %v", doc, names, want)
		}
		rendered = append(rendered, names...)
		if got == string(data) {
			continue
		}
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: a gate table is not what %s and %s render (go test ./infra/lab/eval -run TestGateTables -update rewrites it):\n%s",
			doc, GateFile, FiguresFile, firstDifference(string(data), got))
	}
	slices.Sort(rendered)
	if !slices.Equal(rendered, Tables()) {
		t.Errorf("tables in the READMEs %v, want each of %v once", rendered, Tables())
	}
}

func loadGateData(t *testing.T) (*Gate, *Measured) {
	t.Helper()
	g, err := LoadGate(gatePath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadMeasured(filepath.Base(FiguresFile))
	if err != nil {
		t.Fatal(err)
	}
	return g, m
}

// firstDifference is the first line where have and want differ.
func firstDifference(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := range min(len(h), len(w)) {
		if h[i] != w[i] {
			return "have: " + h[i] + "\nwant: " + w[i]
		}
	}
	return "the lengths differ"
}

// TestRewriteTables: a table's body between its markers (lines of their
// own) is replaced by its rendering, the rest of the document kept; an
// unknown table or a missing end marker is an error naming it.
func TestRewriteTables(t *testing.T) {
	g, m := loadGateData(t)
	broad, err := RenderTable("broad", g, m)
	if err != nil {
		t.Fatal(err)
	}
	doc := "before\n<!-- gate-table: broad -->\n| stale |\n<!-- /gate-table -->\nafter\n"
	got, names, err := RewriteTables(doc, g, m)
	if want := "before\n<!-- gate-table: broad -->\n" + broad + "<!-- /gate-table -->\nafter\n"; err != nil || got != want || !slices.Equal(names, []string{"broad"}) {
		t.Errorf("got %q, %v, %v, want %q", got, names, err, want)
	}
	doc = "a mention, `<!-- gate-table: NAME -->`, is no marker\n<!-- gate-table: broad -->\n<!-- /gate-table -->\n"
	got, names, err = RewriteTables(doc, g, m)
	if want := "a mention, `<!-- gate-table: NAME -->`, is no marker\n<!-- gate-table: broad -->\n" + broad + "<!-- /gate-table -->\n"; err != nil || got != want || !slices.Equal(names, []string{"broad"}) {
		t.Errorf("an empty table after a mention: got %q, %v, %v, want %q", got, names, err, want)
	}
	if _, _, err := RewriteTables("<!-- gate-table: nonesuch -->\n<!-- /gate-table -->\n", g, m); err == nil || !strings.Contains(err.Error(), `"nonesuch"`) {
		t.Errorf("unknown table: %v, want an error naming it", err)
	}
	if _, _, err := RewriteTables("<!-- gate-table: broad -->\n| stale |\n", g, m); err == nil || !strings.Contains(err.Error(), "broad") {
		t.Errorf("no end marker: %v, want an error naming the table", err)
	}
}

// TestRenderedFigures: a table shows a run's figures as the READMEs write
// them (.827, no-match in two decimals, counts with commas), and a figure
// the run lacks is an error naming it.
func TestRenderedFigures(t *testing.T) {
	g, err := LoadGate(gatePath)
	if err != nil {
		t.Fatal(err)
	}
	m := &Measured{Sets: map[string]map[string]any{"broad": {"tools": 4584.0, "splits": map[string]any{
		"dev":  map[string]any{"queries": 150.0, "recall@1": 0.5467, "recall@5": 0.7533, "recall@10": 0.8267, "ndcg@10": 0.6843, "emptied_rate": 0.1},
		"test": map[string]any{"queries": 1500.0, "recall@1": 0.4933, "recall@5": 0.6933, "recall@10": 0.7533, "ndcg@10": 0.6222, "emptied_rate": 0.0}},
		"negative_splits": map[string]any{"dev": map[string]any{"no_match_rate": 0.68}, "test": map[string]any{"no_match_rate": 0.754}}}}}
	got, err := RenderTable("broad", g, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| dev | 150 | .547 | .753 | .827 | .684 | .100 | .68 |", "| test | 1,500 | .493 | .693 | .753 | .622 | 0 | .75 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant a row %s", got, want)
		}
	}
	delete(m.Sets["broad"], "negative_splits")
	if _, err := RenderTable("broad", g, m); err == nil || !strings.Contains(err.Error(), "negative_splits.dev.no_match_rate") {
		t.Errorf("a figure missing: %v, want an error naming it", err)
	}
}
