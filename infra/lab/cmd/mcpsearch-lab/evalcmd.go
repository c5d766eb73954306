package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/index"

	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stdout, stderr)
	tools := fs.String("tools", "", "tools.jsonl of the benchmark")
	catalog := fs.String("catalog", "", "a catalog `DIR` instead of --tools, built as mcpsearch build --library=off does (the library of public servers' requests is not attached: to measure it, write its requests into a copy of the catalog); gold ids are canonical tool names (<server>__<tool>)")
	queries := fs.String("queries", "", "queries.jsonl of the benchmark")
	negatives := fs.String("negatives", "", "optional negatives.jsonl: queries no tool answers")
	asJSON := fs.Bool("json", false, "print one JSON object instead of tables")
	kList := fs.String("k", "1,5,10", "recall cut-offs, comma-separated")
	sample := fs.String("sample", "", "N:R keeps the query lines whose 0-based index i has i % N == R")
	misses := fs.Int("misses", 0, "print up to this many queries whose first result is not relevant")
	floors := fs.String("min", "", "floors, e.g. recall@1=0.75,splits.test.ndcg@10=0.86: exit 1 naming each figure below its floor (keys of the --json output, nested ones joined by dots)")
	ceilings := fs.String("max", "", "ceilings, e.g. emptied_rate=0.03: exit 1 naming each figure above its ceiling")
	abl := fs.Bool("ablate", false, "switch each retrieval rule off in turn and print what that changes on every set of the gate (--data; their files under --dir, the catalog sets over --catalog when given)")
	data := fs.String("data", eval.GateFile, "with --ablate: the gate's data `FILE`, which names the sets and their files")
	dir := fs.String("dir", "", "with --ablate: the `DIR` of the gate's sets (default: the gate's, infra/lab/eval/testdata)")
	only := fs.String("rules", "", "with --ablate: the rules to switch off, comma-separated (default: every rule)")
	setNames := fs.String("sets", "", "with --ablate: the sets to measure, comma-separated (default: every set of the gate)")
	off := fs.String("off", "", "retrieval rules to switch off, comma-separated (see --ablate)")
	markdown := fs.Bool("markdown", false, "with --ablate: print one Markdown table row a rule (the README's table)")
	rounds := fs.Int("rounds", 2000, "with --ablate: resamples of the paired bootstrap")
	typoSeed := fs.Uint64("typo-variant", 0, "with a `SEED` above 0: search the typo variant of every query and negative instead (eval.TypoVariant: a slip or none in each long word, drawn by code from the seed and the query's id; a query with no long word left out)")
	typoLetters := fs.Int("typo-letters", eval.TypoMinLetters, "with --typo-variant: the fewest `LETTERS` a word needs to get a slip (at least 3)")
	wrapSeed := fs.Uint64("wrap-variant", 0, "with a `SEED` above 0: search the wrapped variant of every query and negative instead (eval.WrapVariant: each put inside a wrapper of its language — find …, can you …?, I need to …, bitte … — drawn by code from the seed and the query's id)")
	wrapName := fs.String("wrap", "", "search every query and negative of the `WRAPPER`'s language put inside it (eval.Wrappers, named as \"can you …?\" or \"de: bitte …\"), the others as written")
	eachDecision := fs.Bool("decisions", false, "print the no-match decision each request reached (id, split, answered or negative, decision), before the tables")
	ef := cli.NewEmbedFlags(fs)
	lib := fs.String("library", "", "with --tools: attach the library of public servers' requests as a team's build would, each of the set's servers known by this `PACKAGE` (say @azure/mcp), by the packages of SERVER=PACKAGE pairs (comma-separated; a server not named by its field), or, given serverinfo, by its server field as its serverInfo.name; the line saying what it covered goes to stderr")
	againstLibrary := fs.Bool("against-library", false, "with --tools and --library: evaluate the tools without the library and with it, side by side with the paired bootstrap's interval of the change")
	against := fs.String("against", "", "a second tools.jsonl with the same tool ids (say, --tools with requests borrowed): evaluate both on the queries and print each figure side by side with the paired bootstrap's interval of the change")
	if err := fs.Parse(args); err != nil {
		return err
	}
	client, err := ef.Client(context.Background())
	if err != nil {
		return err
	}
	if *abl {
		if *tools != "" || *queries != "" || *negatives != "" || *rounds < 100 || client != nil {
			return fmt.Errorf("%w: --ablate measures the gate's sets (--dir, --catalog): --tools, --queries, --negatives and --embed-… do not apply; --rounds must be at least 100", cli.ErrUsage)
		}
		return runAblate(ablateOptions{data: *data, dir: *dir, catalog: *catalog, only: *only, sets: *setNames, rounds: *rounds, typoSeed: *typoSeed, typoLetters: *typoLetters, wrapSeed: *wrapSeed}, *asJSON, *markdown, stdout, stderr)
	}
	if err := fs.Require("queries"); err != nil {
		return err
	}
	if (*tools == "") == (*catalog == "") {
		return fmt.Errorf("%w: give one of --tools and --catalog", cli.ErrUsage)
	}
	ks, err := parseKs(*kList)
	if err != nil {
		return err
	}
	every, offset, err := parseSample(*sample)
	if err != nil {
		return err
	}
	base := benchmark{tools: *tools, catalog: *catalog, queries: *queries, negatives: *negatives, off: *off, hosted: client, typoSeed: *typoSeed, typoLetters: *typoLetters, wrapSeed: *wrapSeed, library: *lib, notes: stderr}
	if *wrapName != "" {
		w, err := eval.WrapperNamed(*wrapName)
		if err != nil {
			return fmt.Errorf("%w: --wrap: %v", cli.ErrUsage, err)
		}
		base.wrap = &w
	}
	if *lib != "" && *tools == "" {
		return fmt.Errorf("%w: --library attaches the library to --tools (a --catalog is built without it)", cli.ErrUsage)
	}
	if *lib != "" {
		if _, err := libraryPackages(*lib); err != nil {
			return err
		}
	}
	if *againstLibrary {
		if *lib == "" || *against != "" || *asJSON || *floors != "" || *ceilings != "" {
			return fmt.Errorf("%w: --against-library compares --tools without and with --library: give --library, and no --against, --json, --min or --max", cli.ErrUsage)
		}
		without := base
		without.library = ""
		return runCompare(without, base, ks, every, offset, stdout)
	}
	if *against != "" {
		if *tools == "" || *asJSON || *floors != "" || *ceilings != "" {
			return fmt.Errorf("%w: --against compares two tools files: give --tools, and no --json, --min or --max", cli.ErrUsage)
		}
		alt := base
		alt.tools = *against
		return runCompare(base, alt, ks, every, offset, stdout)
	}
	rep, err := evaluate(base, ks, every, offset)
	if err != nil {
		return err
	}
	if *asJSON {
		obj := rep.jsonObject(ks)
		addDecisions(obj, rep)
		err = json.NewEncoder(stdout).Encode(obj)
	} else {
		if *eachDecision {
			printEachDecision(stdout, rep)
		}
		printMisses(stdout, rep.results, *misses)
		if err = rep.print(stdout, ks); err == nil {
			printDecisions(stdout, rep)
		}
	}
	if err != nil {
		return err
	}
	obj := rep.jsonObject(ks)
	return errors.Join(checkFloors(obj, *floors), checkCeilings(obj, *ceilings))
}

