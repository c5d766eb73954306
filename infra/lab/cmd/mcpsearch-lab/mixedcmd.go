package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// runMixed is mcpsearch-lab mixed: fairness in a catalog where only some
// items carry written requests (issue 35). For each seed it removes the
// requests of a share of the catalog's servers and compares every query
// of the chosen split three ways: with the requests of every server (as
// shipped), of none, and mixed. A query whose tools all lie on stripped
// servers is compared mixed against none; one whose tools all kept their
// requests, mixed against shipped; the negatives' no-match is shown all
// three ways.
func runMixed(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("mixed", stdout, stderr)
	data := fs.String("data", eval.GateFile, "the gate's data `FILE`: the sets' files and splits")
	only := fs.String("sets", "everyday,fresh,broad", "the gate's sets to measure, comma-separated: each over the same catalog")
	split := fs.String("split", "test", "the split of the sets' queries and negatives to measure (dev to tune on)")
	seedList := fs.String("seeds", "1,2,3", "the seeds that choose the servers stripped, comma-separated")
	share := fs.Float64("share", 0.5, "the share of the servers with written requests whose requests are removed")
	off := fs.String("off", "", "rules to switch off in every catalog, comma-separated (eval --off)")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	seeds, err := parseSeeds(*seedList)
	if err != nil {
		return err
	}
	if *share <= 0 || *share >= 1 {
		return fmt.Errorf("%w: --share %v: want a share between 0 and 1, not either", cli.ErrUsage, *share)
	}
	g, err := eval.LoadGate(*data)
	if err != nil {
		return fmt.Errorf("%w: --data: %w", cli.ErrUsage, err)
	}
	sets, err := chooseGateSets(g, *only)
	if err != nil {
		return err
	}
	m, err := measureMixed(g, sets, mixedOptions{split: *split, seeds: seeds, share: *share, off: *off})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	return m.print(stdout)
}

func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for part := range strings.SplitSeq(s, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: --seeds: %q is not a seed (a whole number)", cli.ErrUsage, part)
		}
		out = append(out, n)
	}
	return out, nil
}

// mixedQueries are one set's queries and negatives of the split measured.
type mixedQueries struct {
	set       string
	queries   []eval.Query
	negatives []eval.Query
}

// mixedFigures are the measures of one set, or of every set pooled
// ("all"), over the seeds: each side's queries in the two catalogs it is
// compared in, and the negatives in all three.
type mixedFigures struct {
	Set string `json:"set"`
	// Stripped: queries whose tools lost their requests, with no
	// requests anywhere (Base) and mixed.
	Stripped mixedSide `json:"stripped"`
	// Kept: queries whose tools kept their requests, as shipped (Base)
	// and mixed.
	Kept mixedSide `json:"kept"`
	// Across counts the queries left out: their tools on both sides.
	Across int `json:"across"`
	// NoMatch is the negatives' no-match rate in each catalog.
	NoMatch map[string]float64 `json:"no_match"`
	// Negatives are the negatives measured (times the seeds).
	Negatives int `json:"negatives"`

	stripped, kept           [2][]eval.Figures
	negShipped, negNone, neg []eval.Figures
}

// mixedSide compares one side's queries in two catalogs.
type mixedSide struct {
	Queries int                `json:"queries"`
	Base    map[string]float64 `json:"base"`
	Mixed   map[string]float64 `json:"mixed"`
	// R5 is the change of R@5, mixed minus base, with its 95% interval.
	R5 eval.Delta `json:"r5_delta"`
}

// mixedReport is what mixed measures.
type mixedReport struct {
	Catalog string         `json:"catalog"`
	Split   string         `json:"split"`
	Share   float64        `json:"share"`
	Seeds   []mixedSeed    `json:"seeds"`
	Sets    []mixedFigures `json:"sets"`
}

// mixedSeed is one seed and the servers it stripped.
type mixedSeed struct {
	Seed     uint64   `json:"seed"`
	Stripped []string `json:"stripped"`
	Servers  int      `json:"servers_with_requests"`
}

// mixedOptions are what mixed measures: the split, the seeds choosing
// the servers stripped, their share, the rules switched off.
type mixedOptions struct {
	split string
	seeds []uint64
	share float64
	off   string
}

