package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// verdict says whether a rule earns its keep: the held-out columns where
// switching it off lowers the figures beyond noise; or, when there are
// none, those where switching it off raises them.
func verdict(rows []ablationRow) string {
	var losses, gains []string
	for _, r := range rows {
		switch {
		case !r.HeldOut:
		case r.Loss:
			losses = append(losses, r.Column)
		case r.gain():
			gains = append(gains, r.Column)
		}
	}
	switch {
	case len(losses) > 0:
		return "keep: off lowers " + strings.Join(losses, ", ")
	case len(gains) > 0:
		return "retire: off raises " + strings.Join(gains, ", ")
	}
	return "retire: no held-out change beyond noise"
}

// gain reports whether switching the rule off raises the column's figures
// beyond noise.
func (r ablationRow) gain() bool {
	if r.Negative {
		return r.Empty.Significant() && r.Empty.Mean > 0
	}
	for _, d := range []eval.Delta{r.R1, r.R5, r.NDCG10} {
		if d.Significant() && d.Mean > 0 {
			return true
		}
	}
	return r.Empty.Significant() && r.Empty.Mean < 0
}

// print writes, for every rule, the columns it changes, then every rule's
// verdict.
func (a *ablation) print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rule off\tcolumn\tqueries\tΔR@1\tΔR@5\tΔnDCG@10\tΔempty\t")
	byRule := map[string][]ablationRow{}
	var order []string
	for _, r := range a.Rows {
		if _, ok := byRule[r.Rule]; !ok {
			order = append(order, r.Rule)
		}
		byRule[r.Rule] = append(byRule[r.Rule], r)
	}
	for _, rule := range order {
		name := rule
		for _, r := range byRule[rule] {
			if r.R1.Mean == 0 && r.R5.Mean == 0 && r.NDCG10.Mean == 0 && r.Empty.Mean == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", name, r.Column, r.Queries, delta(r.R1), delta(r.R5), delta(r.NDCG10), delta(r.Empty))
			name = ""
		}
		if name != "" {
			fmt.Fprintf(tw, "%s\t(no change)\t\t\t\t\t\t\n", name)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "Δ: the figure with the rule off minus with every rule on (empty: emptied answerable queries, or negatives given no items); * its 95% paired-bootstrap interval over the column's queries excludes 0")
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, rule := range order {
		fmt.Fprintf(tw, "%s\t%s\n", rule, verdict(byRule[rule]))
	}
	return tw.Flush()
}

// delta formats a change: +.012*, or blank when none.
func delta(d eval.Delta) string {
	if d.Mean == 0 && !d.Significant() {
		return ""
	}
	s := fmt.Sprintf("%+.3f", d.Mean)
	if s == "-0.000" || s == "+0.000" {
		s = "~0"
	}
	if d.Significant() {
		s += "*"
	}
	return s
}

// markdown writes one table row a rule, in pipeline order: its step, name
// and reason, and what switching it off changes on the held-out columns
// (public sets, test halves): each change beyond noise, and how many
// others there are.
func (a *ablation) markdown(w io.Writer) error {
	fmt.Fprintln(w, "| step | rule | why | switched off, on held-out sets (beyond noise*) |")
	fmt.Fprintln(w, "|---|---|---|---|")
	byRule := map[string][]ablationRow{}
	for _, r := range a.Rows {
		byRule[r.Rule] = append(byRule[r.Rule], r)
	}
	for _, r := range index.Rules() {
		rows, ok := byRule[r.Name]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %s |\n", r.Step, r.Name, r.Reason, heldOutChanges(rows))
	}
	return nil
}

// heldOutChanges lists the changes beyond noise on held-out main columns
// (no language or typo subsets), and counts the changes within it that
// lower a figure (the rule helps, weakly) and that raise one.
func heldOutChanges(rows []ablationRow) string {
	var beyond []string
	lower, higher := 0, 0
	for _, r := range rows {
		if !r.HeldOut || strings.Contains(r.Column, " lang ") || strings.HasSuffix(r.Column, " typo") {
			continue
		}
		for _, f := range heldOutFigures(r) {
			switch {
			case f.d.Significant():
				beyond = append(beyond, fmt.Sprintf("%s %s %+.3f*", r.Column, f.name, f.d.Mean))
			case f.d.Mean != 0 && (f.d.Mean < 0) == f.higherIsBetter:
				lower++
			case f.d.Mean != 0:
				higher++
			}
		}
	}
	out := strings.Join(beyond, "; ")
	if out == "" {
		out = "nothing beyond noise"
	}
	if lower+higher > 0 {
		out += fmt.Sprintf(" (within noise: %d figures worse, %d better)", lower, higher)
	}
	return out
}

// figureDelta is one figure's change in a column.
type figureDelta struct {
	name           string
	d              eval.Delta
	higherIsBetter bool
}

// heldOutFigures are the figures of a row: recall, nDCG and the emptied
// rate of answered queries, the no-match rate of negatives.
func heldOutFigures(r ablationRow) []figureDelta {
	if r.Negative {
		return []figureDelta{{"no-match", r.Empty, true}}
	}
	return []figureDelta{{"R@1", r.R1, true}, {"R@5", r.R5, true}, {"nDCG@10", r.NDCG10, true}, {"emptied", r.Empty, false}}
}
