package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/lab/data/wordnet"
)

// runWordnet distils WordNet into the synonym table the index embeds.
func runWordnet(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("wordnet", stdout, stderr)
	dir := fs.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database directory (Debian: apt-get install wordnet-base)")
	catalogDir := fs.String("catalog", "functions/search/catalog", "catalog whose vocabulary limits the table")
	out := fs.String("out", textData+"wordnet.txt", "table to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cat, err := catalog.LoadDir(*catalogDir, nil)
	if err != nil {
		return err
	}
	vocab := vocabulary(cat)
	t, err := wordnet.Distil(*dir, vocab)
	if err != nil {
		return err
	}
	licence, err := wordnet.Licence(*dir)
	if err != nil {
		return err
	}
	if err := t.Write(*out, licence); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d words with synonyms, from a vocabulary of %d\n", *out, len(t), len(vocab))
	return nil
}

// vocabulary is the set of lower-case words (three letters or more) of the
// catalog's names, titles, descriptions and parameters.
func vocabulary(cat *catalog.Catalog) map[string]bool {
	vocab := map[string]bool{}
	add := func(text string) {
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			for _, part := range index.SplitName(w) {
				if len(part) >= 3 {
					vocab[part] = true
				}
			}
		}
	}
	for _, it := range cat.Items {
		add(it.Label + " " + it.Title + " " + it.Description)
		for _, p := range it.Params {
			add(p.Name + " " + p.Description)
		}
	}
	return vocab
}
