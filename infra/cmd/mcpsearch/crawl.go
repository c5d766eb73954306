package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"golang.org/x/term"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/crawl"
)

func runCrawl(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("crawl", stdout, stderr)
	servers := fs.String("servers", "", "servers file (YAML or JSON) naming the upstream MCP servers")
	out := fs.String("out", "", "catalog directory to write: one <server>.json per server")
	concurrency := fs.Int("concurrency", crawl.DefaultConcurrency, "servers crawled at once")
	timeout := fs.Duration("timeout", crawl.DefaultTimeout, "time allowed for each server's whole crawl")
	read := fs.Bool("read-resources", false, "read text resources (resources/read) into the catalog, to search their content")
	maxBytes := fs.Int("max-resource-bytes", crawl.DefaultMaxResourceBytes, "with --read-resources: cut each text to this many bytes (at most 1 MiB, the index's limit)")
	lib := libraryFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("servers", "out"); err != nil {
		return err
	}
	if _, err := openLibrary(*lib); err != nil {
		return err
	}
	if *concurrency < 1 || *timeout <= 0 || *maxBytes < 1 {
		return fmt.Errorf("%w: --concurrency, --timeout and --max-resource-bytes must be positive", cli.ErrUsage)
	}
	cfg, err := crawl.LoadServers(*servers)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	results, err := crawl.Run(ctx, cfg, *out, &crawl.Options{Concurrency: *concurrency, Timeout: *timeout,
		ReadResources: *read, MaxResourceBytes: *maxBytes, Progress: progressFor(stderr)})
	if werr := crawl.WriteSummary(stdout, results, *read); werr != nil && err == nil {
		err = werr
	}
	if err == nil && *lib == "on" {
		err = crawlCoverage(*out, stdout)
	}
	return err
}

// crawlCoverage says what the library gives the catalog a crawl wrote:
// the files keep only the servers' own requests (a crawl carries those
// over), and build, package and the local server attach the library's.
func crawlCoverage(dir string, w io.Writer) error {
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		return err
	}
	cov, err := attachLibrary(cat, "on")
	if err != nil {
		return err
	}
	writeCoverage(w, "at build, ", cov)
	return nil
}

// progressFor draws a bar on a terminal and prints plain lines elsewhere.
func progressFor(w io.Writer) crawl.Progress {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return crawl.NewBar(w)
	}
	return crawl.NewLines(w)
}
