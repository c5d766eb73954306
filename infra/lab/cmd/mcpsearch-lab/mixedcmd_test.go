package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mixedGate writes a gate of one set over a catalog of two servers with
// written requests and one without, and returns its file.
func mixedGate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cat, "expenses.json"), `{"server":"expenses","tools":[
		{"name":"submit_expense","description":"Submit an expense.","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["file my taxi receipt","claim back the hotel"]}},
		{"name":"approve_expense","description":"Approve an expense report.","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["sign off on the report"]}}]}`)
	writeFile(t, filepath.Join(cat, "notes.json"), `{"server":"notes","tools":[
		{"name":"create_note","description":"Create a note.","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["jot this down","remember to buy milk"]}}]}`)
	writeFile(t, filepath.Join(cat, "weather.json"), `{"server":"weather","tools":[
		{"name":"get_forecast","description":"Get the weather forecast for a city.","inputSchema":{"type":"object"}}]}`)
	writeFile(t, filepath.Join(dir, "queries.jsonl"), `{"qid":"q1","query":"file my taxi receipt","relevant":["expenses__submit_expense"],"split":"test"}
{"qid":"q2","query":"jot this down","relevant":["notes__create_note"],"split":"test"}
{"qid":"q3","query":"expense and a note","relevant_groups":[["expenses__submit_expense"],["notes__create_note"]],"split":"test"}
{"qid":"q4","query":"weather in Paris","relevant":["weather__get_forecast"],"split":"dev"}
`)
	writeFile(t, filepath.Join(dir, "negatives.jsonl"), `{"qid":"n1","query":"book a flight to Rome","split":"test"}
`)
	data := filepath.Join(dir, "gate.json")
	writeFile(t, data, fmt.Sprintf(`{"dir": %q, "sets": [{"name": "tiny", "catalog": %q, "queries": "queries.jsonl", "negatives": "negatives.jsonl",
 "tuned_on": "dev", "tuned_on_why": "a fixture", "reported": "test", "bounds": []}]}`, dir, cat))
	return data
}

// TestMixedSidesAndSeeds: mixed strips the share of the servers with
// written requests a seed chooses, the same servers for the same seed,
// puts each query of the split on the side its tools lie on, and refuses
// a share that strips nothing or everything.
func TestMixedSidesAndSeeds(t *testing.T) {
	data := mixedGate(t)
	var reports [2]mixedReport
	for i := range reports {
		code, out, errOut := runCLI("mixed", "--data", data, "--sets", "tiny", "--seeds", "7", "--json")
		if code != 0 {
			t.Fatalf("mixed: exit %d: %s", code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &reports[i]); err != nil {
			t.Fatalf("mixed --json: %v\n%s", err, out)
		}
	}
	r := reports[0]
	if len(r.Seeds) != 1 || r.Seeds[0].Servers != 2 || len(r.Seeds[0].Stripped) != 1 {
		t.Fatalf("seeds %+v, want one seed stripping 1 of the 2 servers with requests", r.Seeds)
	}
	if got := strings.Join(reports[1].Seeds[0].Stripped, ","); got != strings.Join(r.Seeds[0].Stripped, ",") {
		t.Errorf("seed 7 stripped %q, then %q: want the same servers", r.Seeds[0].Stripped, got)
	}
	tiny := r.Sets[0]
	if tiny.Set != "tiny" || tiny.Stripped.Queries != 1 || tiny.Kept.Queries != 1 || tiny.Across != 1 || tiny.Negatives != 1 {
		t.Errorf("tiny: stripped %d, kept %d, across %d queries, %d negatives; want 1, 1, 1 of the test half and its 1 negative",
			tiny.Stripped.Queries, tiny.Kept.Queries, tiny.Across, tiny.Negatives)
	}
	for _, side := range []mixedSide{tiny.Stripped, tiny.Kept} {
		for _, m := range []map[string]float64{side.Base, side.Mixed} {
			if h, ok := m["hinted_right_first_rate"]; !ok || h < 0 || h > 1 {
				t.Errorf("figures %v: want a hinted_right_first_rate between 0 and 1", m)
			}
		}
	}
	if tiny.Kept.Base["recall@5"] != 1 {
		t.Errorf("kept side as shipped: R@5 %v, want 1 (the query is its tool's own request)", tiny.Kept.Base["recall@5"])
	}
	for _, share := range []string{"0", "1", "1.5"} {
		if code, _, errOut := runCLI("mixed", "--data", data, "--share", share); code != 2 || !strings.Contains(errOut, "--share") {
			t.Errorf("--share %s: exit %d %q, want a usage error naming --share", share, code, errOut)
		}
	}
}
