package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// An ablation switches each rule of the retrieval pipeline off in turn
// (index.Rules, Index.SetRulesOff) and compares every set's figures with
// all rules on, query by query: the change of the mean and its 95%
// interval by the paired bootstrap over the set's queries. Search is
// deterministic — the run with every rule on is made twice, and must give
// the same figures query by query — so a set's only noise is which
// queries it holds; a change whose interval excludes zero is beyond it.

// ablationSet is one set the gate measures (ablationSets: the sets of
// infra/lab/eval/gate.json).
type ablationSet struct {
	name          string
	bench         benchmark
	every, offset int
}

// ablationColumn is one subset of a set: its answered queries, or its
// negatives, of one half ("dev", "test") or all.
type ablationColumn struct {
	set, half string
	negative  bool
	at        []int // the positions of its queries in the set's run
}

func (c ablationColumn) name() string {
	n := c.set
	if c.negative {
		n += " negatives"
	}
	if c.half != "" {
		n += " " + c.half
	}
	return n
}

// heldOut reports whether the column is one the rules were not tuned on:
// every column but a dev half and its subsets.
func (c ablationColumn) heldOut() bool { return c.half != "dev" && !strings.HasPrefix(c.half, "dev ") }

// loadedSet is a set built, with its queries and negatives in one list.
type loadedSet struct {
	ablationSet
	set     *eval.Set
	queries []eval.Query
	columns []ablationColumn
	// decisions are the no-match decisions of the last run, by query.
	decisions []string
}

func loadAblationSet(s ablationSet) (*loadedSet, error) {
	queries, err := s.bench.load(s.bench.queries, s.every, s.offset)
	if err != nil {
		return nil, err
	}
	var negatives []eval.Query
	if s.bench.negatives != "" {
		if negatives, err = s.bench.load(s.bench.negatives, 0, 0); err != nil {
			return nil, err
		}
	}
	set, err := s.bench.open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if err := set.CheckGold(queries); err != nil {
		set.Close()
		return nil, fmt.Errorf("%s: %w", s.bench.queries, err)
	}
	l := &loadedSet{ablationSet: s, set: set, queries: append(queries, negatives...)}
	l.columns = append(columnsOf(s.name, queries, 0, false), columnsOf(s.name, negatives, len(queries), true)...)
	return l, nil
}

// columnsOf groups queries (at positions from first on) by half, and each
// half's queries by language (when the set says) and its typos, as the
// gate reports them.
func columnsOf(set string, queries []eval.Query, first int, negative bool) []ablationColumn {
	byHalf := map[string][]int{}
	for i, q := range queries {
		half := splitOf(q)
		if half != "dev" && half != "test" {
			half = ""
		}
		byHalf[half] = append(byHalf[half], first+i)
		if q.Lang != "" {
			byHalf[strings.TrimSpace(half+" lang "+q.Lang)] = append(byHalf[strings.TrimSpace(half+" lang "+q.Lang)], first+i)
		}
		if q.Typo {
			byHalf[strings.TrimSpace(half+" typo")] = append(byHalf[strings.TrimSpace(half+" typo")], first+i)
		}
	}
	var out []ablationColumn
	for _, half := range slices.Sorted(maps.Keys(byHalf)) {
		out = append(out, ablationColumn{set: set, half: half, negative: negative, at: byHalf[half]})
	}
	return out
}

// run searches every query of the set with the rules named off switched
// off, and returns their figures.
func (l *loadedSet) run(off ...string) ([]eval.Figures, error) {
	if err := l.set.Index().SetRulesOff(off...); err != nil {
		return nil, err
	}
	results := make([]eval.Result, len(l.queries))
	l.decisions = make([]string, len(l.queries))
	for i, q := range l.queries {
		r, err := l.set.Search(context.Background(), q, 10)
		if err != nil {
			return nil, err
		}
		results[i], l.decisions[i] = r, r.Decision
	}
	return eval.PerQuery(results), nil
}