func parseKs(s string) ([]int, error) {
	ks, err := cli.ParseInts(s)
	if err != nil || slices.Max(ks) > 50 {
		return nil, fmt.Errorf("%w: --k %q: want cut-offs from 1 to 50, comma-separated", cli.ErrUsage, s)
	}
	slices.Sort(ks)
	return slices.Compact(ks), nil
}

func parseSample(s string) (every, offset int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	n, r, ok := strings.Cut(s, ":")
	every, err1 := strconv.Atoi(n)
	offset, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil || every < 1 || offset < 0 || offset >= every {
		return 0, 0, fmt.Errorf("%w: --sample %q: want N:R with 0 <= R < N", cli.ErrUsage, s)
	}
	return every, offset, nil
}

// benchmark names the files of one evaluation: the tools (a tools.jsonl or
// a catalog directory), the queries and the optional negatives.
type benchmark struct {
	tools, catalog, queries, negatives string
	off                                string // rules switched off, comma-separated
	// typoSeed, when above 0, replaces the queries and negatives by their
	// typo variant (eval.TypoVariant), slips in words of typoLetters
	// letters or more.
	typoSeed    uint64
	typoLetters int
	// wrapSeed, when above 0, puts every query and negative inside a
	// wrapper drawn by code (eval.WrapVariant); wrap, when set, puts those
	// of its language inside it (eval.WrapAll). After the typos, if any.
	wrapSeed uint64
	wrap     *eval.Wrapper
	// hosted, if set, embeds the items at build and each query at search
	// (index README, "Hosted vectors").
	hosted *embed.Client
	// library, if set, attaches the library of public servers' requests
	// to the tools, each server known by this package, or by its server
	// field ("serverinfo"); what it covered is written to notes.
	library string
	notes   io.Writer
}

