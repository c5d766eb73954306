package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GateFile is the gate's data, relative to the repository's root: every
// set the gate and the ablation measure, its files, its splits and the
// floors and ceilings of its figures (README.md, "Retrieval quality").
const GateFile = "infra/lab/eval/gate.json"

// Gate is the data of the retrieval gate (GateFile): the sets, in the
// order the gate runs them.
type Gate struct {
	// About says what the gate is and how its bounds are set.
	About string `json:"about"`
	// Dir is the default directory of the sets' files (a set's tools,
	// queries and negatives are relative to it), relative to the
	// repository's root.
	Dir  string    `json:"dir"`
	Sets []GateSet `json:"sets"`
}

// GateSet is one set of the gate. Its tools come from Tools (a
// tools.jsonl under the gate's Dir), Catalog (a catalog directory,
// relative to the repository's root) or Holdout (a catalog whose first
// written requests are held out as the queries).
type GateSet struct {
	Name string `json:"name"`
	// Title follows the name in the gate's header line.
	Title string `json:"title,omitempty"`
	// About says what the set is and where its bounds come from.
	About     string   `json:"about,omitempty"`
	Tools     string   `json:"tools,omitempty"`
	Catalog   string   `json:"catalog,omitempty"`
	Holdout   *Holdout `json:"holdout,omitempty"`
	Queries   string   `json:"queries,omitempty"`
	Negatives string   `json:"negatives,omitempty"`
	// K are the recall cut-offs (default 1, 5, 10).
	K []int `json:"k,omitempty"`
	// Every and Offset keep the query lines whose 0-based index i has
	// i % Every == Offset (eval --sample Every:Offset); Every 0 keeps all.
	Every  int `json:"every,omitempty"`
	Offset int `json:"offset,omitempty"`
	// TunedOn is the split the rules were tuned on ("dev"), "all" when
	// the set has no split and its figures informed the rules' constants,
	// or "" when nothing was tuned on it; TunedOnWhy says so.
	TunedOn    string `json:"tuned_on,omitempty"`
	TunedOnWhy string `json:"tuned_on_why,omitempty"`
	// Reported is the split whose figures are the measure ("test"), or ""
	// for the whole set.
	Reported string `json:"reported,omitempty"`
	// Show, if set, is a regular expression: the gate prints only the
	// lines of the set's report it matches.
	Show string `json:"show,omitempty"`
	// Label is the set's row label in the README tables: {tools},
	// {queries} (of the reported split) and {split} ("test half", or
	// "tuned on" for a set tuned on as a whole) filled in.
	Label string `json:"label,omitempty"`
	// Reference, if set, is a baseline's figures shown beside the set's.
	Reference *Reference `json:"reference,omitempty"`
	// NoAblate leaves the set out of eval --ablate.
	NoAblate bool    `json:"no_ablate,omitempty"`
	Bounds   []Bound `json:"bounds"`
}

// Reference is a baseline's figures on a set, with where they come from.
type Reference struct {
	Label   string             `json:"label"`
	Source  string             `json:"source"`
	Figures map[string]float64 `json:"figures"`
}

// Holdout names a catalog whose tools' first N written requests are held
// out as queries (mcpsearch-lab holdout), built beside the server files of
// the catalog Beside; both relative to the repository's root.
type Holdout struct {
	Catalog string `json:"catalog"`
	Beside  string `json:"beside,omitempty"`
	N       int    `json:"n"`
}

