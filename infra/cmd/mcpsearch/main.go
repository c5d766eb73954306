// Command mcpsearch is the operator's command line: it builds, checks and
// queries index bundles, crawls catalogs, packages the Lambda artifact and
// drafts and applies catalogs' written requests. The lab's commands
// (eval, bench, the models' training, the distillers) are
// infra/lab/cmd/mcpsearch-lab's.
//
//	mcpsearch build  --catalog DIR --out DIR   build a bundle from a catalog directory
//	                 build, package and crawl also [--library=on|off]: the library of public
//	                 servers' requests given to the items without (on by default)
//	mcpsearch package --catalog DIR --out DIR [--arch arm64|amd64] [--zip=false] [--version V]
//	                                           build the Lambda artifact (what sam build runs), from any directory
//	                 both also [--embed-backend openai|bedrock --embed-model M [--embed-endpoint URL]
//	                 [--embed-api-key-env VARIABLE | --embed-region R] [--embed-dims N] …]
//	                                           with each item's vector from a hosted embeddings model
//	mcpsearch crawl  --servers FILE --out DIR [--concurrency N] [--timeout D]
//	                 [--read-resources] [--max-resource-bytes N]
//	                                           list live MCP servers into a catalog directory
//	mcpsearch verify --index DIR               check a bundle's manifest and every file's hash
//	mcpsearch search [--index DIR] [--kind K] [--limit N] [--groups G,…] [--scopes S,…] QUERY...
//	                                           search a bundle from the command line (without --index, the
//	                                           default catalog's, or $MCPSEARCH_CATALOG's, built once)
//	mcpsearch requests coverage --catalog DIR [--json] [--items] [--library=on|off]
//	                                           what a catalog's requests cover, and where they come from
//	mcpsearch requests library [--write [--from DIRS] [--out DIR]]
//	                                           the library of public servers' requests, one line a server
//	mcpsearch requests draft --catalog DIR --out DIR --model NAME (--endpoint URL [--api-key-env VARIABLE] | --bedrock [--region R])
//	                                           a language model's drafts of requests, for review
//	mcpsearch requests apply --catalog DIR FILE…
//	                                           write reviewed requests files into a catalog
//
// mcpsearch --help lists the commands, mcpsearch COMMAND --help its flags.
// A mistake in the command line exits 2, a failure 1.
package main

import (
	"io"
	"os"

	"github.com/mcpsearch/mcpsearch/infra/cli"
)

// program is the name the commands' messages and usage give.
const program = "mcpsearch"

var commands = map[string]cli.Command{
	"build":    {Summary: "build an index bundle from a catalog directory", Run: runBuild},
	"crawl":    {Summary: "list live MCP servers (servers file) into a catalog directory", Run: runCrawl},
	"verify":   {Summary: "check a bundle's manifest and the SHA-256 of every file", Run: runVerify},
	"search":   {Summary: "search a bundle from the command line", Run: runSearch},
	"package":  {Summary: "build the Lambda artifact: bootstrap, index and zip", Run: runPackage},
	"requests": {Summary: "the requests people make for catalog items: coverage of a catalog, drafts by a language model, apply reviewed files", Run: runRequests},
}

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