// source names the benchmark's tools: the tools file or the catalog.
func (b benchmark) source() string {
	if b.catalog != "" {
		return b.catalog
	}
	if b.library != "" {
		return b.tools + " with the library (" + b.library + ")"
	}
	return b.tools
}

// open builds the benchmark's tools, with the hosted model's vectors and
// queries when it names one.
func (b benchmark) open() (set *eval.Set, err error) {
	var opts *index.BuildOptions
	if b.hosted != nil {
		opts = &index.BuildOptions{Hosted: cli.HostedItems(b.hosted)}
	}
	if b.catalog != "" {
		set, err = eval.BuildCatalogWith(b.catalog, opts)
	} else {
		tools, lerr := eval.LoadTools(b.tools)
		if lerr != nil {
			return nil, lerr
		}
		if err := b.attachLibrary(tools); err != nil {
			return nil, err
		}
		set, err = eval.BuildWith(tools, opts)
	}
	if err != nil || b.hosted == nil {
		return set, err
	}
	if err := set.Index().UseHosted(index.HostedOptions{Embed: b.hosted.EmbedQuery, Timeout: hostedEvalTimeout, CacheSize: -1}); err != nil {
		set.Close()
		return nil, err
	}
	return set, nil
}

// hostedEvalTimeout bounds a query's embedding in eval: longer than the
// server's default, so that a slow endpoint measures the model, not its
// latency; the queries that fell back are counted anyway (report.hosted).
const hostedEvalTimeout = 5 * time.Second

// report is the outcome of one evaluation.
type report struct {
	tools    int
	all      eval.Metrics
	splits   map[string]eval.Metrics // by split
	langs    map[string]eval.Metrics // by language, when the queries say
	typo     map[string]eval.Metrics // "typo": the queries with typos
	negs     negativeSet
	p50, p99 time.Duration
	hosted   *index.HostedStats // what became of the queries, with hosted vectors
	results  []eval.Result
}

// negativeSet holds the figures of the queries no tool answers.
type negativeSet struct {
	all                  eval.Metrics
	splits, langs, kinds map[string]eval.Metrics
	results              []eval.Result
	// named counts the near misses (queries with a Missing word) whose
	// hint names it, of missing of them.
	named, missing int
}

// load reads the queries of path, kept by every and offset, or their typo
// variant.
func (b benchmark) load(path string, every, offset int) ([]eval.Query, error) {
	qs, err := eval.LoadQueries(path, every, offset)
	if err != nil {
		return nil, err
	}
	if b.typoSeed > 0 {
		qs = eval.TypoVariant(qs, b.typoSeed, b.typoLetters)
	}
	if b.wrapSeed > 0 {
		qs = eval.WrapVariant(qs, b.wrapSeed)
	}
	if b.wrap != nil {
		qs = eval.WrapAll(qs, *b.wrap)
	}
	return qs, nil
}