// Bound is a floor (Min) or a ceiling (Max) of one figure, named by its
// key in eval --json's output (nested keys joined by dots:
// "splits.test.recall@5"), with why it stands where it does.
type Bound struct {
	Figure string   `json:"figure"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	Why    string   `json:"why,omitempty"`
}

// Value is the bound's floor or ceiling.
func (b Bound) Value() float64 {
	if b.Min != nil {
		return *b.Min
	}
	return *b.Max
}

// LoadGate reads and checks a gate file: every field known, every set
// named once with one source of tools and its queries, every bound on a
// figure eval reports, between 0 and 1. Errors name the file and field.
// The sets' files are not opened (GateSet.CheckFiles).
func LoadGate(path string) (*Gate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var g Gate
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &g, nil
}

func (g *Gate) check() error {
	if g.Dir == "" {
		return errors.New("dir: empty, want the directory of the sets' files")
	}
	if len(g.Sets) == 0 {
		return errors.New("sets: none")
	}
	seen := map[string]bool{}
	for i, s := range g.Sets {
		if err := s.check(); err != nil {
			return fmt.Errorf("sets[%d] (%s): %w", i, s.Name, err)
		}
		if seen[s.Name] {
			return fmt.Errorf("sets[%d]: name %q: named twice", i, s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

var setName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

func (s GateSet) check() error {
	if !setName.MatchString(s.Name) {
		return fmt.Errorf("name %q: want lowercase letters, digits, - and _", s.Name)
	}
	sources := 0
	for _, src := range []string{s.Tools, s.Catalog} {
		if src != "" {
			sources++
		}
	}
	if s.Holdout != nil {
		sources++
		if s.Holdout.Catalog == "" || s.Holdout.N < 1 {
			return errors.New("holdout: want a catalog and n >= 1")
		}
		if s.Queries != "" {
			return errors.New("queries: a holdout set's queries are its held-out requests")
		}
	} else if s.Queries == "" {
		return errors.New("queries: empty")
	}
	if sources != 1 {
		return errors.New("tools, catalog, holdout: want exactly one")
	}
	if err := s.checkSplits(); err != nil {
		return err
	}
	for _, k := range s.K {
		if k < 1 || k > 50 {
			return fmt.Errorf("k: %d: want cut-offs from 1 to 50", k)
		}
	}
	if s.Every < 0 || s.Offset < 0 || (s.Every > 0 && s.Offset >= s.Every) || (s.Every == 0 && s.Offset != 0) {
		return fmt.Errorf("every, offset: %d, %d: want 0 <= offset < every", s.Every, s.Offset)
	}
	if _, err := regexp.Compile(s.Show); err != nil {
		return fmt.Errorf("show: %w", err)
	}
	if err := s.checkTables(); err != nil {
		return err
	}
	for i, b := range s.Bounds {
		if err := s.checkBound(b); err != nil {
			return fmt.Errorf("bounds[%d] (%s): %w", i, b.Figure, err)
		}
	}
	return nil
}

func (s GateSet) checkSplits() error {
	if s.TunedOn != "" && s.TunedOn == s.Reported {
		return fmt.Errorf("reported: %q is the split tuned on", s.Reported)
	}
	if s.TunedOn != "" && s.TunedOnWhy == "" {
		return errors.New("tuned_on_why: empty, want what was tuned on the set")
	}
	return nil
}

// checkTables checks what the README tables show of the set: a label
// that says whether its figures are tuned on or held out, and reference
// figures eval would report.
func (s GateSet) checkTables() error {
	if (s.TunedOn == "all" || s.Reported != "") && s.Label != "" && !strings.Contains(s.Label, "{split}") {
		return fmt.Errorf("label %q: want {split}, which says whether the figures are tuned on or held out", s.Label)
	}
	if r := s.Reference; r != nil {
		if r.Label == "" || r.Source == "" {
			return errors.New("reference: want a label and a source")
		}
		for key, v := range r.Figures {
			if err := CheckFigureKey(key, s.Ks()); err != nil {
				return fmt.Errorf("reference.figures: %w", err)
			}
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("reference.figures: %s: %v: want a share between 0 and 1", key, v)
			}
		}
	}
	return nil
}

func (s GateSet) checkBound(b Bound) error {
	if (b.Min == nil) == (b.Max == nil) {
		return errors.New("want one of min and max")
	}
	if v := b.Value(); !(v >= 0 && v <= 1) {
		return fmt.Errorf("%v: want a share between 0 and 1", v)
	}
	if err := CheckFigureKey(b.Figure, s.Ks()); err != nil {
		return err
	}
	if s.TunedOn != "" && s.TunedOn != "all" && strings.HasSuffix(splitOfKey(b.Figure), "."+s.TunedOn) {
		return fmt.Errorf("a bound on the split %q, the one tuned on", s.TunedOn)
	}
	return nil
}

// splitOfKey is the "splits.NAME" or "negative_splits.NAME" part of a
// figure's key, or "".
func splitOfKey(key string) string {
	parts := strings.Split(key, ".")
	if len(parts) == 3 && (parts[0] == "splits" || parts[0] == "negative_splits") {
		return parts[0] + "." + parts[1]
	}
	return ""
}

// Ks are the set's recall cut-offs.
func (s GateSet) Ks() []int {
	if len(s.K) == 0 {
		return []int{1, 5, 10}
	}
	ks := slices.Clone(s.K)
	slices.Sort(ks)
	return slices.Compact(ks)
}

// Answered figures are those of queries some tool answers; negative
// figures those of queries none does.
var (
	answeredFigureNames = []string{"ndcg@10", "mrr", "emptied_rate", "hinted_right_first_rate"}
	negativeFigureNames = []string{"no_match_rate"}
	topFigureNames      = []string{"no_match_rate", "missing_named_rate"}
)

// CheckFigureKey fails unless key names a share eval --json reports for
// a set with the recall cut-offs ks: an answered figure ("recall@5",
// "mrr", "hinted_right_first_rate") at the top, under "splits.NAME.", "langs.NAME." or "typo.", a
// negative one ("no_match_rate") under "negative_splits.NAME.",
// "negative_langs.NAME." or "negative_kinds.NAME.", or
// "missing_named_rate".
func CheckFigureKey(key string, ks []int) error {
	parts := strings.Split(key, ".")
	last := parts[len(parts)-1]
	answered := slices.Contains(answeredFigureNames, last) || isRecall(last, ks)
	var ok bool
	switch {
	case len(parts) == 1:
		ok = answered || slices.Contains(topFigureNames, last)
	case len(parts) == 2:
		ok = parts[0] == "typo" && answered
	case len(parts) == 3 && parts[1] != "":
		switch parts[0] {
		case "splits", "langs":
			ok = answered
		case "negative_splits", "negative_langs", "negative_kinds":
			ok = slices.Contains(negativeFigureNames, last)
		}
	}
	if !ok {
		return fmt.Errorf("figure %q: not a share eval reports for this set (recall@K for K of %v, ndcg@10, mrr, emptied_rate, hinted_right_first_rate, at the top or under splits.NAME., langs.NAME., typo.; no_match_rate at the top or under negative_splits.NAME., negative_langs.NAME., negative_kinds.NAME.; missing_named_rate)", key, ks)
	}
	return nil
}

func isRecall(name string, ks []int) bool {
	k, ok := strings.CutPrefix(name, "recall@")
	n, err := strconv.Atoi(k)
	return ok && err == nil && slices.Contains(ks, n)
}

// Paths are a set's files, resolved: its tools file or catalog, its
// queries and negatives ("" when it has none).
type Paths struct {
	Tools, Catalog, Queries, Negatives string
}

// Paths resolves the set's files: tools, queries and negatives under dir
// (the gate's Dir, or another directory of the same layout), the catalog
// as it is (relative to the repository's root), or catalog instead when it
// is not "".
func (s GateSet) Paths(dir, catalog string) Paths {
	under := func(p string) string {
		if p == "" {
			return ""
		}
		return filepath.Join(dir, p)
	}
	p := Paths{Tools: under(s.Tools), Queries: under(s.Queries), Negatives: under(s.Negatives), Catalog: s.Catalog}
	if p.Catalog != "" && catalog != "" {
		p.Catalog = catalog
	}
	return p
}

// CheckFiles fails naming the first of the set's files that cannot be
// read, with the field that names it.
func (s GateSet) CheckFiles(p Paths) error {
	files := []struct{ field, path string }{{"tools", p.Tools}, {"catalog", p.Catalog}, {"queries", p.Queries}, {"negatives", p.Negatives}}
	if s.Holdout != nil {
		files = append(files, struct{ field, path string }{"holdout.catalog", s.Holdout.Catalog},
			struct{ field, path string }{"holdout.beside", s.Holdout.Beside})
	}
	for _, f := range files {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("set %s: %s: %w", s.Name, f.field, err)
		}
	}
	return nil
}

// Set returns the set named name.
func (g *Gate) Set(name string) (GateSet, bool) {
	i := slices.IndexFunc(g.Sets, func(s GateSet) bool { return s.Name == name })
	if i < 0 {
		return GateSet{}, false
	}
	return g.Sets[i], true
}
