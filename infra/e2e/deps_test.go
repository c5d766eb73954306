package e2e

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mcpsearch/mcpsearch"

// joseModule is the JOSE library; only ext/auth imports it.
const joseModule = "github.com/go-jose/"

// The AWS SDK's credential chain and services: only infra/cmd/mcpsearch
// (requests draft --bedrock) loads them.
const (
	awsChain       = "github.com/aws/aws-sdk-go-v2/config"
	awsCredentials = "github.com/aws/aws-sdk-go-v2/credentials"
	awsServices    = "github.com/aws/aws-sdk-go-v2/service/"
)

// goPackage is what `go list -json` says of a package.
type goPackage struct {
	ImportPath                               string
	Deps, Imports, TestImports, XTestImports []string
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps=false", "-json", "./...")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 4 {
		t.Fatalf("go list found %d packages, want ext, index, functions/search, infra and more", len(pkgs))
	}
	return pkgs
}

// TestDependencyDirection enforces the dependency rules: ext (the
// extension's vocabulary) depends on the standard library only, and not on
// net/http; the MCP server (ext/server) on neither bleve nor AWS; index
// neither on AWS nor on the server; the upstream client (ext/upstream) and
// the search client library (ext/searchclient) on mcp-go and ext only; the
// sentence encoder (infra/eval/encoder, a measurement, out of the serving
// tree) on the standard library and golang.org/x/text only; the Lambda
// function (functions/search) not on the AWS credential chain or SDK
// services that mcpsearch requests draft uses to ask Bedrock, and the
// drafting (infra/requests) and the hosted embeddings client (index/embed)
// not on them either (the command hands them credentials); the shared
// redaction and redirect policy (ext/redact, ext/redirect) on the standard
// library only; and no package outside functions/ and infra/ imports them.
func TestDependencyDirection(t *testing.T) {
	t.Parallel()
	forbidden := map[string][]string{
		module + "/ext":        {"github.com/", "golang.org/", "net/http", module + "/"},
		module + "/ext/server": {"github.com/blevesearch/", "github.com/aws/", module + "/index", module + "/functions", module + "/infra"},
		module + "/index":      {"github.com/aws/", "github.com/mark3labs/mcp-go/server", module + "/ext/", module + "/functions", module + "/infra"},
		// The gateway's client: mcp-go and ext only.
		module + "/ext/upstream":              {"github.com/blevesearch/", "github.com/aws/", module + "/index", module + "/functions", module + "/infra"},
		module + "/ext/upstream/upstreamtest": {"github.com/blevesearch/", "github.com/aws/", module + "/"},
		// The search client library: the standard library, mcp-go and ext only.
		module + "/ext/searchclient": {"github.com/blevesearch/", "github.com/aws/", module + "/ext/", module + "/index", module + "/functions", module + "/infra"},
		// The sentence encoder: the standard library and golang.org/x/text only.
		module + "/infra/eval/encoder": {"github.com/", "gopkg.in/", module + "/"},
		// Authentication: ext and the JOSE library, nothing of the index or AWS.
		module + "/ext/auth": {"github.com/blevesearch/", "github.com/aws/", module + "/index", module + "/functions", module + "/infra"},
		// The Lambda function signs its own few AWS calls: no credential
		// chain, no SDK service, nothing of infra/ (the drafting of requests).
		module + "/functions/search": {awsChain, awsCredentials, awsServices, module + "/infra"},
		module + "/infra/requests":   {awsChain, awsCredentials, awsServices, module + "/functions"},
		// The hosted embeddings client, which the function imports: the
		// standard library and the SDK's SigV4 signer, nothing of the index
		// (but the leaves allowed below).
		module + "/index/embed": {awsChain, awsCredentials, awsServices, "github.com/blevesearch/", module + "/"},
		// What keeps secrets in — the redaction and the redirect policy
		// that every client shares — and their test helpers: the standard
		// library only, so that any package may import them.
		module + "/ext/redact":                {"github.com/", "golang.org/", module + "/"},
		module + "/ext/redact/redacttest":     {"github.com/", "golang.org/", module + "/"},
		module + "/ext/redirect":              {"github.com/", "golang.org/", module + "/"},
		module + "/ext/redirect/redirecttest": {"github.com/", "golang.org/", module + "/"},
	}
	// allowed are the leaves of the module a package may depend on although
	// its rule bans the module: the standard-library-only packages above.
	allowed := map[string][]string{
		module + "/index/embed":               {module + "/ext/redact", module + "/ext/redirect"},
		module + "/ext/upstream/upstreamtest": {module + "/ext/redact/redacttest"},
	}
	found := map[string]bool{}
	for _, p := range listPackages(t) {
		for prefix, banned := range forbidden {
			if p.ImportPath != prefix {
				continue
			}
			found[prefix] = true
			for _, dep := range p.Deps {
				for _, b := range banned {
					if strings.HasPrefix(dep, b) && dep != p.ImportPath && !slices.Contains(allowed[prefix], dep) {
						t.Errorf("%s depends on %s", p.ImportPath, dep)
					}
				}
			}
		}
		if p.ImportPath != module+"/ext/auth" {
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, joseModule) {
					t.Errorf("%s imports %s: only ext/auth may use the JOSE library", p.ImportPath, imp)
				}
			}
		}
		imports := append(append(append([]string{}, p.Imports...), p.TestImports...), p.XTestImports...)
		for _, imp := range imports {
			for _, top := range []string{module + "/functions", module + "/infra"} {
				if strings.HasPrefix(imp, top) && !strings.HasPrefix(p.ImportPath, top) {
					t.Errorf("%s imports %s: nothing may import functions/ or infra/", p.ImportPath, imp)
				}
			}
		}
	}
	for prefix := range forbidden {
		if !found[prefix] {
			t.Errorf("package %s not found", prefix)
		}
	}
}
