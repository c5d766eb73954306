package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/lab/data/errands"
	"github.com/mcpsearch/mcpsearch/infra/lab/train"
)

// errandSeed seeds the training of the errand model.
const errandSeed = 24

// runErrandModel trains the errand model of the no-match test on a
// catalog's written requests against the errands, and writes it.
func runErrandModel(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("errandmodel", stdout, stderr)
	catalogDir := fs.String("catalog", "functions/search/catalog", "catalog `DIR` whose items' written requests are the software side")
	errandsFile := fs.String("errands", "infra/lab/data/errands/errands.jsonl", "the errands `FILE`, the other side")
	out := fs.String("out", train.ErrandModelFile, "model `FILE` to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	software, errandTexts, err := errandTrainingTexts(*catalogDir, *errandsFile)
	if err != nil {
		return err
	}
	model := train.Errand(software, errandTexts, errandSeed)
	if err := writeFileAtomically(*out, model); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: trained on %d requests and %d errands\n", *out, len(software), len(errandTexts))
	return nil
}

// errandTrainingTexts reads the two sides of the errand model: every
// written request of the catalog's items, in catalog order, and the
// errands, in file order.
func errandTrainingTexts(catalogDir, errandsFile string) ([]string, []string, error) {
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		return nil, nil, err
	}
	var software []string
	for _, it := range cat.Items {
		software = append(software, it.Requests...)
	}
	f, err := os.Open(errandsFile)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	set, err := errands.Read(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", errandsFile, err)
	}
	texts := make([]string, len(set))
	for i, e := range set {
		texts[i] = e.Text
	}
	return software, texts, nil
}
