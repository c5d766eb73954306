package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/bench"
)

// coldstartFlags are bench coldstart's own flags.
type coldstartFlags struct {
	runs, naiveRuns, naiveMax int
	floor                     bool
	compare, compareWork      string
}

// runBenchColdstart measures exec → first tools/search answer under the
// Lambda runtime API emulator: the bundled index, beside (alternately, in
// the same run) the floor — a trivial aws-lambda-go function answering the
// same event — and, with --compare, another bootstrap (an older build);
// then the naive alternative (building the index from the catalog at
// start-up).
func runBenchColdstart(args []string, stdout, stderr io.Writer) error {
	var c coldstartFlags
	b, err := parseBenchFlags("coldstart", args, stdout, stderr, func(fs *cli.FlagSet) {
		fs.IntVar(&c.runs, "runs", 10, "cold starts per size (of each binary, alternately)")
		fs.IntVar(&c.naiveRuns, "naive-runs", 3, "cold starts of the naive build per size")
		fs.IntVar(&c.naiveMax, "naive-max", 10000, "largest size the naive build is measured at (it takes long)")
		fs.BoolVar(&c.floor, "floor", true, "also cold-start the floor, a trivial aws-lambda-go function, alternately")
		fs.StringVar(&c.compare, "compare", "", "also cold-start this bootstrap (built for this machine, e.g. from another revision), alternately")
		fs.StringVar(&c.compareWork, "compare-work", "", "the --work of the --compare build's own bench (its bundle-N), for a bootstrap that reads another bundle format; default: the same bundles")
	})
	if err != nil {
		return err
	}
	if c.runs < 1 {
		return fmt.Errorf("%w: --runs %d: at least 1", cli.ErrUsage, c.runs)
	}
	if c.compareWork != "" && c.compare == "" {
		return fmt.Errorf("%w: --compare-work without --compare", cli.ErrUsage)
	}
	bin := filepath.Join(b.work, "bootstrap-"+runtime.GOARCH)
	if err := artifact.Compile(".", runtime.GOARCH, "bench", bin); err != nil {
		return err
	}
	floor := filepath.Join(b.work, "floor-"+runtime.GOARCH)
	if c.floor {
		if err := bench.CompileFloor(".", floor); err != nil {
			return err
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, c.header())
	for _, n := range b.sizes {
		bundle, catalog, err := b.bundleFor(n, stderr)
		if err != nil {
			return err
		}
		row, err := c.row(n, bin, floor, bundle, catalog)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "exec of the real bootstrap to the first tools/search answer through the runtime API emulator; %d runs of each, alternately (naive %d); %s, %d CPUs\n", c.runs, c.naiveRuns, runtime.GOARCH, runtime.NumCPU())
	return err
}

func (c *coldstartFlags) header() string {
	h := "tools\t"
	if c.floor {
		h += "floor\t"
	}
	h += "bundled index: min\tmedian\tmax\t"
	if c.floor {
		h += "÷ floor\t"
	}
	if c.compare != "" {
		h += "--compare: median\t"
		if c.floor {
			h += "÷ floor\t"
		}
		h += "bundled ÷ --compare\t"
	}
	return h + "build at start-up: min\tmedian\tmax\tratio of medians\t"
}

// row measures one size: the bundled index, the floor and --compare
// alternately, then the naive build.
func (c *coldstartFlags) row(n int, bin, floor, bundle, catalog string) (string, error) {
	env := []string{"MCPSEARCH_INDEX=" + bundle}
	starts := []bench.Start{{Bootstrap: bin, Env: env}}
	if c.floor {
		starts = append(starts, bench.Start{Bootstrap: floor})
	}
	if c.compare != "" {
		starts = append(starts, bench.Start{Bootstrap: c.compare, Env: c.compareEnv(n, bundle)})
	}
	stats, err := bench.Alternate(starts, c.runs, time.Minute)
	if err != nil {
		return "", fmt.Errorf("cold start at %d tools: %w", n, err)
	}
	fast, others := stats[0], stats[1:]
	var row strings.Builder
	fmt.Fprintf(&row, "%d\t", n)
	var floorMedian time.Duration
	if c.floor {
		floorMedian, others = others[0].Median, others[1:]
		fmt.Fprintf(&row, "%s\t", round(floorMedian))
	}
	fmt.Fprintf(&row, "%s\t%s\t%s\t", round(fast.Min), round(fast.Median), round(fast.Max))
	if c.floor {
		fmt.Fprintf(&row, "%s\t", ratio(fast.Median, floorMedian))
	}
	if c.compare != "" {
		old := others[0].Median
		fmt.Fprintf(&row, "%s\t", round(old))
		if c.floor {
			fmt.Fprintf(&row, "%s\t", ratio(old, floorMedian))
		}
		fmt.Fprintf(&row, "%s\t", ratio(fast.Median, old))
	}
	naive, err := c.naive(n, bin, catalog, fast.Median)
	return row.String() + naive, err
}

// compareEnv is the environment of the --compare bootstrap at n tools:
// the bundle of --compare-work if given (built by that revision, in its
// own format), else the same bundle.
func (c *coldstartFlags) compareEnv(n int, bundle string) []string {
	if c.compareWork != "" {
		bundle = filepath.Join(c.compareWork, fmt.Sprintf("bundle-%d", n))
	}
	return []string{"MCPSEARCH_INDEX=" + bundle}
}

// naive measures the naive build at start-up, up to --naive-max tools.
func (c *coldstartFlags) naive(n int, bin, catalog string, fast time.Duration) (string, error) {
	if n > c.naiveMax || c.naiveRuns < 1 {
		return "—\t—\t—\t—\t", nil
	}
	start := bench.Start{Bootstrap: bin, Env: []string{"MCPSEARCH_CATALOG=" + catalog}, FreshEnv: "MCPSEARCH_CACHE_DIR"}
	stats, err := bench.Alternate([]bench.Start{start}, c.naiveRuns, 10*time.Minute)
	if err != nil {
		return "", fmt.Errorf("naive cold start at %d tools: %w", n, err)
	}
	slow := stats[0]
	return fmt.Sprintf("%s\t%s\t%s\t%.0f×\t", round(slow.Min), round(slow.Median), round(slow.Max), float64(slow.Median)/float64(fast)), nil
}

// ratio is a ÷ b to one decimal, "1.8×".
func ratio(a, b time.Duration) string {
	return fmt.Sprintf("%.1f×", float64(a)/float64(b))
}