// measureMixed measures sets (all over one catalog) with the servers each
// seed chooses stripped.
func measureMixed(g *eval.Gate, sets []eval.GateSet, o mixedOptions) (*mixedReport, error) {
	split, seeds, share := o.split, o.seeds, o.share
	catDir, qs, err := mixedSets(g, sets, split)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.LoadDir(catDir, nil)
	if err != nil {
		return nil, err
	}
	rep := &mixedReport{Catalog: catDir, Split: split, Share: share}
	shipped, err := searchVariant(cat, qs, o.off)
	if err != nil {
		return nil, fmt.Errorf("as shipped: %w", err)
	}
	none, err := searchVariant(eval.WithoutRequests(cat, nil), qs, o.off)
	if err != nil {
		return nil, fmt.Errorf("without requests: %w", err)
	}
	figs := make([]mixedFigures, len(qs)+1)
	for i := range qs {
		figs[i].Set = qs[i].set
	}
	figs[len(qs)].Set = "all"
	servers := eval.ToolServers(cat)
	for _, seed := range seeds {
		strip := eval.StripShare(cat, share, seed)
		rep.Seeds = append(rep.Seeds, mixedSeed{Seed: seed, Stripped: sortedKeys(strip), Servers: len(eval.ServersWithRequests(cat))})
		mixed, err := searchVariant(eval.WithoutRequests(cat, strip), qs, o.off)
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		for i, q := range qs {
			for _, f := range []*mixedFigures{&figs[i], &figs[len(qs)]} {
				f.add(q.queries, servers, strip, shipped[i], none[i], mixed[i])
			}
		}
	}
	for i := range figs {
		figs[i].finish()
	}
	rep.Sets = figs
	return rep, nil
}

// mixedSets returns the catalog the sets share and each set's queries and
// negatives of split.
func mixedSets(g *eval.Gate, sets []eval.GateSet, split string) (string, []mixedQueries, error) {
	var catDir string
	var out []mixedQueries
	for _, s := range sets {
		if s.Catalog == "" || s.Holdout != nil {
			return "", nil, fmt.Errorf("%w: --sets: set %s is not measured over a catalog directory", cli.ErrUsage, s.Name)
		}
		if catDir != "" && s.Catalog != catDir {
			return "", nil, fmt.Errorf("%w: --sets: set %s is over %s, another over %s: want one catalog", cli.ErrUsage, s.Name, s.Catalog, catDir)
		}
		catDir = s.Catalog
		p := s.Paths(g.Dir, "")
		q, err := loadSplit(p.Queries, split)
		if err != nil {
			return "", nil, err
		}
		var negs []eval.Query
		if p.Negatives != "" {
			if negs, err = loadSplit(p.Negatives, split); err != nil {
				return "", nil, err
			}
		}
		out = append(out, mixedQueries{set: s.Name, queries: q, negatives: negs})
	}
	return catDir, out, nil
}

// loadSplit loads the queries of path whose split is split.
func loadSplit(path, split string) ([]eval.Query, error) {
	all, err := eval.LoadQueries(path, 0, 0)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(q eval.Query) bool { return splitOf(q) != split }), nil
}

// variantResults are one catalog's results of a set: its queries' and its
// negatives'.
type variantResults struct{ queries, negatives []eval.Result }

