package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/bench"
)

// benches are the measurements of mcpsearch-lab bench, in the order the usage
// lists them; one without a summary is a child process of another.
var benches = []struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}{
	{"tokens", "bytes and tokens of tools/list against one tools/search page", runBenchTokens},
	{"search", "warm search latency, memory and artifact size per catalog size", runBenchSearch},
	{"coldstart", "exec to the first answer under the Lambda runtime API emulator, against building the index at start-up", runBenchColdstart},
	{"load", "throughput and latency of the real server under concurrent clients", runBenchLoad},
	{"select", "share of the needed tools that searchclient.Select puts in budgets of 5, 10, 20 tools, and their tokens against tools/list", runBenchSelect},
	{"search-one", "", runBenchSearchOne},
}

func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && cli.IsHelp(args[0]) {
		return benchUsage(stdout)
	}
	for _, b := range benches {
		if len(args) > 0 && args[0] == b.name {
			return b.run(args[1:], stdout, stderr)
		}
	}
	return fmt.Errorf("%w: mcpsearch-lab bench %s [flags]", cli.ErrUsage, benchNames())
}

// benchNames are the names of the measurements, "tokens|search|…".
func benchNames() string {
	var names []string
	for _, b := range benches {
		if b.summary != "" {
			names = append(names, b.name)
		}
	}
	return strings.Join(names, "|")
}

func benchUsage(w io.Writer) error {
	fmt.Fprintf(w, "usage: mcpsearch-lab bench %s [flags]\n\nmeasurements:\n", benchNames())
	for _, b := range benches {
		if b.summary != "" {
			fmt.Fprintf(w, "  %-10s %s\n", b.name, b.summary)
		}
	}
	_, err := fmt.Fprintln(w, "\nRun 'mcpsearch-lab bench <measurement> -h' for its flags.")
	return err
}

// benchFlags are the flags search and coldstart share.
type benchFlags struct {
	catalog, work string
	sizes         []int
}

func parseBenchFlags(name string, args []string, stdout, stderr io.Writer, extra func(*cli.FlagSet)) (*benchFlags, error) {
	fs := newFlags("bench "+name, stdout, stderr)
	b := &benchFlags{}
	fs.StringVar(&b.catalog, "catalog", "functions/search/catalog", "catalog to scale")
	fs.StringVar(&b.work, "work", filepath.Join(os.TempDir(), "mcpsearch-bench"), "where scaled catalogs and bundles are kept between runs")
	sizes := fs.String("sizes", "1000,10000,100000", "catalog sizes in tools")
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	var err error
	if b.sizes, err = cli.ParseInts(*sizes); err != nil {
		return nil, fmt.Errorf("%w: --sizes %q", cli.ErrUsage, *sizes)
	}
	return b, nil
}

// bundleFor returns the bundle (and catalog) of a catalog of n tools scaled
// from b.catalog, building them the first time.
func (b *benchFlags) bundleFor(n int, progress io.Writer) (bundle, catalog string, err error) {
	catalog = filepath.Join(b.work, fmt.Sprintf("catalog-%d", n))
	bundle = filepath.Join(b.work, fmt.Sprintf("bundle-%d", n))
	if reusable(bundle, n) {
		return bundle, catalog, nil
	}
	os.RemoveAll(catalog)
	if err := bench.ScaleCatalog(b.catalog, catalog, n); err != nil {
		return "", "", err
	}
	fmt.Fprintf(progress, "building the bundle of %d tools…\n", n)
	os.RemoveAll(bundle)
	_, err = index.BuildDir(catalog, bundle, nil)
	return bundle, catalog, err
}

// reusable reports whether the bundle left by an earlier run holds n tools
// and passes both Verify and Open (this build may need files an earlier
// one did not write).
func reusable(bundle string, n int) bool {
	m, err := index.Verify(bundle)
	if err != nil || m.Counts[ext.KindTool] != n {
		return false
	}
	x, err := index.Open(bundle)
	if err != nil {
		return false
	}
	return x.Close() == nil
}

// runBenchSearch measures warm search latency, memory and bundle size at
// each catalog size, each size in a process of its own.
func runBenchSearch(args []string, stdout, stderr io.Writer) error {
	queries := 1000
	b, err := parseBenchFlags("search", args, stdout, stderr, func(fs *cli.FlagSet) { fs.IntVar(&queries, "queries", 1000, "queries per size") })
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mcpsearch-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The Lambda artifact is the arm64 bootstrap beside the bundle: its zip
	// is what the 50 MiB direct-upload limit applies to.
	bootstrap := filepath.Join(tmp, "bootstrap", "bootstrap")
	if err := artifact.Compile(".", "arm64", "bench", bootstrap); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "tools\topen\tp50\tp99\tRSS after open + queries\tbundle on disk\tartifact zipped (arm64)\t")
	for _, n := range b.sizes {
		bundle, _, err := b.bundleFor(n, stderr)
		if err != nil {
			return err
		}
		out, err := runChild(self, "bench", "search-one", "--index", bundle, "--queries", strconv.Itoa(queries))
		if err != nil {
			return fmt.Errorf("search at %d tools: %w", n, err)
		}
		var r bench.SearchResult
		if err := json.Unmarshal(out, &r); err != nil {
			return err
		}
		disk, zipped, err := artifactSizes(bundle, filepath.Dir(bootstrap), tmp)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.1f MiB\t%.1f MiB\t%.1f MiB\t\n", n, round(r.OpenDuration), round(r.P50), round(r.P99),
			artifact.MiB(r.RSSBytes), artifact.MiB(disk), artifact.MiB(zipped))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%d queries of a fixed mix of %d, after one warm-up round; %s, %d CPUs\n", queries, len(bench.Queries), runtime.GOARCH, runtime.NumCPU())
	return err
}

// runChild runs a child process of a bench and returns its standard
// output; a failure carries what the child said on standard error.
func runChild(name string, args ...string) ([]byte, error) {
	var stderr strings.Builder
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// runBenchSearchOne is the child process of bench search.
func runBenchSearchOne(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench search-one", stdout, stderr)
	dir := fs.String("index", "", "bundle")
	queries := fs.Int("queries", 1000, "queries")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r, err := bench.WarmSearch(*dir, *queries)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(r)
}

// artifactSizes returns the size of the bundle at dir and of the zip of
// the artifact it makes with the bootstrap in bootstrapDir, zipped in tmp.
func artifactSizes(dir, bootstrapDir, tmp string) (disk, zipped int64, err error) {
	m, err := index.Verify(dir)
	if err != nil {
		return 0, 0, err
	}
	for _, f := range m.Files {
		disk += f.Size
	}
	zipPath := filepath.Join(tmp, "artifact.zip")
	defer os.Remove(zipPath)
	zipped, err = artifact.ZipTree(zipPath, artifact.Tree{Dir: bootstrapDir}, artifact.Tree{Dir: dir, Prefix: "index"})
	return disk, zipped, err
}

func round(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%d µs", d.Microseconds())
}
