package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"

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
	mixed := fs.String("mixed", defaultFitMixed, "mixed catalogs also trained on, comma-separated `SHARE:SEED` pairs: the requests of SHARE of the catalog's servers with requests removed, chosen by SEED (mcpsearch-lab mixed); none: the catalog as shipped only")
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
	conditions, err := parseMixed(*mixed)
	if err != nil {
		return err
	}
	sets, err := fitCatalogs(*catalogDir, conditions)
	for _, set := range sets {
		defer set.Close()
	}
	if err != nil {
		return err
	}
	var indexes []*index.Index
	for _, set := range sets {
		if *off != "" {
			if err := set.Index().SetRulesOff(strings.Split(*off, ",")...); err != nil {
				return fmt.Errorf("%w: --off: %w", cli.ErrUsage, err)
			}
		}
		indexes = append(indexes, set.Index())
	}
	model, nf, nm, err := train.FitOver(context.Background(), indexes[0], indexes[1:], fitTexts, misfitTexts)
	if err != nil {
		return err
	}
	if err := writeFileAtomically(*out, model); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: trained on the signals of %d of %d fitting and %d of %d other requests\n", *out, nf, len(fitTexts), nm, len(misfitTexts))
	return nil
}

// defaultFitMixed are the mixed catalogs the fit model is trained on
// beside the catalog as shipped: half and nine in ten of its servers
// stripped of their requests, by seeds the mixed measure (seeds 1–3)
// does not use.
const defaultFitMixed = "0.5:101,0.9:102"

// mixedCondition is one mixed catalog: the share of servers stripped of
// their requests and the seed choosing them.
type mixedCondition struct {
	share float64
	seed  uint64
}

// parseMixed reads --mixed's SHARE:SEED pairs ("none": no pair).
func parseMixed(s string) ([]mixedCondition, error) {
	if s == "none" || s == "" {
		return nil, nil
	}
	var out []mixedCondition
	for part := range strings.SplitSeq(s, ",") {
		share, seed, ok := strings.Cut(strings.TrimSpace(part), ":")
		f, err1 := strconv.ParseFloat(share, 64)
		n, err2 := strconv.ParseUint(seed, 10, 64)
		if !ok || err1 != nil || err2 != nil || f <= 0 || f >= 1 {
			return nil, fmt.Errorf("%w: --mixed: %q is not SHARE:SEED (a share between 0 and 1, a whole number)", cli.ErrUsage, part)
		}
		out = append(out, mixedCondition{f, n})
	}
	return out, nil
}

// fitCatalogs builds the catalog of dir as shipped and each mixed
// catalog of conditions; the sets built so far are returned with an
// error, for the caller to close.
func fitCatalogs(dir string, conditions []mixedCondition) ([]*eval.Set, error) {
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		return nil, err
	}
	var sets []*eval.Set
	for i := -1; i < len(conditions); i++ {
		c := cat
		if i >= 0 {
			c = eval.WithoutRequests(cat, eval.StripShare(cat, conditions[i].share, conditions[i].seed))
		}
		set, err := eval.BuildLoaded(c)
		if err != nil {
			return sets, err
		}
		sets = append(sets, set)
	}
	return sets, nil
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
