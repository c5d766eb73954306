package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// compareRounds and compareSeed fix the paired bootstrap of --against, so
// that a comparison prints the same interval every time.
const (
	compareRounds = 2000
	compareSeed   = 25
)

// compareFigure is one figure of a side-by-side comparison: its name and
// how to read it from one query's figures.
type compareFigure struct {
	name string
	of   func(eval.Figures) float64
}

var answeredCompared = []compareFigure{
	{"R@1", func(f eval.Figures) float64 { return f.R1 }},
	{"R@5", func(f eval.Figures) float64 { return f.R5 }},
	{"nDCG@10", func(f eval.Figures) float64 { return f.NDCG10 }},
	{"emptied", func(f eval.Figures) float64 { return f.Empty }},
}

var negativeCompared = []compareFigure{{"no-match", func(f eval.Figures) float64 { return f.Empty }}}

// runCompare evaluates base and alt on the same queries and prints each
// figure side by side with the paired bootstrap's 95% interval of the
// change: the significance of a difference between two tools files (say,
// a catalog as shipped and the same catalog with borrowed requests).
func runCompare(base, alt benchmark, ks []int, every, offset int, w io.Writer) error {
	before, err := evaluate(base, ks, every, offset)
	if err != nil {
		return fmt.Errorf("%s: %w", base.source(), err)
	}
	after, err := evaluate(alt, ks, every, offset)
	if err != nil {
		return fmt.Errorf("%s: %w", alt.source(), err)
	}
	if len(before.results) != len(after.results) {
		return fmt.Errorf("%s and %s answered %d and %d queries", base.source(), alt.source(), len(before.results), len(after.results))
	}
	fmt.Fprintf(w, "base: %s\nagainst: %s\n", base.source(), alt.source())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "figure\tqueries\tbase\tagainst\tchange\t95% interval\t")
	printCompared(tw, "", answeredCompared, before.results, after.results)
	if base.negatives != "" {
		printCompared(tw, "negatives ", negativeCompared, before.negs.results, after.negs.results)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "paired bootstrap, %d resamples of the queries (seed %d); * marks an interval without 0\n", compareRounds, compareSeed)
	return err
}

func printCompared(w io.Writer, prefix string, figures []compareFigure, before, after []eval.Result) {
	pb, pa := eval.PerQuery(before), eval.PerQuery(after)
	for _, f := range figures {
		b, a := column(pb, f.of), column(pa, f.of)
		d := eval.PairedBootstrap(b, a, compareRounds, compareSeed)
		mark := ""
		if d.Significant() {
			mark = " *"
		}
		fmt.Fprintf(w, "%s%s\t%d\t%.3f\t%.3f\t%+.3f%s\t[%+.3f, %+.3f]\t\n", prefix, f.name, len(b), mean(b), mean(a), d.Mean, mark, d.Lo, d.Hi)
	}
}

func column(figs []eval.Figures, of func(eval.Figures) float64) []float64 {
	out := make([]float64, len(figs))
	for i, f := range figs {
		out[i] = of(f)
	}
	return out
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
