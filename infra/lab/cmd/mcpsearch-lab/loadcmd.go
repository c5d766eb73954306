package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/bench"
)

// runBenchLoad runs the real search function binary on loopback with the
// bundle of a scaled catalog and measures throughput and latency of
// tools/search at several client concurrencies, bounded in requests and
// time per level.
func runBenchLoad(args []string, stdout, stderr io.Writer) error {
	requests, maxTime, clientList := 2000, 30*time.Second, "1,8,64"
	b, err := parseBenchFlags("load", args, stdout, stderr, func(fs *cli.FlagSet) {
		fs.IntVar(&requests, "requests", requests, "requests per concurrency level")
		fs.DurationVar(&maxTime, "max-time", maxTime, "time bound per concurrency level")
		fs.StringVar(&clientList, "clients", clientList, "concurrency levels (clients, each one request at a time)")
	})
	if err != nil {
		return err
	}
	levels, err := cli.ParseInts(clientList)
	if err != nil || requests < 1 || maxTime <= 0 {
		return fmt.Errorf("%w: --clients %q, --requests %d, --max-time %s", cli.ErrUsage, clientList, requests, maxTime)
	}
	bin := filepath.Join(b.work, "search-"+runtime.GOARCH)
	if err := artifact.Compile(".", runtime.GOARCH, "bench", bin); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "tools\tclients\trequests\terrors\treq/s\tp50\tp99\t")
	for _, n := range b.sizes {
		if err := loadSize(b, n, bin, levels, requests, maxTime, tw, stderr); err != nil {
			return err
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "tools/search over a fixed mix of %d queries, limit 10, against the real search function on 127.0.0.1 (logs at info, discarded); at most %d requests or %s per level; %s, %d CPUs shared by client and server\n",
		len(bench.Queries), requests, maxTime, runtime.GOARCH, runtime.NumCPU())
	return err
}

func loadSize(b *benchFlags, n int, bin string, levels []int, requests int, maxTime time.Duration, tw io.Writer, stderr io.Writer) error {
	bundle, _, err := b.bundleFor(n, stderr)
	if err != nil {
		return err
	}
	srv, err := bench.StartServer(bin, bundle, nil, time.Minute)
	if err != nil {
		return err
	}
	defer srv.Stop()
	for _, c := range levels {
		r, err := bench.Load(srv.URL, c, requests, maxTime)
		if err != nil {
			return fmt.Errorf("load at %d tools, %d clients: %w", n, c, err)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.0f\t%s\t%s\t\n", n, c, r.Requests, r.Errors, r.Throughput(), round(r.P50), round(r.P99))
	}
	return nil
}
