package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// requestsUsage says what mcpsearch requests does.
const requestsUsage = `usage: mcpsearch requests coverage --catalog DIR [--json] [--items] [--library=on|off]
       mcpsearch requests library [--write [--from DIRS] [--out DIR]]
       mcpsearch requests draft --catalog DIR --out DIR --model NAME
                                (--endpoint URL [--api-key-env VARIABLE] | --bedrock [--region R] [--endpoint URL])
                                [--server S,…] [--item I,…] [--all] [--limit N] [--count N]
                                [--concurrency N] [--timeout D] [--retries N]
       mcpsearch requests apply --catalog DIR FILE…

coverage  what a catalog's requests cover, server by server: items with
          requests (their own, the library's, none), requests, those
          repeating their item's description, those another item has too;
          --items: where each item's requests come from
library   the library of public servers' requests, one line a server:
          identity, items, requests (tab-separated); --write generates it
          from the default catalog and the lab's corpus
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
          "name", "requests"}]}) into the catalog's server files`

// runRequests is mcpsearch requests coverage|draft|apply.
func runRequests(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && cli.IsHelp(args[0]) {
		_, err := fmt.Fprintln(stdout, requestsUsage)
		return err
	}
	sub := map[string]func([]string, io.Writer, io.Writer) error{
		"coverage": runRequestsCoverage, "library": runRequestsLibrary, "draft": runRequestsDraft, "apply": runRequestsApply,
	}
	if len(args) == 0 || sub[args[0]] == nil {
		return fmt.Errorf("%w: mcpsearch requests coverage|library|draft|apply (mcpsearch requests --help)", cli.ErrUsage)
	}
	return sub[args[0]](args[1:], stdout, stderr)
}

// runRequestsApply writes reviewed requests files into a catalog.
func runRequestsApply(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("requests apply", stdout, stderr)
	dir := fs.String("catalog", "", "catalog `DIR` whose server files get the requests")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("catalog"); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: name the requests files to apply", cli.ErrUsage)
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
	perItem := fs.Bool("items", false, "print one line an item: server, item, where its requests come from (own, library, draft, none), tab-separated")
	lib := libraryFlag(fs)
	drafts := fs.String("drafts", "", "the build's drafts' `DIR`, whose fresh drafts the items without requests are given as a build gives them (default: CATALOG/drafts)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("catalog"); err != nil {
		return err
	}
	if _, err := openLibrary(*lib); err != nil {
		return err
	}
	cat, err := catalog.LoadDir(*dir, nil)
	if err != nil {
		return err
	}
	cov, err := attachLibrary(cat, *lib)
	if err != nil {
		return err
	}
	draftsDir := *drafts
	if draftsDir == "" {
		draftsDir = requests.DraftsDir(*dir)
	}
	drafted, err := requests.DraftCached(context.Background(), cat, *dir, draftsDir, nil)
	if err != nil {
		return err
	}
	report := requests.Coverage(cat)
	for i := range report {
		report[i].Identity = cov.Servers[i].Identity
	}
	switch {
	case *asJSON:
		return json.NewEncoder(stdout).Encode(report)
	case *perItem:
		for _, it := range cat.Items {
			if _, err := fmt.Fprintf(stdout, "%s\t%s\t%s\n", it.Server, it.Name, requests.SourceOf(&it)); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\titems\twith requests\tthe library's\trequests\trepeating the description\tshared with another item\t")
	var items, with, fromLib, reqs int
	for _, c := range report {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", c.Server, c.Items, c.WithRequests, c.FromLibrary, c.Requests, len(c.Repeating), len(c.Shared))
		items, with, fromLib, reqs = items+c.Items, with+c.WithRequests, fromLib+c.FromLibrary, reqs+c.Requests
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%d\t%d\t\t\t\n", items, with, fromLib, reqs)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, requests.CoverageLine(cov, drafted))
	return err
}
