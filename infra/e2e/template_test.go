package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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

// TestTemplateMakeBuild dry-runs the Makefile recipe that `sam build` runs
// for each function and checks the commands it would run.
func TestTemplateMakeBuild(t *testing.T) {
	makeBin, err := exec.LookPath("make")
	if err != nil {
		missingTool(t, "make is not installed", "apt-get install make")
	}
	for _, f := range loadFunctions(t) {
		t.Run(f.id, func(t *testing.T) {
			codeURI, _ := f.properties["CodeUri"].(string)
			dir := filepath.Join(repoRoot, filepath.FromSlash(codeURI))
			makefile, err := os.ReadFile(filepath.Join(dir, "Makefile"))
			if err != nil {
				t.Fatal(err)
			}
			catalog, ok := makeVariable(makefile, "CATALOG_"+f.id)
			if !ok {
				t.Fatalf("the Makefile does not define CATALOG_%s", f.id)
			}
			artifacts := t.TempDir()
			out, err := runMake(makeBin, dir, "-n", "build-"+f.id, "ARTIFACTS_DIR="+artifacts)
			if err != nil {
				t.Fatalf("make -n build-%s: %v\n%s", f.id, err, out)
			}
			lines := commandLines(out)

			pkg := findCommand(lines, "go", "run", "./infra/cmd/mcpsearch", "package")
			if pkg == nil {
				t.Fatalf("make -n build-%s does not build the artifact with go run ./infra/cmd/mcpsearch package:\n%s", f.id, out)
			}
			for flag, want := range map[string]string{"--catalog": catalog, "--out": artifacts, "--arch": "arm64", "--zip": "false"} {
				if got := flagValue(pkg, flag); filepath.Clean(got) != filepath.Clean(want) {
					t.Errorf("package %s %q, want %q (%q)", flag, got, want, pkg)
				}
			}
			if slices.ContainsFunc(pkg, func(s string) bool { return strings.HasPrefix(s, "GOOS=") || strings.HasPrefix(s, "GOARCH=") }) {
				t.Errorf("the packager must run on the build host, not for Lambda: %q", pkg)
			}
		})
	}

	t.Run("undefined function", func(t *testing.T) {
		out, err := runMake(makeBin, repoRoot, "-n", "build-NoSuchFunction", "ARTIFACTS_DIR="+t.TempDir())
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("make -n build-NoSuchFunction: err = %v, want a failure\n%s", err, out)
		}
		if !strings.Contains(out, "CATALOG_NoSuchFunction") {
			t.Errorf("make -n build-NoSuchFunction fails without naming CATALOG_NoSuchFunction:\n%s", out)
		}
	})
	t.Run("no ARTIFACTS_DIR", func(t *testing.T) {
		out, err := runMake(makeBin, repoRoot, "-n", "build-SearchFunction")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !strings.Contains(out, "ARTIFACTS_DIR") {
			t.Errorf("make -n build-SearchFunction without ARTIFACTS_DIR: err = %v, want a failure naming ARTIFACTS_DIR\n%s", err, out)
		}
	})
}

// runMake runs make in dir, in an environment cleared of the variables
// that would change what the Makefile does (ARCH, CATALOG_*, a parent
// make's flags), and returns its combined output.
func runMake(makeBin, dir string, args ...string) (string, error) {
	cmd := exec.Command(makeBin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "ARCH", name == "ARTIFACTS_DIR", name == "MAKEFLAGS", name == "MFLAGS",
			name == "MAKELEVEL", name == "GO", strings.HasPrefix(name, "CATALOG_"):
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// loadFunctions returns the AWS::Serverless::Function resources of
// template.yaml, sorted by logical id.
func loadFunctions(t *testing.T) []function {
	t.Helper()
	tmpl := loadTemplate(t, filepath.Join(repoRoot, "template.yaml"))
	globals, _ := lookup(tmpl, "Globals", "Function").(map[string]any)
	resources, _ := tmpl["Resources"].(map[string]any)
	var fns []function
	for _, id := range sortedKeys(resources) {
		r, _ := resources[id].(map[string]any)
		if r["Type"] != "AWS::Serverless::Function" {
			continue
		}
		props, _ := r["Properties"].(map[string]any)
		meta, _ := r["Metadata"].(map[string]any)
		fns = append(fns, function{id: id, properties: mergeGlobals(globals, props), metadata: meta})
	}
	if len(fns) == 0 {
		t.Fatal("template.yaml has no AWS::Serverless::Function")
	}
	return fns
}

// mergeGlobals returns props over globals: SAM merges maps (such as
// Environment.Variables) key by key; otherwise the function's value wins.
func mergeGlobals(globals, props map[string]any) map[string]any {
	merged := map[string]any{}
	for k, v := range globals {
		merged[k] = v
	}
	for k, v := range props {
		gm, gok := merged[k].(map[string]any)
		pm, pok := v.(map[string]any)
		if gok && pok {
			v = mergeGlobals(gm, pm)
		}
		merged[k] = v
	}
	return merged
}

// loadTemplate decodes a CloudFormation YAML template into maps, slices
// and scalars. Short-form intrinsics become their long form: !Ref X is
// {"Ref": "X"}, !GetAtt A.B is {"Fn::GetAtt": "A.B"}, !Sub s is
// {"Fn::Sub": "s"}; so a tagged value never compares equal to a plain one.
func loadTemplate(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		t.Fatalf("%s: not a single YAML document", path)
	}
	v, err := nodeValue(doc.Content[0])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: top level is not a mapping", path)
	}
	return m
}

