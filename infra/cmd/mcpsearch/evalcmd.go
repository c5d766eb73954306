package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpsearch/mcpsearch/infra/eval"
)

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	tools := fs.String("tools", "", "tools.jsonl of the benchmark")
	queries := fs.String("queries", "", "queries.jsonl of the benchmark")
	negatives := fs.String("negatives", "", "optional negatives.jsonl: queries no tool answers")
	asJSON := fs.Bool("json", false, "print one JSON object instead of tables")
	kList := fs.String("k", "1,5,10", "recall cut-offs, comma-separated")
	sample := fs.String("sample", "", "N:R keeps the query lines whose 0-based index i has i % N == R")
	misses := fs.Int("misses", 0, "print up to this many queries whose first result is not relevant")
	floors := fs.String("min", "", "floors, e.g. recall@1=0.75,ndcg@10=0.86: exit 1 naming each figure below its floor")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := required(map[string]string{"tools": *tools, "queries": *queries}); err != nil {
		return err
	}
	ks, err := parseKs(*kList)
	if err != nil {
		return err
	}
	every, offset, err := parseSample(*sample)
	if err != nil {
		return err
	}
	rep, err := evaluate(*tools, *queries, *negatives, ks, every, offset)
	if err != nil {
		return err
	}
	if *asJSON {
		err = json.NewEncoder(stdout).Encode(rep.jsonObject(ks))
	} else {
		printMisses(stdout, rep.results, *misses)
		err = rep.print(stdout, ks)
	}
	if err != nil {
		return err
	}
	return checkFloors(rep.jsonObject(ks), *floors)
}

func parseKs(s string) ([]int, error) {
	var ks []int
	for _, part := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || k < 1 || k > 50 {
			return nil, fmt.Errorf("%w: --k %q: want cut-offs from 1 to 50, comma-separated", errUsage, s)
		}
		ks = append(ks, k)
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
		return 0, 0, fmt.Errorf("%w: --sample %q: want N:R with 0 <= R < N", errUsage, s)
	}
	return every, offset, nil
}

// report is the outcome of one evaluation.
type report struct {
	tools     int
	all       eval.Metrics
	splits    map[string]eval.Metrics
	negatives int
	noMatch   float64
	p50, p99  time.Duration
	results   []eval.Result
}

func evaluate(toolsPath, queriesPath, negativesPath string, ks []int, every, offset int) (*report, error) {
	tools, err := eval.LoadTools(toolsPath)
	if err != nil {
		return nil, err
	}
	queries, err := eval.LoadQueries(queriesPath, every, offset)
	if err != nil {
		return nil, err
	}
	set, err := eval.Build(tools)
	if err != nil {
		return nil, err
	}
	defer set.Close()
	depth := max(10, ks[len(ks)-1])
	results, latencies, err := searchAll(set, queries, depth)
	if err != nil {
		return nil, err
	}
	rep := &report{tools: len(tools), all: eval.Score(results, ks), splits: map[string]eval.Metrics{}, results: results}
	bySplit := map[string][]eval.Result{}
	for _, r := range results {
		if r.Query.Split != nil {
			bySplit[*r.Query.Split] = append(bySplit[*r.Query.Split], r)
		}
	}
	for name, rs := range bySplit {
		rep.splits[name] = eval.Score(rs, ks)
	}
	if negativesPath != "" {
		negs, err := eval.LoadQueries(negativesPath, 0, 0)
		if err != nil {
			return nil, err
		}
		negResults, negLatencies, err := searchAll(set, negs, depth)
		if err != nil {
			return nil, err
		}
		latencies = append(latencies, negLatencies...)
		rep.negatives = len(negs)
		for _, r := range negResults {
			if len(r.Ranked) == 0 {
				rep.noMatch++
			}
		}
		if len(negs) > 0 {
			rep.noMatch /= float64(len(negs))
		}
	}
	rep.p50, rep.p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
	return rep, nil
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

func (r *report) jsonObject(ks []int) map[string]any {
	obj := map[string]any{
		"queries": r.all.Queries, "ndcg@10": round4(r.all.NDCG10), "mrr": round4(r.all.MRR),
		"negatives": r.negatives, "no_match_rate": round4(r.noMatch),
		"p50_ms": ms(r.p50), "p99_ms": ms(r.p99),
	}
	for _, k := range ks {
		obj[fmt.Sprintf("recall@%d", k)] = round4(r.all.Recall[k])
	}
	if len(r.splits) > 0 {
		splits := map[string]any{}
		for name, m := range r.splits {
			s := map[string]any{"queries": m.Queries, "ndcg@10": round4(m.NDCG10), "mrr": round4(m.MRR)}
			for _, k := range ks {
				s[fmt.Sprintf("recall@%d", k)] = round4(m.Recall[k])
			}
			splits[name] = s
		}
		obj["splits"] = splits
	}
	return obj
}

func (r *report) print(w io.Writer, ks []int) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	header := "split\tqueries\t"
	for _, k := range ks {
		header += fmt.Sprintf("R@%d\t", k)
	}
	fmt.Fprintln(tw, header+"nDCG@10\tMRR\t")
	names := make([]string, 0, len(r.splits))
	for n := range r.splits {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(a, b) })
	for _, n := range names {
		printRow(tw, n, r.splits[n], ks)
	}
	printRow(tw, "all", r.all, ks)
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.negatives > 0 {
		fmt.Fprintf(w, "negatives: %d, no-match rate %.3f\n", r.negatives, r.noMatch)
	}
	_, err := fmt.Fprintf(w, "%d tools; search latency p50 %.2f ms, p99 %.2f ms\n", r.tools, ms(r.p50), ms(r.p99))
	return err
}

func printRow(w io.Writer, name string, m eval.Metrics, ks []int) {
	row := fmt.Sprintf("%s\t%d\t", name, m.Queries)
	for _, k := range ks {
		row += fmt.Sprintf("%.3f\t", m.Recall[k])
	}
	fmt.Fprintln(w, row+fmt.Sprintf("%.3f\t%.3f\t", m.NDCG10, m.MRR))
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

// checkFloors compares figures with floors "key=value,…" and fails naming
// every figure below its floor.
func checkFloors(figures map[string]any, floors string) error {
	if floors == "" {
		return nil
	}
	var below []string
	for _, kv := range strings.Split(floors, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(kv), "=")
		floor, err := strconv.ParseFloat(value, 64)
		got, known := figures[key].(float64)
		if !ok || err != nil || !known {
			return fmt.Errorf("%w: --min %q: want key=number with keys of the --json output", errUsage, kv)
		}
		if got < floor {
			below = append(below, fmt.Sprintf("%s %.4f is below its floor %.4f", key, got, floor))
		}
	}
	if len(below) > 0 {
		return fmt.Errorf("quality gate: %s", strings.Join(below, "; "))
	}
	return nil
}
