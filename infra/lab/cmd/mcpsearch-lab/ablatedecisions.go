package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// decisionShift is how many requests of a column switching a rule off
// moved from one no-match decision to another (the retrieval README's
// decision list): what the rule's line decided, and what decides in its
// place.
type decisionShift struct {
	Rule     string `json:"rule"`
	Column   string `json:"column"`
	From     string `json:"from"`
	To       string `json:"to"`
	Requests int    `json:"requests"`
}

// columnDecisions counts the decisions (of a set's run, by position) of
// each column's requests.
func columnDecisions(cols []ablationColumn, decisions []string) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, c := range cols {
		counts := map[string]int{}
		for _, at := range c.at {
			counts[cmp.Or(decisions[at], "none")]++
		}
		out[c.name()] = counts
	}
	return out
}

// shiftsOf are the decisions that moved, column by column, between the
// run with every rule on (base) and the run with rule off (alt).
func shiftsOf(rule string, cols []ablationColumn, base, alt []string) []decisionShift {
	var out []decisionShift
	for _, c := range cols {
		moved := map[[2]string]int{}
		for _, at := range c.at {
			if base[at] != alt[at] {
				moved[[2]string{cmp.Or(base[at], "none"), cmp.Or(alt[at], "none")}]++
			}
		}
		keys := slices.SortedFunc(maps.Keys(moved), func(a, b [2]string) int {
			return cmp.Or(cmp.Compare(moved[b], moved[a]), strings.Compare(a[0]+a[1], b[0]+b[1]))
		})
		for _, k := range keys {
			out = append(out, decisionShift{Rule: rule, Column: c.name(), From: k[0], To: k[1], Requests: moved[k]})
		}
	}
	return out
}

// printDecisions writes the decisions of each column with every rule on,
// then, rule by rule, the requests whose decision switching it off moved.
func (a *ablation) printDecisions(w io.Writer) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "no-match decisions, every rule on:")
	for _, col := range slices.Sorted(maps.Keys(a.Decisions)) {
		fmt.Fprintf(w, "  %s: %s\n", col, formatCounts(a.Decisions[col]))
	}
	fmt.Fprintln(w, "decisions moved, rule off (column: from -> to requests):")
	var rule string
	var line []string
	flush := func() {
		if rule != "" {
			fmt.Fprintf(w, "  %s: %s\n", rule, strings.Join(line, "; "))
		}
	}
	for _, s := range a.Shifts {
		if s.Rule != rule {
			flush()
			rule, line = s.Rule, nil
		}
		line = append(line, fmt.Sprintf("%s: %s -> %s %d", s.Column, s.From, s.To, s.Requests))
	}
	flush()
}