func nodeValue(n *yaml.Node) (any, error) {
	var v any
	switch n.Kind {
	case yaml.AliasNode:
		return nodeValue(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			x, err := nodeValue(val)
			if err != nil {
				return nil, err
			}
			m[k.Value] = x
		}
		v = m
	case yaml.SequenceNode:
		s := []any{}
		for _, c := range n.Content {
			x, err := nodeValue(c)
			if err != nil {
				return nil, err
			}
			s = append(s, x)
		}
		v = s
	case yaml.ScalarNode:
		if isIntrinsic(n.Tag) {
			v = n.Value // a tagged scalar is a string: a name, a path or a Sub pattern
		} else if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
	default:
		return nil, fmt.Errorf("line %d: unexpected YAML node kind %v", n.Line, n.Kind)
	}
	if !isIntrinsic(n.Tag) {
		return v, nil
	}
	name := strings.TrimPrefix(n.Tag, "!")
	if name != "Ref" && name != "Condition" {
		name = "Fn::" + name
	}
	return map[string]any{name: v}, nil
}

// isIntrinsic reports whether tag is a CloudFormation short form (!Ref,
// !Sub, ...) rather than a standard YAML tag (!!str, !!int, ...).
func isIntrinsic(tag string) bool {
	return strings.HasPrefix(tag, "!") && !strings.HasPrefix(tag, "!!")
}

// lookup follows keys through nested maps; it returns nil if one is absent.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func show(v any) string {
	if v == nil {
		return "(unset)"
	}
	return fmt.Sprintf("%#v", v)
}

// makeVariable returns the value of a simple variable assignment
// (NAME = value, :=, ::=, ?=) at the start of a Makefile line.
func makeVariable(makefile []byte, name string) (string, bool) {
	re := regexp.MustCompile(`(?m)^(?:override\s+|export\s+)?` + regexp.QuoteMeta(name) + `\s*(?::{1,2}=|\?=|=)[ \t]*(.*?)[ \t]*(?:#.*)?$`)
	m := re.FindSubmatch(makefile)
	if m == nil || len(m[1]) == 0 {
		return "", false
	}
	return string(m[1]), true
}

// commandLines splits make -n output into commands, each split into words
// the way sh would (quotes removed, no expansion).
func commandLines(out string) [][]string {
	var lines [][]string
	for _, l := range strings.Split(out, "\n") {
		if w := shellWords(l); len(w) > 0 {
			lines = append(lines, w)
		}
	}
	return lines
}

func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// findCommand returns the first command holding seq as consecutive words.
func findCommand(lines [][]string, seq ...string) []string {
	for _, l := range lines {
		for i := 0; i+len(seq) <= len(l); i++ {
			if slices.Equal(l[i:i+len(seq)], seq) {
				return l
			}
		}
	}
	return nil
}

// flagValue returns the value of flag in words, given as "flag value" or
// "flag=value".
func flagValue(words []string, flag string) string {
	for i, w := range words {
		if w == flag && i+1 < len(words) {
			return words[i+1]
		}
		if v, ok := strings.CutPrefix(w, flag+"="); ok {
			return v
		}
	}
	return ""
}
