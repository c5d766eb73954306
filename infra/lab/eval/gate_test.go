package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gatePath is the gate's data, from this package's directory.
const gatePath = "gate.json"

// TestGateLoads: the gate's data passes its checks and names the sets the
// gate has always run, each with its floors; our own sets say which half
// is tuned on and which reported, the public ones that they are tuned on
// as a whole.
func TestGateLoads(t *testing.T) {
	g, err := LoadGate(gatePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"azure_mcp", "livemcpbench", "metatool", "everyday", "offcatalog2", "fresh", "broad", "everyday-life"} {
		s, ok := g.Set(name)
		if !ok {
			t.Errorf("no set %s", name)
			continue
		}
		if len(s.Bounds) == 0 {
			t.Errorf("set %s: no bounds", name)
		}
	}
	for _, name := range []string{"everyday", "fresh", "broad"} {
		if s, _ := g.Set(name); s.TunedOn != "dev" || s.Reported != "test" {
			t.Errorf("set %s: tuned on %q, reported %q, want dev and test", name, s.TunedOn, s.Reported)
		}
	}
	for _, name := range []string{"azure_mcp", "livemcpbench", "metatool"} {
		if s, _ := g.Set(name); s.TunedOn != "all" || s.Reference == nil {
			t.Errorf("set %s: tuned on %q, reference %v, want all and a reference", name, s.TunedOn, s.Reference)
		}
	}
}

// TestGateFilesExist: every file the gate's sets name is there.
func TestGateFilesExist(t *testing.T) {
	g, err := LoadGate(gatePath)
	if err != nil {
		t.Fatal(err)
	}
	root := "../../.."
	for _, s := range g.Sets {
		p := s.Paths(filepath.Join(root, g.Dir), "")
		if p.Catalog != "" {
			p.Catalog = filepath.Join(root, p.Catalog)
		}
		if s.Holdout != nil {
			h := *s.Holdout
			h.Catalog, h.Beside = filepath.Join(root, h.Catalog), filepath.Join(root, h.Beside)
			s.Holdout = &h
		}
		if err := s.CheckFiles(p); err != nil {
			t.Error(err)
		}
	}
}

// TestLoadGateRefuses: a gate file with a mistake is refused, naming the
// file, the set and the field.
func TestLoadGateRefuses(t *testing.T) {
	const set = `"name": "tiny", "catalog": "c", "queries": "q.jsonl", "tuned_on": "dev", "tuned_on_why": "why", "reported": "test"`
	for _, c := range []struct {
		name, sets, want string
	}{
		{"unknown field", `{` + set + `, "florrs": []}`, `unknown field "florrs"`},
		{"unknown figure", `{` + set + `, "bounds": [{"figure": "recall@7", "min": 0.5}]}`, `sets[0] (tiny): bounds[0] (recall@7): figure "recall@7": not a share`},
		{"unknown key", `{` + set + `, "bounds": [{"figure": "splits.test.no_match_rate", "min": 0.5}]}`, `bounds[0] (splits.test.no_match_rate)`},
		{"floor above 1", `{` + set + `, "bounds": [{"figure": "mrr", "min": 1.5}]}`, `bounds[0] (mrr): 1.5: want a share between 0 and 1`},
		{"min and max", `{` + set + `, "bounds": [{"figure": "mrr", "min": 0.5, "max": 0.6}]}`, `bounds[0] (mrr): want one of min and max`},
		{"bound on the tuned half", `{` + set + `, "bounds": [{"figure": "splits.dev.mrr", "min": 0.5}]}`, `a bound on the split "dev", the one tuned on`},
		{"no queries", `{"name": "tiny", "catalog": "c", "bounds": []}`, `sets[0] (tiny): queries: empty`},
		{"two sources", `{"name": "tiny", "catalog": "c", "tools": "t", "queries": "q", "bounds": []}`, `tools, catalog, holdout: want exactly one`},
		{"named twice", `{` + set + `, "bounds": []}, {` + set + `, "bounds": []}`, `sets[1]: name "tiny": named twice`},
		{"label without split", `{` + set + `, "label": "tiny ({queries})", "bounds": []}`, `label "tiny ({queries})": want {split}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gate.json")
			if err := os.WriteFile(path, []byte(`{"dir": "d", "sets": [`+c.sets+`]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadGate(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error naming %s and %q", err, path, c.want)
			}
		})
	}
}

// TestCheckFilesNamesTheField: a set whose queries are missing is named
// with the field and the path.
func TestCheckFilesNamesTheField(t *testing.T) {
	dir := t.TempDir()
	s := GateSet{Name: "tiny", Catalog: dir, Queries: "nonesuch.jsonl"}
	err := s.CheckFiles(s.Paths(dir, ""))
	if err == nil || !strings.Contains(err.Error(), "set tiny: queries: ") || !strings.Contains(err.Error(), filepath.Join(dir, "nonesuch.jsonl")) {
		t.Errorf("got %v, want the set, the field and the path named", err)
	}
}

// TestCheckFigureKey: the keys of eval --json's shares are known, others
// not.
func TestCheckFigureKey(t *testing.T) {
	ks := []int{1, 3, 5, 10}
	for _, key := range []string{"recall@3", "mrr", "no_match_rate", "missing_named_rate", "splits.test.recall@5", "splits.test.hinted_right_first_rate", "langs.en.emptied_rate", "typo.ndcg@10",
		"negative_splits.dev.no_match_rate", "negative_kinds.errand.no_match_rate", "negative_langs.en.no_match_rate"} {
		if err := CheckFigureKey(key, ks); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
	for _, key := range []string{"recall@2", "p50_ms", "queries", "splits.test", "splits..mrr", "negative_splits.test.mrr", "typo.no_match_rate", "negative_splits.test.hinted_right_first_rate", "a.b.c.d", ""} {
		if err := CheckFigureKey(key, ks); err == nil {
			t.Errorf("%s: known, want refused", key)
		}
	}
}

// TestReferenceFiguresAreTheSources: a set's reference figures are those
// of a row of the file they cite (testdata/REFERENCE.md).
func TestReferenceFiguresAreTheSources(t *testing.T) {
	g, err := LoadGate(gatePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range g.Sets {
		if s.Reference == nil {
			continue
		}
		source, _, _ := strings.Cut(s.Reference.Source, " ")
		data, err := os.ReadFile(filepath.Join("../../..", source))
		if err != nil {
			t.Fatalf("set %s: %v", s.Name, err)
		}
		if !hasRowWith(string(data), "| "+s.Name, s.Reference.Figures) {
			t.Errorf("set %s: no row of %s holds the reference figures %v", s.Name, source, s.Reference.Figures)
		}
	}
}

// hasRowWith reports whether a line of doc starting with prefix holds
// every figure, written with three decimals.
func hasRowWith(doc, prefix string, figures map[string]float64) bool {
	for line := range strings.Lines(doc) {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		all := true
		for _, v := range figures {
			all = all && strings.Contains(line, fmt.Sprintf("| %.3f |", v))
		}
		if all {
			return true
		}
	}
	return false
}
