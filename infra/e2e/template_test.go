package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoRoot is where template.yaml, the Makefile and samconfig.toml live;
// tests run in infra/e2e.
const repoRoot = "../.."

// A function is one AWS::Serverless::Function of template.yaml, with the
// template's Globals.Function merged into its properties as SAM does.
type function struct {
	id         string
	properties map[string]any
	metadata   map[string]any
}

// TestTemplateFunctions checks that every function is built and run the way
// the Lambda function expects: a provided.al2023 arm64 bootstrap built by
// the Makefile at its CodeUri, serving the bundle in /var/task/index, built
// from a catalog that the Makefile names and that exists.
func TestTemplateFunctions(t *testing.T) {
	t.Parallel()
	fns := loadFunctions(t)
	if !slices.ContainsFunc(fns, func(f function) bool { return f.id == "SearchFunction" }) {
		t.Errorf("template.yaml has no SearchFunction")
	}
	if len(fns) < 2 {
		t.Errorf("template.yaml declares %d function(s); it shows how to add a second one with a catalog of its own", len(fns))
	}
	for _, f := range fns {
		t.Run(f.id, func(t *testing.T) {
			p := f.properties
			if got := p["Runtime"]; got != "provided.al2023" {
				t.Errorf("Runtime = %v, want provided.al2023", show(got))
			}
			if got, ok := p["Architectures"].([]any); !ok || len(got) != 1 || got[0] != "arm64" {
				t.Errorf("Architectures = %v, want [arm64]", show(p["Architectures"]))
			}
			if got := p["Handler"]; got != "bootstrap" {
				t.Errorf("Handler = %v, want bootstrap", show(got))
			}
			if got := f.metadata["BuildMethod"]; got != "makefile" {
				t.Errorf("Metadata.BuildMethod = %v, want makefile", show(got))
			}
			if got := lookup(p, "Environment", "Variables", "MCPSEARCH_INDEX"); got != "/var/task/index" {
				t.Errorf("Environment.Variables.MCPSEARCH_INDEX = %v, want /var/task/index", show(got))
			}
			if lookup(p, "Environment", "Variables", "MCPSEARCH_AUTH") == nil {
				t.Errorf("Environment.Variables.MCPSEARCH_AUTH is not set: in Lambda the function refuses to start without it")
			}
			checkVariablesRead(t, p)
			if mode := lookup(p, "FunctionUrlConfig", "InvokeMode"); mode != nil && mode != "BUFFERED" {
				t.Errorf("FunctionUrlConfig.InvokeMode = %v, want BUFFERED: the handler does not stream", show(mode))
			}
			checkEvents(t, p["Events"])

			codeURI, ok := p["CodeUri"].(string)
			if !ok || codeURI == "" {
				t.Fatalf("CodeUri = %v, want a directory of the repository", show(p["CodeUri"]))
			}
			dir := filepath.Join(repoRoot, filepath.FromSlash(codeURI))
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				t.Fatalf("CodeUri %q is not a directory of the repository (%v)", codeURI, err)
			}
			makefile, err := os.ReadFile(filepath.Join(dir, "Makefile"))
			if err != nil {
				t.Fatalf("BuildMethod makefile needs a Makefile at CodeUri %q: %v", codeURI, err)
			}
			catalog, ok := makeVariable(makefile, "CATALOG_"+f.id)
			if !ok {
				t.Fatalf("the Makefile in %q does not define CATALOG_%s, the catalog of %s", codeURI, f.id, f.id)
			}
			if strings.Contains(catalog, "$") {
				t.Fatalf("CATALOG_%s = %q: want a plain path", f.id, catalog)
			}
			catDir := filepath.Join(dir, filepath.FromSlash(catalog))
			if fi, err := os.Stat(catDir); err != nil || !fi.IsDir() {
				t.Fatalf("CATALOG_%s = %q is not a directory (%v)", f.id, catalog, err)
			}
			if files, _ := filepath.Glob(filepath.Join(catDir, "*.json")); len(files) == 0 {
				t.Errorf("CATALOG_%s = %q holds no *.json files", f.id, catalog)
			}
		})
	}
}

