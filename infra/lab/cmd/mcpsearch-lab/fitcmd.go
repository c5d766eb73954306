package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
	"github.com/mcpsearch/mcpsearch/infra/lab/train"
)

// fitSplit is the half of the sets the fit model is trained on: the dev
// halves, the ones tuned on; the test halves and offcatalog2 measure it.
const fitSplit = "dev"

// runFitModel trains the fit model of the no-match test on the signals of
// a catalog's searches for the dev halves of sets of requests some item
// fits (--fits) and of requests none fits (--misfits), and writes it.
func runFitModel(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fitmodel", stdout, stderr)
	catalogDir := fs.String("catalog", "functions/search/catalog", "catalog `DIR` searched (its items carry written requests)")
	fits := fs.String("fits", "infra/lab/eval/testdata/everyday/queries.jsonl,infra/lab/eval/testdata/fresh/queries.jsonl", "query `FILES` (comma-separated) some item fits: their dev lines are trained on")
	misfits := fs.String("misfits", "infra/lab/eval/testdata/offcatalog/queries.jsonl", "query `FILES` (comma-separated) no item fits: their dev lines are trained on")
	out := fs.String("out", train.FitModelFile, "model `FILE` to write")
	off := fs.String("off", "", "retrieval `RULES` switched off while the signals are measured, comma-separated (see eval --ablate): the model a rule's retirement would train")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fitTexts, err := devTexts(*fits)
	if err != nil {
		return err
	}
	misfitTexts, err := devTexts(*misfits)
	if err != nil {
		return err
	}
	set, err := eval.BuildCatalog(*catalogDir)
	if err != nil {
		return err
	}
	defer set.Close()
	if *off != "" {
		if err := set.Index().SetRulesOff(strings.Split(*off, ",")...); err != nil {
			return fmt.Errorf("%w: --off: %w", cli.ErrUsage, err)
		}
	}
	model, nf, nm, err := train.Fit(context.Background(), set.Index(), fitTexts, misfitTexts)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, model, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: trained on the signals of %d of %d fitting and %d of %d other requests\n", *out, nf, len(fitTexts), nm, len(misfitTexts))
	return nil
}

// devTexts reads the queries of the dev half of each file of a
// comma-separated list.
func devTexts(files string) ([]string, error) {
	var out []string
	for _, path := range strings.Split(files, ",") {
		queries, err := eval.LoadQueries(path, 0, 0)
		if err != nil {
			return nil, err
		}
		n := len(out)
		for _, q := range queries {
			if q.Split != nil && *q.Split == fitSplit {
				out = append(out, q.Query)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no query of the %s half", path, fitSplit)
		}
	}
	return out, nil
}
