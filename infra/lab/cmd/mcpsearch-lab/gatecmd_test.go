package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// gateData is the gate's data, from this package's directory.
const gateData = repoRoot + "/" + eval.GateFile

// tinyGate writes a gate of one small set over the test catalog, floored
// at floor on its test half's R@1, and returns its file and directory.
// One of its two test queries names a gold its words do not, so the
// figure is below 1.
func tinyGate(t *testing.T, floor float64) (data, dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tiny"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "tiny", "queries.jsonl"), `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"test"}
{"qid":"q2","query":"weather forecast for Rome","relevant_groups":[["notes__delete_note"]],"split":"test"}
{"qid":"q3","query":"write a new note","relevant_groups":[["notes__create_note"]],"split":"dev"}
`)
	data = filepath.Join(dir, "gate.json")
	writeFile(t, data, fmt.Sprintf(`{"dir": %q, "sets": [{"name": "tiny", "title": "a fixture", "catalog": %q, "queries": "tiny/queries.jsonl",
 "tuned_on": "dev", "tuned_on_why": "a fixture", "reported": "test",
 "bounds": [{"figure": "splits.test.recall@1", "min": %v}, {"figure": "splits.test.emptied_rate", "max": 1}]}]}`, dir, testCatalog, floor))
	return data, dir
}

// TestGateFailsAFigureBelowItsFloor: the gate passes a set whose figures
// are at their floors, writes them, and fails, naming the figure, once a
// floor is set above what it measures.
func TestGateFailsAFigureBelowItsFloor(t *testing.T) {
	data, _ := tinyGate(t, 0)
	figures := filepath.Join(t.TempDir(), "figures.json")
	code, out, errOut := runCLI("gate", "--data", data, "--write-figures", figures)
	if code != 0 || !strings.HasPrefix(out, "== tiny (a fixture)\n") || !strings.Contains(out, "test") {
		t.Fatalf("floor 0: exit %d, want 0 and the set's report under its header:\n%s%s", code, out, errOut)
	}
	m, err := eval.LoadMeasured(figures)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := m.Figure("tiny", "splits.test.recall@1")
	if !ok || got <= 0 || got >= 1 {
		t.Fatalf("figures written: splits.test.recall@1 %v (%v), want a share between 0 and 1", got, ok)
	}
	if tools, _ := m.Figure("tiny", "tools"); tools < 1 {
		t.Errorf("figures written: tools %v, want the catalog's", tools)
	}
	data, _ = tinyGate(t, got+0.01)
	code, out, errOut = runCLI("gate", "--data", data)
	want := fmt.Sprintf("splits.test.recall@1 %.4f is below its floor %.4f", got, got+0.01)
	if code != 1 || !strings.Contains(errOut, "tiny: quality gate: "+want) || !strings.Contains(errOut, "1 of 1 sets failed: tiny") {
		t.Errorf("floor above the figure: exit %d, stderr %q, want 1 naming %q", code, errOut, want)
	}
	if !strings.HasPrefix(out, "== tiny") {
		t.Errorf("floor above the figure: stdout %q, want the report still printed", out)
	}
}

// TestGateOff: --off measures every set with the rules named off, and a
// rule it does not know fails the set, named.
func TestGateOff(t *testing.T) {
	data, _ := tinyGate(t, 0)
	if code, out, errOut := runCLI("gate", "--data", data, "--off", "typos,no-match"); code != 0 || !strings.HasPrefix(out, "== tiny") {
		t.Errorf("--off typos,no-match: exit %d, %s%s; want the set measured", code, out, errOut)
	}
	if code, _, errOut := runCLI("gate", "--data", data, "--off", "nonesuch"); code == 0 || !strings.Contains(errOut, `tiny: `) || !strings.Contains(errOut, `"nonesuch"`) {
		t.Errorf("--off nonesuch: exit %d, stderr %q; want a failure naming the set and the rule", code, errOut)
	}
}

// TestGateRefusesBadData: a gate file with a mistake, or a set whose file
// is missing, is a usage error naming the file and the field, before any
// set is measured.
func TestGateRefusesBadData(t *testing.T) {
	data, dir := tinyGate(t, 0)
	if err := os.Remove(filepath.Join(dir, "tiny", "queries.jsonl")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("gate", "--data", data)
	if code != 1 || out != "" || !strings.Contains(errOut, data+": set tiny: queries: ") {
		t.Errorf("missing queries: exit %d, stdout %q, stderr %q, want 1 naming the file, set and field", code, out, errOut)
	}
	writeFile(t, data, `{"dir": "d", "sets": [{"name": "tiny", "catalog": "c", "queries": "q", "bounds": [{"figure": "recall@1", "min": 2}]}]}`)
	code, _, errOut = runCLI("gate", "--data", data)
	if code != 2 || !strings.Contains(errOut, data+": sets[0] (tiny): bounds[0] (recall@1): 2: want a share between 0 and 1") {
		t.Errorf("floor above 1: exit %d, stderr %q, want 2 naming the file and field", code, errOut)
	}
	code, _, errOut = runCLI("gate", "--data", gateData, "--sets", "everyday,nonesuch", dir)
	if code != 2 || !strings.Contains(errOut, `--sets: no set is named "nonesuch" (known: azure_mcp, livemcpbench,`) {
		t.Errorf("an unknown set: exit %d, stderr %q, want 2 naming it and the known ones", code, errOut)
	}
	code, _, errOut = runCLI("gate", "--data", gateData, filepath.Join(dir, "nonesuch"))
	if code != 2 || !strings.Contains(errOut, "no benchmark data at") {
		t.Errorf("missing EVAL_DIR: exit %d, stderr %q, want 2", code, errOut)
	}
}

// TestAblationSetsAreTheGates: the ablation measures the gate's sets but
// those marked no_ablate, with the gate's files and samples.
func TestAblationSetsAreTheGates(t *testing.T) {
	sets, err := ablationSets(gateData, "D", "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sets {
		names = append(names, s.name)
	}
	if got, want := strings.Join(names, ","), "azure_mcp,livemcpbench,metatool,everyday,fresh,broad"; got != want {
		t.Errorf("sets %s, want %s", got, want)
	}
	metatool := sets[2]
	if metatool.every != 10 || metatool.offset != 3 || metatool.bench.tools != filepath.Join("D", "metatool", "tools.jsonl") || metatool.bench.negatives != filepath.Join("D", "negatives.jsonl") {
		t.Errorf("metatool: %+v, want every 10th from 3, under D, with the negatives", metatool)
	}
	if fresh := sets[4]; fresh.bench.catalog != "functions/search/catalog" || fresh.bench.negatives != filepath.Join("D", "offcatalog2", "queries.jsonl") {
		t.Errorf("fresh: %+v, want the default catalog and offcatalog2's negatives", fresh)
	}
	if _, err := ablationSets(filepath.Join(t.TempDir(), "nonesuch.json"), "", ""); err == nil {
		t.Error("a missing gate file: no error")
	}
}