func evaluate(b benchmark, ks []int, every, offset int) (*report, error) {
	queries, err := b.load(b.queries, every, offset)
	if err != nil {
		return nil, err
	}
	set, err := b.open()
	if err != nil {
		return nil, err
	}
	defer set.Close()
	if err := set.CheckGold(queries); err != nil {
		return nil, fmt.Errorf("%s: %w", b.queries, err)
	}
	if b.off != "" {
		if err := set.Index().SetRulesOff(strings.Split(b.off, ",")...); err != nil {
			return nil, fmt.Errorf("%w: --off: %w", cli.ErrUsage, err)
		}
	}
	depth := max(10, ks[len(ks)-1])
	results, latencies, err := searchAll(set, queries, depth)
	if err != nil {
		return nil, err
	}
	rep := &report{tools: set.Size, all: eval.Score(results, ks), results: results,
		splits: scoreBy(results, ks, splitOf), langs: scoreBy(results, ks, langOf), typo: scoreBy(results, ks, typoOf)}
	if b.negatives != "" {
		var negLatencies []time.Duration
		if rep.negs, negLatencies, err = evaluateNegatives(set, b, ks, depth); err != nil {
			return nil, err
		}
		latencies = append(latencies, negLatencies...)
	}
	rep.p50, rep.p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
	if b.hosted != nil {
		st := set.Index().HostedStats()
		rep.hosted = &st
	}
	return rep, nil
}

// evaluateNegatives searches the benchmark's negatives, which no tool
// answers.
func evaluateNegatives(set *eval.Set, b benchmark, ks []int, depth int) (negativeSet, []time.Duration, error) {
	negs, err := b.load(b.negatives, 0, 0)
	if err != nil {
		return negativeSet{}, nil, err
	}
	results, latencies, err := searchAll(set, negs, depth)
	if err != nil {
		return negativeSet{}, nil, err
	}
	out := negativeSet{all: eval.Score(results, ks), splits: scoreBy(results, ks, splitOf), langs: scoreBy(results, ks, langOf),
		kinds: scoreBy(results, ks, kindOf), results: results}
	out.named, out.missing = namedMissing(results)
	return out, latencies, nil
}

func kindOf(q eval.Query) string { return q.Kind }

// namedMissing counts the results whose query names a missing word
// (a near miss) and, of those, the ones whose hint names it, as the
// caller wrote it or in another case.
func namedMissing(results []eval.Result) (named, missing int) {
	for _, r := range results {
		if r.Query.Missing == "" {
			continue
		}
		missing++
		if strings.Contains(strings.ToLower(r.Hint), strings.ToLower(r.Query.Missing)) {
			named++
		}
	}
	return named, missing
}

func splitOf(q eval.Query) string {
	if q.Split == nil {
		return ""
	}
	return *q.Split
}

func langOf(q eval.Query) string { return q.Lang }

func typoOf(q eval.Query) string {
	if q.Typo {
		return "typo"
	}
	return ""
}

// scoreBy scores the results of each subset that key names; results whose
// key is empty belong to none.
func scoreBy(results []eval.Result, ks []int, key func(eval.Query) string) map[string]eval.Metrics {
	subsets := map[string][]eval.Result{}
	for _, r := range results {
		if k := key(r.Query); k != "" {
			subsets[k] = append(subsets[k], r)
		}
	}
	out := make(map[string]eval.Metrics, len(subsets))
	for k, rs := range subsets {
		out[k] = eval.Score(rs, ks)
	}
	return out
}

func searchAll(set *eval.Set, queries []eval.Query, depth int) ([]eval.Result, []time.Duration, error) {
	results := make([]eval.Result, 0, len(queries))
	latencies := make([]time.Duration, 0, len(queries))
	for _, q := range queries {
		r, err := set.Search(context.Background(), q, depth)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, r)
		latencies = append(latencies, r.Latency)
	}
	return results, latencies, nil
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func round4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