// checkVariablesRead fails for an MCPSEARCH_ variable the template sets
// that the function's main package never reads (a misspelt name would be
// silently ignored).
func checkVariablesRead(t *testing.T, props map[string]any) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(repoRoot, "functions", "search", "*.go"))
	var src strings.Builder
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			data, _ := os.ReadFile(f)
			src.Write(data)
		}
	}
	vars, _ := lookup(props, "Environment", "Variables").(map[string]any)
	for _, name := range sortedKeys(vars) {
		if strings.HasPrefix(name, "MCPSEARCH_") && !strings.Contains(src.String(), `"`+name+`"`) {
			t.Errorf("Environment.Variables.%s: functions/search never reads it", name)
		}
	}
}

// checkEvents rejects events whose payload the handler cannot read: it
// takes Function URL and HTTP API payload 2.0 events only.
func checkEvents(t *testing.T, events any) {
	t.Helper()
	m, _ := events.(map[string]any)
	for _, name := range sortedKeys(m) {
		ev, _ := m[name].(map[string]any)
		switch typ := ev["Type"]; typ {
		case "HttpApi":
			if v := lookup(ev, "Properties", "PayloadFormatVersion"); v != nil && v != "2.0" {
				t.Errorf("event %s: PayloadFormatVersion = %v, want 2.0", name, show(v))
			}
		case "Api":
			t.Errorf("event %s: type Api sends REST API (payload 1.0) events, which the handler does not read; use HttpApi", name)
		}
	}
}

// TestTemplateJWTAuthorizer: the optional JWT-authorized HTTP API reaches
// SearchFunction with payload 2.0 on POST /mcp through a JWT authorizer
// configured from the parameters, and exists only when both are set.
func TestTemplateJWTAuthorizer(t *testing.T) {
	t.Parallel()
	tmpl := loadTemplate(t, filepath.Join(repoRoot, "template.yaml"))
	res := func(id string) map[string]any {
		r, _ := lookup(tmpl, "Resources", id).(map[string]any)
		if r == nil {
			t.Fatalf("template.yaml has no %s", id)
		}
		if r["Condition"] != "WithJwtAuthorizer" {
			t.Errorf("%s: Condition = %v, want WithJwtAuthorizer", id, show(r["Condition"]))
		}
		return r
	}
	route := res("JwtHttpApiRoute")
	if lookup(route, "Properties", "AuthorizationType") != "JWT" || lookup(route, "Properties", "RouteKey") != "POST /mcp" {
		t.Errorf("JwtHttpApiRoute: got %v, want POST /mcp with AuthorizationType JWT", show(route["Properties"]))
	}
	authz := res("JwtHttpApiAuthorizer")
	if fmt.Sprint(lookup(authz, "Properties", "JwtConfiguration", "Issuer")) != fmt.Sprint(map[string]any{"Ref": "JwtIssuer"}) {
		t.Errorf("JwtHttpApiAuthorizer issuer = %v, want the JwtIssuer parameter", show(lookup(authz, "Properties", "JwtConfiguration", "Issuer")))
	}
	integration := res("JwtHttpApiIntegration")
	if lookup(integration, "Properties", "PayloadFormatVersion") != "2.0" {
		t.Errorf("JwtHttpApiIntegration: PayloadFormatVersion = %v, want 2.0", show(lookup(integration, "Properties", "PayloadFormatVersion")))
	}
	res("JwtHttpApiPermission")
	res("JwtHttpApiStage")
}

// TestTemplateCfnLint runs cfn-lint, which validates the SAM template offline.
func TestTemplateCfnLint(t *testing.T) {
	t.Parallel()
	cfnLint, err := exec.LookPath("cfn-lint")
	if err != nil {
		missingTool(t, "cfn-lint is not installed", "apt-get install cfn-lint (or pip install cfn-lint)")
	}
	cmd := exec.Command(cfnLint, "template.yaml")
	cmd.Dir = repoRoot
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cfn-lint template.yaml: %v\n%s", err, out)
	}
}
