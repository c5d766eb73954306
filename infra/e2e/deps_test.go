package e2e

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mcpsearch/mcpsearch"

// lab is the lab's tree: evaluation, measurement, training, distillers.
const lab = module + "/infra/lab"

// inTree reports whether the package path is root or below it.
func inTree(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// joseModule is the JOSE library; only ext/auth imports it.
const joseModule = "github.com/go-jose/"

// The AWS SDK's credential chain and services: only the command lines
// (infra/cli: requests draft --bedrock, the --embed-… flags) load them.
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
// the search client library (ext/searchclient) on mcp-go and ext only; the Lambda
// function (functions/search) not on the AWS credential chain or SDK
// services that mcpsearch requests draft uses to ask Bedrock, and the
// drafting (infra/requests) and the hosted embeddings client (ext/embed, the one
// package of ext that links the SDK, for its SigV4 signer only) not on
// them either (the command hands them credentials); the shared
// redaction and redirect policy (ext/redact, ext/redirect) on the standard
// library only; no package outside functions/ and infra/ imports them; and
// no package outside infra/lab imports the lab (evaluation, measurement,
// training, the distillers), not even the operator's CLI or its tests.
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
		// Authentication: ext and the JOSE library, nothing of the index or AWS.
		module + "/ext/auth": {"github.com/blevesearch/", "github.com/aws/", module + "/index", module + "/functions", module + "/infra"},
		// The Lambda function signs its own few AWS calls: no credential
		// chain, no SDK service, nothing of infra/ (the drafting of requests).
		module + "/functions/search": {awsChain, awsCredentials, awsServices, module + "/infra"},
		module + "/infra/requests":   {awsChain, awsCredentials, awsServices, module + "/functions"},
		// The hosted embeddings client, which the function imports: the
		// standard library and the SDK's SigV4 signer (Bedrock's calls are
		// signed; the documented exception to ext's rule, see ext/README.md),
		// nothing of the index (but the leaves allowed below).
		module + "/ext/embed": {awsChain, awsCredentials, awsServices, "github.com/blevesearch/", "github.com/mark3labs/", module + "/"},
		// The catalog domain, which the index builds from, the crawler
		// writes and the gateway's client reads: the standard library and
		// ext only.
		module + "/ext/catalog": {"github.com/", "golang.org/", module + "/"},
		// The library of public servers' requests — its logic and its
		// data — likewise: the standard library, ext and the catalog.
		module + "/ext/catalog/library":      {"github.com/", "golang.org/", module + "/"},
		module + "/ext/catalog/library/data": {"github.com/", "golang.org/", module + "/"},
		// What keeps secrets in — the redaction and the redirect policy
		// that every client shares — and their test helpers: the standard
		// library only, so that any package may import them.
		module + "/ext/redact":                {"github.com/", "golang.org/", module + "/"},
		module + "/ext/redact/redacttest":     {"github.com/", "golang.org/", module + "/"},
		module + "/ext/redirect":              {"github.com/", "golang.org/", module + "/"},
		module + "/ext/redirect/redirecttest": {"github.com/", "golang.org/", module + "/"},
		module + "/ext/internal/jsonlex":      {"github.com/", "golang.org/", module + "/"},
	}
	// allowed are the leaves of the module a package may depend on although
	// its rule bans the module: the standard-library-only packages above,
	// ext, the catalog domain (itself ext and the standard library) and
	// the JSON lexer it shares with ext/server (the standard library only).
	const jsonlex = module + "/ext/internal/jsonlex"
	allowed := map[string][]string{
		module + "/index":                     {module + "/ext/catalog", jsonlex},
		module + "/ext/catalog":               {module + "/ext", jsonlex},
		module + "/ext/catalog/library":       {module + "/ext", module + "/ext/catalog", jsonlex},
		module + "/ext/catalog/library/data":  {module + "/ext", module + "/ext/catalog", module + "/ext/catalog/library", jsonlex},
		module + "/ext/embed":                 {module + "/ext/redact", module + "/ext/redirect"},
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
		if inTree(p.ImportPath, module+"/ext") && !inTree(p.ImportPath, module+"/ext/embed") {
			for _, dep := range p.Deps {
				if strings.HasPrefix(dep, "github.com/aws/") {
					t.Errorf("%s depends on %s: of ext, only ext/embed (and its test server) may link the AWS SDK (its SigV4 signer)", p.ImportPath, dep)
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
			if inTree(imp, lab) && !inTree(p.ImportPath, lab) {
				t.Errorf("%s imports %s: nothing outside infra/lab may import the lab", p.ImportPath, imp)
			}
		}
	}
	for prefix := range forbidden {
		if !found[prefix] {
			t.Errorf("package %s not found", prefix)
		}
	}
}

// TestServingBinaryLinksNoLab: the function's binary (go list -deps
// ./functions/search) links no package of infra/ — no evaluation,
// measurement, training or distilling code, nor the command lines.
func TestServingBinaryLinksNoLab(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./functions/search")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./functions/search: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/index") {
		t.Fatalf("go list -deps ./functions/search lists no %s/index: %q", module, deps)
	}
	for _, dep := range deps {
		if inTree(dep, module+"/infra") {
			t.Errorf("the serving binary links %s", dep)
		}
	}
}

// TestServingBinaryLinksNoLibraryData: the Lambda function's binary (the
// tags infra/artifact compiles with) links the library's logic but not its
// data (ext/catalog/library/data, the requests of every public server the
// library knows): the artifact carries only the requests its bundle
// keeps. The local build (no tags) links the data, to attach it at start.
func TestServingBinaryLinksNoLibraryData(t *testing.T) {
	data := module + "/ext/catalog/library/data"
	for _, c := range []struct {
		tags string
		want bool
	}{{"lambda.norpc,nocatalog", false}, {"", true}} {
		cmd := exec.Command("go", "list", "-deps", "-tags", c.tags, "./functions/search")
		cmd.Dir = repoRoot
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps -tags %q ./functions/search: %v", c.tags, err)
		}
		deps := strings.Fields(string(out))
		if got := slices.Contains(deps, data); got != c.want {
			t.Errorf("tags %q: links %s: %v, want %v", c.tags, data, got, c.want)
		}
		if !slices.Contains(deps, module+"/ext/catalog/library") {
			t.Errorf("tags %q: the library's logic is not linked", c.tags)
		}
	}
}

// TestIndexExportsNoTraining: no package under index/ exports a name
// that starts with Train (a function, a method, a type, a variable or a
// constant): the models are trained by the lab (infra/lab/train), which
// reads the index through what it exports for every caller.
func TestIndexExportsNoTraining(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{.Dir}}{{range .GoFiles}} {{.}}{{end}}`, "./index/...")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./index/...: %v", err)
	}
	files := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		for _, name := range fields[1:] {
			path := filepath.Join(fields[0], name)
			files++
			for _, ident := range exportedNames(t, path) {
				if strings.HasPrefix(ident, "Train") {
					t.Errorf("%s exports %s: training belongs to the lab (infra/lab/train)", path, ident)
				}
			}
		}
	}
	if files < 20 {
		t.Fatalf("go list found %d Go files under index/; want the index's", files)
	}
}

// exportedNames are the exported names a Go file declares at its top
// level, methods included.
func exportedNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return !ast.IsExported(n) })
}
