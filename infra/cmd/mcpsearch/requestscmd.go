package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/mcpsearch/mcpsearch/index/catalog"
	"github.com/mcpsearch/mcpsearch/infra/eval"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// requestsUsage says what mcpsearch requests does.
const requestsUsage = `usage: mcpsearch requests coverage --catalog DIR [--json]
       mcpsearch requests draft --catalog DIR --out DIR --model NAME
                                (--endpoint URL [--api-key-env VARIABLE] | --bedrock [--region R] [--endpoint URL])
                                [--server S,…] [--item I,…] [--all] [--limit N] [--count N]
                                [--concurrency N] [--timeout D] [--retries N]
       mcpsearch requests apply --catalog DIR FILE…
       mcpsearch requests holdout --catalog DIR --out DIR --queries FILE [--n N]

coverage  what a catalog's requests cover, server by server: items with
          requests, requests, those repeating their item's description,
          those another item has too
draft     ask a language model for requests for the items without (written
          from each item's name, description and parameters, its siblings
          named, in the styles of the writers' guide), and write them to
          DIR/SERVER.json for review; a run after a partial one drafts only
          what is left. The model: an OpenAI-compatible endpoint (vLLM,
          Ollama, LiteLLM, a gateway; the key from the environment variable
          --api-key-env names, never a flag) or Amazon Bedrock's Converse
          API, signed with the AWS credential chain. Tested only against
          scripted local endpoints
apply     write reviewed requests files ({"server", "items": [{"kind",
          "name", "requests"}]}) into the catalog's server files
holdout   copy the catalog's server files into DIR with the first N
          written requests of each tool that has more taken out, and write
          them to FILE as queries for mcpsearch eval (gold: their tool;
          split: their server): how well a catalog finds its own tools
          from requests its index has not read. DIR may hold other
          catalogs' server files, to measure the catalog among them`

// runRequests is mcpsearch requests coverage|draft|apply.
func runRequests(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		_, err := fmt.Fprintln(stdout, requestsUsage)
		return err
	}
	sub := map[string]func([]string, io.Writer, io.Writer) error{
		"coverage": runRequestsCoverage, "draft": runRequestsDraft, "apply": runRequestsApply,
		"holdout": runRequestsHoldOut,
	}
	if len(args) == 0 || sub[args[0]] == nil {
		return fmt.Errorf("%w: mcpsearch requests coverage|draft|apply|holdout (mcpsearch requests --help)", errUsage)
	}
	return sub[args[0]](args[1:], stdout, stderr)
}

// runRequestsHoldOut holds a catalog's first requests out as queries.
func runRequestsHoldOut(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("requests holdout", stdout, stderr)
	dir := fs.String("catalog", "", "catalog `DIR` whose tools' requests are held out (it is not changed)")
	out := fs.String("out", "", "`DIR` to write the server files into, without their held-out requests")
	queries := fs.String("queries", "", "`FILE` to write the held-out requests into, as queries.jsonl")
	n := fs.Int("n", 2, "requests held out of each tool that has more than `N`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.require("catalog", "out", "queries"); err != nil {
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

// runRequestsApply writes reviewed requests files into a catalog.
func runRequestsApply(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("requests apply", stdout, stderr)
	dir := fs.String("catalog", "", "catalog `DIR` whose server files get the requests")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.require("catalog"); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: name the requests files to apply", errUsage)
	}
	for _, path := range fs.Args() {
		f, err := requests.Read(path)
		if err != nil {
			return err
		}
		n, err := requests.Apply(*dir, f, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: the requests of %d items of %s\n", path, n, f.Server)
	}
	return nil
}

// runRequestsCoverage reports what a catalog's requests cover.
func runRequestsCoverage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("requests coverage", stdout, stderr)
	dir := fs.String("catalog", "", "catalog `DIR`")
	asJSON := fs.Bool("json", false, "print the report as JSON, every item listed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.require("catalog"); err != nil {
		return err
	}
	cat, err := catalog.LoadDir(*dir, nil)
	if err != nil {
		return err
	}
	report := requests.Coverage(cat)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(report)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\titems\twith requests\trequests\trepeating the description\tshared with another item\t")
	var items, with, reqs int
	for _, c := range report {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", c.Server, c.Items, c.WithRequests, c.Requests, len(c.Repeating), len(c.Shared))
		items, with, reqs = items+c.Items, with+c.WithRequests, reqs+c.Requests
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%d\t\t\t\n", items, with, reqs)
	return tw.Flush()
}
