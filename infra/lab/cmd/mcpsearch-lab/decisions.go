package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// The no-match decisions (index.PageExplanation; the retrieval README's
// decision list): eval counts, per split, how many requests reached each
// line, and prints each request's with --decisions; the ablation counts
// what switching a rule off moved from one line to another.

// allSplits is the key of the counts over every request of a set.
const allSplits = "all"

// decisionCounts counts the decisions of results by split (splitOf),
// and over all of them (allSplits).
func decisionCounts(results []eval.Result) map[string]map[string]int {
	out := map[string]map[string]int{}
	add := func(split, decision string) {
		if out[split] == nil {
			out[split] = map[string]int{}
		}
		out[split][decision]++
	}
	for _, r := range results {
		d := cmp.Or(r.Decision, "none")
		add(allSplits, d)
		if s := splitOf(r.Query); s != "" {
			add(s, d)
		}
	}
	return out
}

// formatCounts is counts in one line, the most reached first:
// "fit-model keep 120, kept 15".
func formatCounts(counts map[string]int) string {
	names := slices.Collect(maps.Keys(counts))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, counts[n])
	}
	return strings.Join(parts, ", ")
}

// printDecisions prints the decisions of the answered requests and of the
// negatives, a line a split ("decisions test: …", "negative decisions
// dev: …").
func printDecisions(w io.Writer, rep *report) {
	for _, part := range []struct {
		label   string
		results []eval.Result
	}{{"decisions", rep.results}, {"negative decisions", rep.negs.results}} {
		counts := decisionCounts(part.results)
		for _, split := range slices.Sorted(maps.Keys(counts)) {
			fmt.Fprintf(w, "%s %s: %s\n", part.label, split, formatCounts(counts[split]))
		}
	}
}

// printEachDecision prints the decision of each request (--decisions):
// its id, split, whether it is a negative, and the decision.
func printEachDecision(w io.Writer, rep *report) {
	for _, part := range []struct {
		negative bool
		results  []eval.Result
	}{{false, rep.results}, {true, rep.negs.results}} {
		for _, r := range part.results {
			kind := "answered"
			if part.negative {
				kind = "negative"
			}
			fmt.Fprintf(w, "decision\t%s\t%s\t%s\t%s\n", r.Query.QID, cmp.Or(splitOf(r.Query), "-"), kind, cmp.Or(r.Decision, "none"))
		}
	}
}

// addDecisions adds the counts of decisions to the --json object:
// "decisions" and "negative_decisions", split → decision → requests.
func addDecisions(obj map[string]any, rep *report) {
	obj["decisions"] = decisionCounts(rep.results)
	if len(rep.negs.results) > 0 {
		obj["negative_decisions"] = decisionCounts(rep.negs.results)
	}
}