// searchVariant builds cat and searches every set's queries and negatives.
func searchVariant(cat *catalog.Catalog, qs []mixedQueries, off string) ([]variantResults, error) {
	set, err := eval.BuildLoaded(cat)
	if err != nil {
		return nil, err
	}
	defer set.Close()
	if off != "" {
		if err := set.Index().SetRulesOff(strings.Split(off, ",")...); err != nil {
			return nil, fmt.Errorf("%w: --off: %w", cli.ErrUsage, err)
		}
	}
	out := make([]variantResults, len(qs))
	for i, q := range qs {
		if err := set.CheckGold(q.queries); err != nil {
			return nil, fmt.Errorf("set %s: %w", q.set, err)
		}
		if out[i].queries, _, err = searchAll(set, q.queries, 10); err != nil {
			return nil, err
		}
		if out[i].negatives, _, err = searchAll(set, q.negatives, 10); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// add adds one seed's results of one set: each query to its side, the
// negatives to the three catalogs'.
func (f *mixedFigures) add(queries []eval.Query, servers map[string]string, strip map[string]bool, shipped, none, mixed variantResults) {
	pShipped, pNone, pMixed := eval.PerQuery(shipped.queries), eval.PerQuery(none.queries), eval.PerQuery(mixed.queries)
	for i, q := range queries {
		switch eval.SideOf(q, servers, strip) {
		case eval.Stripped:
			f.stripped[0] = append(f.stripped[0], pNone[i])
			f.stripped[1] = append(f.stripped[1], pMixed[i])
		case eval.Kept:
			f.kept[0] = append(f.kept[0], pShipped[i])
			f.kept[1] = append(f.kept[1], pMixed[i])
		default:
			f.Across++
		}
	}
	f.negShipped = append(f.negShipped, eval.PerQuery(shipped.negatives)...)
	f.negNone = append(f.negNone, eval.PerQuery(none.negatives)...)
	f.neg = append(f.neg, eval.PerQuery(mixed.negatives)...)
}

// finish computes the figures from the per-query ones.
func (f *mixedFigures) finish() {
	f.Stripped = compareSide(f.stripped)
	f.Kept = compareSide(f.kept)
	f.Negatives = len(f.neg)
	f.NoMatch = map[string]float64{"shipped": meanOf(f.negShipped, emptyOf), "none": meanOf(f.negNone, emptyOf), "mixed": meanOf(f.neg, emptyOf)}
}

func compareSide(p [2][]eval.Figures) mixedSide {
	s := mixedSide{Queries: len(p[0]), Base: sideFigures(p[0]), Mixed: sideFigures(p[1])}
	s.R5 = eval.PairedBootstrap(column(p[0], r5Of), column(p[1], r5Of), 2000, 35)
	return s
}

func sideFigures(fs []eval.Figures) map[string]float64 {
	return map[string]float64{"recall@1": meanOf(fs, r1Of), "recall@5": meanOf(fs, r5Of), "ndcg@10": meanOf(fs, ndcgOf), "emptied_rate": meanOf(fs, emptyOf),
		"hinted_right_first_rate": hintedRightFirst(fs)}
}

// hintedRightFirst is the share of the pages whose first item is right
// that carry a hint (0 when none is right).
func hintedRightFirst(fs []eval.Figures) float64 {
	right, hinted := 0.0, 0.0
	for _, f := range fs {
		right += f.RightFirst
		hinted += f.Hinted
	}
	if right == 0 {
		return 0
	}
	return round4(hinted / right)
}

func r1Of(f eval.Figures) float64    { return f.R1 }
func r5Of(f eval.Figures) float64    { return f.R5 }
func ndcgOf(f eval.Figures) float64  { return f.NDCG10 }
func emptyOf(f eval.Figures) float64 { return f.Empty }

func meanOf(fs []eval.Figures, of func(eval.Figures) float64) float64 {
	if len(fs) == 0 {
		return 0
	}
	sum := 0.0
	for _, f := range fs {
		sum += of(f)
	}
	return round4(sum / float64(len(fs)))
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// print writes the report as a table a set a row pair.
func (r *mixedReport) print(w io.Writer) error {
	fmt.Fprintf(w, "catalog %s, split %s: the requests of %.0f%% of the servers with requests removed, seeds", r.Catalog, r.Split, 100*r.Share)
	for _, s := range r.Seeds {
		fmt.Fprintf(w, " %d (%d of %d)", s.Seed, len(s.Stripped), s.Servers)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-10s %-9s %7s %-8s %6s %6s %6s %7s %6s  %s\n", "set", "side", "queries", "catalog", "R@1", "R@5", "nDCG", "emptied", "hinted", "R@5 mixed - base [95%]")
	for _, f := range r.Sets {
		for _, side := range []struct {
			name, base string
			s          mixedSide
		}{{"stripped", "none", f.Stripped}, {"kept", "shipped", f.Kept}} {
			row := func(cat string, m map[string]float64, delta string) {
				fmt.Fprintf(w, "%-10s %-9s %7d %-8s %6.3f %6.3f %6.3f %7.3f %6.3f  %s\n", f.Set, side.name, side.s.Queries, cat,
					m["recall@1"], m["recall@5"], m["ndcg@10"], m["emptied_rate"], m["hinted_right_first_rate"], delta)
			}
			row(side.base, side.s.Base, "")
			d := side.s.R5
			row("mixed", side.s.Mixed, fmt.Sprintf("%+.3f [%+.3f, %+.3f]", d.Mean, d.Lo, d.Hi))
		}
		fmt.Fprintf(w, "%-10s negatives %d: no-match shipped %.3f, none %.3f, mixed %.3f; %d queries across both sides left out\n",
			f.Set, f.Negatives, f.NoMatch["shipped"], f.NoMatch["none"], f.NoMatch["mixed"], f.Across)
	}
	return nil
}