// ablationRow is what switching one rule off changed in one column.
type ablationRow struct {
	Rule    string `json:"rule"`
	Column  string `json:"column"`
	HeldOut bool   `json:"held_out"`
	// Negative is set for a column of queries no tool answers.
	Negative bool       `json:"negative"`
	Queries  int        `json:"queries"`
	R1       eval.Delta `json:"recall@1"`
	R5       eval.Delta `json:"recall@5"`
	NDCG10   eval.Delta `json:"ndcg@10"`
	Empty    eval.Delta `json:"empty"` // the emptied rate of answered queries, the no-match rate of negatives
	// Loss is set when switching the rule off lowers the column's figures
	// beyond noise: the rule earns its keep there.
	Loss bool `json:"loss"`
}

// deltas compares a column's figures with the rule off (alt) and on.
func deltas(col ablationColumn, base, alt []eval.Figures, rounds int, seed uint64) ablationRow {
	pick := func(fs []eval.Figures, f func(eval.Figures) float64) []float64 {
		out := make([]float64, len(col.at))
		for i, at := range col.at {
			out[i] = f(fs[at])
		}
		return out
	}
	boot := func(f func(eval.Figures) float64) eval.Delta {
		return eval.PairedBootstrap(pick(base, f), pick(alt, f), rounds, seed)
	}
	row := ablationRow{Column: col.name(), HeldOut: col.heldOut(), Negative: col.negative, Queries: len(col.at),
		Empty: boot(func(f eval.Figures) float64 { return f.Empty })}
	if col.negative {
		row.Loss = row.Empty.Significant() && row.Empty.Mean < 0 // fewer negatives emptied
		return row
	}
	row.R1 = boot(func(f eval.Figures) float64 { return f.R1 })
	row.R5 = boot(func(f eval.Figures) float64 { return f.R5 })
	row.NDCG10 = boot(func(f eval.Figures) float64 { return f.NDCG10 })
	for _, d := range []eval.Delta{row.R1, row.R5, row.NDCG10} {
		row.Loss = row.Loss || d.Significant() && d.Mean < 0
	}
	row.Loss = row.Loss || row.Empty.Significant() && row.Empty.Mean > 0 // more answerable queries emptied
	return row
}

// ablation is the outcome of switching each rule off in turn.
type ablation struct {
	Baseline map[string]map[string]float64 `json:"baseline"` // column → figure → value, every rule on
	Rows     []ablationRow                 `json:"rows"`
	// Decisions count the no-match decisions of each column, every rule
	// on (column → decision → requests); Shifts what each rule off moved.
	Decisions map[string]map[string]int `json:"decisions"`
	Shifts    []decisionShift           `json:"decision_shifts"`
}

