package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// runHoldOut copies a catalog's server files with the first written
// requests of each tool that has more taken out, and writes them as
// queries for eval (gold: their tool; split: their server): how well a
// catalog finds its own tools from requests its index has not read.
func runHoldOut(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("holdout", stdout, stderr)
	dir := fs.String("catalog", "", "catalog `DIR` whose tools' requests are held out (it is not changed)")
	out := fs.String("out", "", "`DIR` to write the server files into, without their held-out requests")
	queries := fs.String("queries", "", "`FILE` to write the held-out requests into, as queries.jsonl")
	n := fs.Int("n", 2, "requests held out of each tool that has more than `N`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("catalog", "out", "queries"); err != nil {
		return err
	}
	held, err := requests.HoldOut(*dir, *out, *n)
	if err != nil {
		return err
	}
	if err := writeHeldOut(*queries, held); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d requests of %s held out; the catalog without them in %s\n", *queries, len(held), *dir, *out)
	return nil
}

// writeHeldOut writes held as queries.jsonl lines (package eval's Query):
// each its tool's gold, its server its split.
func writeHeldOut(path string, held []requests.HeldOut) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	seen := map[string]int{}
	for _, h := range held {
		id := fmt.Sprintf("%s#%d", h.Tool, seen[h.Tool])
		seen[h.Tool]++
		split := h.Server
		if err := enc.Encode(eval.Query{QID: id, Query: h.Request, Relevant: []string{h.Tool}, Split: &split}); err != nil {
			return err
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the held-out requests: %w", err)
	}
	return nil
}
