package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestTemplateMakeBuildOutsideGit runs the Makefile recipe the way sam
// build does without --build-in-source: in a copy of CodeUri without
// .git, with ARTIFACTS_DIR set. The bootstrap it builds (for this machine,
// to run it) names a version, not "dev". The copy leaves out node_modules
// too, which sam would copy and the build never reads.
func TestTemplateMakeBuildOutsideGit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an artifact (half a minute); not with -short")
	}
	t.Parallel()
	makeBin, err := exec.LookPath("make")
	if err != nil {
		missingTool(t, "make is not installed", "apt-get install make")
	}
	scratch := t.TempDir()
	copyTree(t, repoRoot, scratch, ".git", ".aws-sam", "node_modules")
	artifacts := t.TempDir()
	out, err := runMake(makeBin, scratch, "build-SearchFunction", "ARTIFACTS_DIR="+artifacts, "ARCH="+runtime.GOARCH)
	if err != nil {
		t.Fatalf("make build-SearchFunction in a copy without .git: %v\n%s", err, out)
	}
	if !strings.Contains(out, "version src-") {
		t.Errorf("the build does not say which version it stamps and why:\n%s", out)
	}
	if runtime.GOOS != "linux" {
		return
	}
	version, err := exec.Command(filepath.Join(artifacts, "bootstrap"), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("bootstrap --version: %v\n%s", err, version)
	}
	if !regexp.MustCompile(`^mcpsearch search function src-[0-9a-f]{12} `).Match(version) {
		t.Errorf("bootstrap --version of a build outside git = %q, want the source digest src-<12 hex>", version)
	}
}

// copyTree copies the regular files under src to dst, skipping the
// files and directories named in skip.
func copyTree(t *testing.T, src, dst string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if rel != "." && slices.Contains(skip, d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // a worktree's .git is a file
		}
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSamconfigBuildsInSource: sam build as typed runs the Makefile in the
// checkout, not in a scratch copy of it (node_modules and test output,
// hundreds of MB per function, and no .git to name the version by), and
// sam deploy --guided with every default accepted deploys.
func TestSamconfigBuildsInSource(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "samconfig.toml"))
	if err != nil {
		t.Fatal(err)
	}
	build := tomlTable(string(data), "default.build.parameters")
	if !regexp.MustCompile(`(?m)^build_in_source\s*=\s*true\s*$`).MatchString(build) {
		t.Errorf("samconfig.toml [default.build.parameters] does not set build_in_source = true:\n%s", build)
	}
	// sam deploy --guided offers confirm_changeset as its default; true
	// ends a run that accepts every default at "Deploy this changeset?
	// [y/N]", answered No.
	deploy := tomlTable(string(data), "default.deploy.parameters")
	if regexp.MustCompile(`(?m)^confirm_changeset\s*=\s*true\s*$`).MatchString(deploy) {
		t.Errorf("samconfig.toml [default.deploy.parameters] sets confirm_changeset = true: sam deploy --guided, every default accepted, stops before deploying")
	}
}

// tomlTable returns the lines of the [name] table of a TOML file.
func tomlTable(toml, name string) string {
	_, rest, ok := strings.Cut(toml, "\n["+name+"]\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n["); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// TestTemplateDefaultsAreReachable: with every parameter at its default,
// sam deploy --guided has nothing to refuse (no SAM Api or HttpApi event
// without Auth, which it stops at, answered No), no API Gateway route lets
// a request through unchecked, and the outputs say what a client sets.
func TestTemplateDefaultsAreReachable(t *testing.T) {
	t.Parallel()
	for _, f := range loadFunctions(t) {
		events, _ := f.properties["Events"].(map[string]any)
		for _, name := range sortedKeys(events) {
			ev, _ := events[name].(map[string]any)
			if typ := ev["Type"]; (typ == "HttpApi" || typ == "Api") && lookup(ev, "Properties", "Auth") == nil {
				t.Errorf("%s event %s (%v) has no Auth: sam deploy --guided asks whether that is okay and stops at its default, No", f.id, name, typ)
			}
		}
	}
	tmpl := loadTemplate(t, filepath.Join(repoRoot, "template.yaml"))
	conditions, _ := tmpl["Conditions"].(map[string]any)
	resources, _ := tmpl["Resources"].(map[string]any)
	for _, id := range sortedKeys(resources) {
		r, _ := resources[id].(map[string]any)
		if r["Type"] == "AWS::Serverless::HttpApi" || r["Type"] == "AWS::Serverless::Api" {
			t.Errorf("%s: a SAM API's routes come from function events, which cannot be conditional", id)
		}
		if r["Type"] != "AWS::ApiGatewayV2::Route" || lookup(r, "Properties", "AuthorizationType") != "NONE" {
			continue
		}
		cond, _ := r["Condition"].(string)
		if show(conditions[cond]) != show(map[string]any{"Fn::Or": []any{
			map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "AuthMode"}, "bearer"}},
			map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "AuthMode"}, "jwt"}},
		}}) {
			t.Errorf("route %s has no authorizer; it must exist only when the function checks a token (AuthMode bearer or jwt), its Condition %q is %v", id, cond, show(conditions[cond]))
		}
	}
	outputs, _ := tmpl["Outputs"].(map[string]any)
	setup := show(lookup(outputs, "FunctionUrlClientSetup", "Value"))
	for _, want := range []string{"SigV4", "Authorization: Bearer"} {
		if !strings.Contains(setup, want) {
			t.Errorf("output FunctionUrlClientSetup does not say %q: %s", want, setup)
		}
	}
}