// round6 keeps six decimals: the gate's results file, from which the
// README tables round to three.
func round6(f float64) float64 { return float64(int64(f*1e6+0.5)) / 1e6 }

func (r *report) jsonObject(ks []int) map[string]any { return r.figures(ks, round4) }

// figures are the report's figures as --json prints them, each share
// rounded by round.
func (r *report) figures(ks []int, round func(float64) float64) map[string]any {
	obj := answeredFigures(r.all, ks, round)
	maps.Copy(obj, map[string]any{
		"negatives": r.negs.all.Queries, "no_match_rate": round(r.negs.all.Empty),
		"p50_ms": ms(r.p50), "p99_ms": ms(r.p99),
	})
	for name, subsets := range map[string]map[string]eval.Metrics{"splits": r.splits, "langs": r.langs} {
		if len(subsets) > 0 {
			obj[name] = subsetFigures(subsets, func(m eval.Metrics) map[string]any { return answeredFigures(m, ks, round) })
		}
	}
	if m, ok := r.typo["typo"]; ok {
		obj["typo"] = answeredFigures(m, ks, round)
	}
	if r.negs.missing > 0 {
		obj["missing_named_rate"] = round(float64(r.negs.named) / float64(r.negs.missing))
	}
	if h := r.hosted; h != nil {
		obj["hosted_searches"], obj["hosted_fallbacks"] = h.Hosted, h.Timeouts+h.Errors+h.Unwired
	}
	for name, subsets := range map[string]map[string]eval.Metrics{"negative_splits": r.negs.splits, "negative_langs": r.negs.langs, "negative_kinds": r.negs.kinds} {
		if len(subsets) > 0 {
			obj[name] = subsetFigures(subsets, func(m eval.Metrics) map[string]any { return negativeFigures(m, round) })
		}
	}
	return obj
}

// answeredFigures are the JSON figures of queries some tool answers.
func answeredFigures(m eval.Metrics, ks []int, round func(float64) float64) map[string]any {
	obj := map[string]any{"queries": m.Queries, "ndcg@10": round(m.NDCG10), "mrr": round(m.MRR), "emptied_rate": round(m.Empty),
		"hinted_right_first_rate": round(m.HintedRightFirst)}
	for _, k := range ks {
		obj[fmt.Sprintf("recall@%d", k)] = round(m.Recall[k])
	}
	return obj
}

// negativeFigures are the JSON figures of queries no tool answers.
func negativeFigures(m eval.Metrics, round func(float64) float64) map[string]any {
	return map[string]any{"negatives": m.Queries, "no_match_rate": round(m.Empty)}
}

func subsetFigures(subsets map[string]eval.Metrics, f func(eval.Metrics) map[string]any) map[string]any {
	out := make(map[string]any, len(subsets))
	for name, m := range subsets {
		out[name] = f(m)
	}
	return out
}

func (r *report) print(w io.Writer, ks []int) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	header := "subset\tqueries\t"
	for _, k := range ks {
		header += fmt.Sprintf("R@%d\t", k)
	}
	fmt.Fprintln(tw, header+"nDCG@10\tMRR\tempty\t")
	printRows(tw, "", r.splits, ks)
	printRow(tw, "all", r.all, ks)
	printRows(tw, "lang ", r.langs, ks)
	printRows(tw, "", r.typo, ks)
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.negs.all.Queries > 0 {
		fmt.Fprintf(w, "negatives: %d, no-match rate %.3f%s%s%s\n", r.negs.all.Queries, r.negs.all.Empty,
			noMatchBy(r.negs.splits, ""), noMatchBy(r.negs.kinds, "kind "), noMatchBy(r.negs.langs, "lang "))
		if r.negs.missing > 0 {
			fmt.Fprintf(w, "near misses: the hint names the missing product for %d of %d\n", r.negs.named, r.negs.missing)
		}
	}
	if h := r.hosted; h != nil {
		fmt.Fprintf(w, "hosted vectors: %d searches ranked with the query's hosted vector, %d fell back to the word vectors (%d timeouts, %d errors)\n",
			h.Hosted, h.Timeouts+h.Errors+h.Unwired, h.Timeouts, h.Errors)
	}
	_, err := fmt.Fprintf(w, "%d tools; search latency p50 %.2f ms, p99 %.2f ms\n", r.tools, ms(r.p50), ms(r.p99))
	return err
}

