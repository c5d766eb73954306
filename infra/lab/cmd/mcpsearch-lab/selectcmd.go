package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/searchclient"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/bench"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// selectSet is one benchmark of bench select.
type selectSet struct {
	name string
	benchmark
}

// runBenchSelect measures searchclient.Select, the selection of the tools
// to expose to the model before each call, on the everyday set (over the
// default catalog) and on livemcpbench: the share of the needed tools that
// land in budgets of tools, and what their definitions cost against the
// whole tools/list.
func runBenchSelect(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench select", stdout, stderr)
	catalog := fs.String("catalog", "functions/search/catalog", "catalog directory of the --queries set")
	queries := fs.String("queries", "infra/lab/eval/testdata/everyday/queries.jsonl", "queries over --catalog (gold ids are canonical names); empty to skip")
	live := fs.String("livemcpbench", "infra/lab/eval/testdata/livemcpbench", "directory of livemcpbench's tools.jsonl and queries.jsonl; empty to skip")
	budgetList := fs.String("budgets", "5,10,20", "budgets in tools, comma-separated")
	fallback := fs.Bool("fallback", false, "also measure the client's local ranking over tools/list (a server without the extension); slow: every turn lists every tool")
	if err := fs.Parse(args); err != nil {
		return err
	}
	budgets, err := cli.ParseInts(*budgetList)
	if err != nil || slices.Min(budgets) < 1 {
		return fmt.Errorf("%w: --budgets %q: want numbers of tools, comma-separated", cli.ErrUsage, *budgetList)
	}
	var sets []selectSet
	if *queries != "" {
		sets = append(sets, selectSet{"everyday", benchmark{catalog: *catalog, queries: *queries}})
	}
	if *live != "" {
		sets = append(sets, selectSet{"livemcpbench", benchmark{tools: filepath.Join(*live, "tools.jsonl"), queries: filepath.Join(*live, "queries.jsonl")}})
	}
	if len(sets) == 0 {
		return fmt.Errorf("%w: nothing to measure: --queries and --livemcpbench are both empty", cli.ErrUsage)
	}
	return printSelection(stdout, sets, budgets, *fallback)
}

// selectionRun is the outcome of one set through one client.
type selectionRun struct {
	set, client           string
	listTools, listTokens int
	outcomes              []bench.SelectionOutcome
}

func printSelection(w io.Writer, sets []selectSet, budgets []int, fallback bool) error {
	var runs []selectionRun
	for _, s := range sets {
		r, err := measureSelectSet(s, budgets, fallback)
		if err != nil {
			return fmt.Errorf("bench select: %s: %w", s.name, err)
		}
		runs = append(runs, r...)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tranking\tqueries\tneeded tools\tbudget\tneeded tools in it\tmean a query\tqueries complete\ttokens a turn\tof tools/list\t")
	for _, r := range runs {
		for _, split := range []string{"", "dev", "test"} {
			if sum, ok := summarise(r.outcomes, split, budgets); ok {
				for _, k := range budgets {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1f%%\t%.1f%%\t%.1f%%\t%.0f\t%.2f%%\t\n", splitLabel(r.set, split), r.client, sum.Queries, sum.Needed, k,
						pct(sum.Landed[k], sum.Needed), 100*sum.Recall[k], pct(sum.Complete[k], sum.Queries),
						float64(sum.Tokens[k])/float64(sum.Queries), 100*float64(sum.Tokens[k])/float64(sum.Queries)/float64(r.listTokens))
				}
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return selectionFooter(w, runs, budgets)
}

func selectionFooter(w io.Writer, runs []selectionRun, budgets []int) error {
	fmt.Fprintln(w, "\nsearchclient.Select over HTTP (httptest, in process) against ext/server.New on the set's index, one server, no pins, a budget of tools only;")
	if slices.ContainsFunc(runs, func(r selectionRun) bool { return r.client == "fallback" }) {
		fmt.Fprintln(w, "(fallback: the same client ranking the whole tools/list locally, as it does a server without the extension);")
	}
	fmt.Fprintln(w, "a needed tool is a relevant group (any member counts); mean a query is eval's recall@budget; a query is complete when all of its")
	fmt.Fprintln(w, "needed tools are in; tokens ≈ JSON bytes/4 of each definition, against the sum over every tool of tools/list")
	for _, r := range runs {
		sum := bench.SummariseSelection(r.outcomes, budgets)
		fmt.Fprintf(w, "%s (%s): tools/list %d tools, %d tokens; p50 of a Select call %s\n", r.set, r.client, r.listTools, r.listTokens, round(sum.P50))
	}
	return nil
}

func splitLabel(set, split string) string {
	if split == "" {
		return set
	}
	return set + " " + split
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// summarise sums the outcomes of the split ("" for all); ok is false when
// no query is of the split.
func summarise(outcomes []bench.SelectionOutcome, split string, budgets []int) (bench.SelectionSummary, bool) {
	kept := slices.DeleteFunc(slices.Clone(outcomes), func(o bench.SelectionOutcome) bool {
		return split != "" && (o.Query.Split == nil || *o.Query.Split != split)
	})
	return bench.SummariseSelection(kept, budgets), len(kept) > 0
}

// measureSelectSet builds the set's index, serves it over HTTP as the
// search function does, and runs the selection through a client of the
// extension (and, with fallback, through one that ranks tools/list).
func measureSelectSet(s selectSet, budgets []int, fallback bool) ([]selectionRun, error) {
	set, err := s.open()
	if err != nil {
		return nil, err
	}
	defer set.Close()
	queries, err := eval.LoadQueries(s.queries, 0, 0)
	if err != nil {
		return nil, err
	}
	if err := set.CheckGold(queries); err != nil {
		return nil, err
	}
	h := server.New(set.Index(), &server.Options{PageSize: ext.MaxPageSize, Logger: slog.New(slog.DiscardHandler)})
	tools, tokens, err := bench.ListTokens(h)
	if err != nil {
		return nil, err
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	clients := map[string]*searchclient.Options{"extension": {Name: "mcpsearch"}}
	if fallback {
		clients["fallback"] = &searchclient.Options{Name: "mcpsearch", ForceFallback: true}
	}
	var runs []selectionRun
	for _, name := range slices.Sorted(maps.Keys(clients)) {
		outcomes, err := selectThrough(srv.URL+"/mcp", clients[name], queries, set.GoldID, budgets)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		runs = append(runs, selectionRun{s.name, name, tools, tokens, outcomes})
	}
	return runs, nil
}

func selectThrough(url string, opts *searchclient.Options, queries []eval.Query, goldID func(string) string, budgets []int) ([]bench.SelectionOutcome, error) {
	ctx := context.Background()
	c, err := searchclient.Connect(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return bench.MeasureSelection(ctx, []*searchclient.Client{c}, queries, goldID, budgets)
}