// ablate runs the sets with every rule on, then with each rule of names
// off in turn.
func ablate(sets []*loadedSet, names []string, rounds int, seed uint64, progress io.Writer) (*ablation, error) {
	out := &ablation{Baseline: map[string]map[string]float64{}, Decisions: map[string]map[string]int{}}
	base := make([][]eval.Figures, len(sets))
	baseDecisions := make([][]string, len(sets))
	for i, s := range sets {
		var err error
		if base[i], err = s.run(); err != nil {
			return nil, err
		}
		again, err := s.run()
		if err != nil {
			return nil, err
		}
		if !slices.Equal(again, base[i]) {
			return nil, fmt.Errorf("%s: two runs with every rule on differ: search is not deterministic, and the bootstrap alone is not the noise", s.name)
		}
		for _, c := range s.columns {
			out.Baseline[c.name()] = meanFigures(c, base[i])
		}
		baseDecisions[i] = s.decisions
		maps.Copy(out.Decisions, columnDecisions(s.columns, s.decisions))
	}
	for _, name := range names {
		fmt.Fprintf(progress, "ablate: %s\n", name)
		for i, s := range sets {
			alt, err := s.run(name)
			if err != nil {
				return nil, err
			}
			for _, c := range s.columns {
				row := deltas(c, base[i], alt, rounds, seed)
				row.Rule = name
				out.Rows = append(out.Rows, row)
			}
			out.Shifts = append(out.Shifts, shiftsOf(name, s.columns, baseDecisions[i], s.decisions)...)
		}
	}
	for _, s := range sets {
		if err := s.set.Index().SetRulesOff(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func meanFigures(c ablationColumn, fs []eval.Figures) map[string]float64 {
	m := map[string]float64{}
	for _, at := range c.at {
		f := fs[at]
		m["recall@1"] += f.R1
		m["recall@5"] += f.R5
		m["ndcg@10"] += f.NDCG10
		m["empty"] += f.Empty
	}
	for k := range m {
		m[k] = round4(m[k] / float64(len(c.at)))
	}
	if c.negative {
		return map[string]float64{"no_match_rate": m["empty"]}
	}
	return m
}

// ablateOptions are the flags of mcpsearch-lab eval --ablate: the gate's
// data and the DIR of its sets, a catalog in place of the sets' own, the
// rules and sets to measure (all when empty), the bootstrap's resamples,
// and the seed of the typo variant (none when 0) and the fewest letters of
// a word it gives a slip, and the seed of the wrapped variant (none when
// 0; eval.WrapVariant), its sets named with "+wrapped".
type ablateOptions struct {
	data, dir, catalog, only, sets string
	rounds, typoLetters            int
	typoSeed, wrapSeed             uint64
}

// runAblate is mcpsearch-lab eval --ablate. With a typo seed, every set
// is measured on its typo variant, named with "+typos".
func runAblate(o ablateOptions, asJSON, markdown bool, stdout, stderr io.Writer) error {
	names := ruleNames()
	if o.only != "" {
		names = strings.Split(o.only, ",")
		for _, n := range names {
			if !slices.Contains(ruleNames(), n) {
				return fmt.Errorf("%w: --rules: no retrieval rule is named %q (known: %s)", cli.ErrUsage, n, strings.Join(ruleNames(), ", "))
			}
		}
	}
	all, err := ablationSets(o.data, o.dir, o.catalog)
	if err != nil {
		return err
	}
	chosen, err := chooseSets(all, o.sets)
	if err != nil {
		return err
	}
	if o.typoSeed > 0 {
		for i := range chosen {
			chosen[i].name += "+typos"
			chosen[i].bench.typoSeed, chosen[i].bench.typoLetters = o.typoSeed, o.typoLetters
		}
	}
	if o.wrapSeed > 0 {
		for i := range chosen {
			chosen[i].name += "+wrapped"
			chosen[i].bench.wrapSeed = o.wrapSeed
		}
	}
	var sets []*loadedSet
	defer func() {
		for _, s := range sets {
			s.set.Close()
		}
	}()
	for _, s := range chosen {
		l, err := loadAblationSet(s)
		if err != nil {
			return err
		}
		sets = append(sets, l)
	}
	a, err := ablate(sets, names, o.rounds, 1, stderr)
	if err != nil {
		return err
	}
	switch {
	case asJSON:
		return json.NewEncoder(stdout).Encode(a)
	case markdown:
		return a.markdown(stdout)
	}
	if err := a.print(stdout); err != nil {
		return err
	}
	a.printDecisions(stdout)
	return nil
}

// chooseSets returns the sets named in names (comma-separated; all when
// empty).
func chooseSets(all []ablationSet, names string) ([]ablationSet, error) {
	if names == "" {
		return all, nil
	}
	var out []ablationSet
	var known []string
	for _, n := range strings.Split(names, ",") {
		i := slices.IndexFunc(all, func(s ablationSet) bool { return s.name == n })
		if i < 0 {
			for _, s := range all {
				known = append(known, s.name)
			}
			return nil, fmt.Errorf("%w: --sets: no set is named %q (known: %s)", cli.ErrUsage, n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

func ruleNames() []string {
	var names []string
	for _, r := range index.Rules() {
		names = append(names, r.Name)
	}
	return names
}