// printRows prints one row per subset, in the order of their names.
func printRows(w io.Writer, prefix string, subsets map[string]eval.Metrics, ks []int) {
	for _, name := range slices.Sorted(maps.Keys(subsets)) {
		printRow(w, prefix+name, subsets[name], ks)
	}
}

func printRow(w io.Writer, name string, m eval.Metrics, ks []int) {
	row := fmt.Sprintf("%s\t%d\t", name, m.Queries)
	for _, k := range ks {
		row += fmt.Sprintf("%.3f\t", m.Recall[k])
	}
	fmt.Fprintln(w, row+fmt.Sprintf("%.3f\t%.3f\t%.3f\t", m.NDCG10, m.MRR, m.Empty))
}

// noMatchBy lists the no-match rate of each subset: "; dev .500 of 64, …".
func noMatchBy(subsets map[string]eval.Metrics, prefix string) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(subsets)) {
		m := subsets[name]
		parts = append(parts, fmt.Sprintf("%s%s %.3f of %d", prefix, name, m.Empty, m.Queries))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

// printMisses lists queries whose first result is not relevant, with what
// was expected and the top three returned.
func printMisses(w io.Writer, results []eval.Result, n int) {
	for _, r := range results {
		if n <= 0 {
			return
		}
		if len(r.Ranked) > 0 && eval.Relevant(r.Query, r.Ranked[0]) {
			continue
		}
		n--
		fmt.Fprintf(w, "miss %s: %q\n  want %v\n  got  %v\n", r.Query.QID, r.Query.Query, r.Query.RelevantGroups, r.Ranked[:min(3, len(r.Ranked))])
	}
}

// attachLibrary gives tools the library's requests when b names a library
// identity, and says what it covered.
func (b benchmark) attachLibrary(tools []eval.Tool) error {
	if b.library == "" {
		return nil
	}
	lib, err := librarydata.Library()
	if err != nil {
		return err
	}
	packageOf, err := libraryPackages(b.library)
	if err != nil {
		return err
	}
	c := eval.AttachLibrary(tools, lib, packageOf)
	if b.notes != nil {
		fmt.Fprintf(b.notes, "library %s: %d of %d tools given requests (%d matched by description), from %s\n",
			lib.Version(), c.Covered, c.Tools, c.ByDescription, cmp.Or(strings.Join(c.Identities, ", "), "no server"))
	}
	return nil
}

// libraryByServerInfo is the --library value that knows each server of a
// set by its server field, as its serverInfo.name.
const libraryByServerInfo = "serverinfo"

// libraryPackages reads --library: a package every server of the set is
// known by, serverinfo (none: each by its server field), or SERVER=PACKAGE
// pairs, comma-separated (the servers not named known by their field).
func libraryPackages(value string) (func(string) string, error) {
	switch {
	case value == libraryByServerInfo:
		return func(string) string { return "" }, nil
	case !strings.Contains(value, "="):
		return func(string) string { return value }, nil
	}
	pairs := map[string]string{}
	for _, pair := range strings.Split(value, ",") {
		server, pkg, ok := strings.Cut(pair, "=")
		if server = strings.TrimSpace(server); !ok || server == "" || strings.TrimSpace(pkg) == "" {
			return nil, fmt.Errorf("%w: --library %q: want PACKAGE, serverinfo, or SERVER=PACKAGE pairs", cli.ErrUsage, pair)
		}
		pairs[server] = strings.TrimSpace(pkg)
	}
	return func(server string) string { return pairs[server] }, nil
}
