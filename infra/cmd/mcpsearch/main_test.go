package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli/clitest"
)

// runCLI runs the command line args in process (clitest.Call).
func runCLI(args ...string) (code int, stdout, stderr string) { return clitest.Call(run, args...) }

// writeFile writes a file for a test (clitest.WriteFile).
var writeFile = clitest.WriteFile

func TestBuildVerifySearch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	code, out, errOut := runCLI("build", "--catalog", "../../../index/testdata/catalog", "--out", dir)
	if code != 0 || !strings.Contains(out, "2 servers, 6 tools, 1 prompt, 2 resources, 1 template") {
		t.Fatalf("build: exit %d, %s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI("verify", "--index", dir); code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("verify: exit %d, %s%s", code, out, errOut)
	}
	code, out, _ = runCLI("search", "--index", dir, "weather", "forecast")
	if lines := strings.Split(out, "\n"); code != 0 || len(lines) < 2 || !strings.Contains(lines[1], "weather__get_forecast") {
		t.Errorf("search: exit %d, got %q, want weather__get_forecast first", code, out)
	}
}

// TestBuildSeparator: --separator names items with another separator, and
// a rebuild gives the same names.
func TestBuildSeparator(t *testing.T) {
	for range 2 {
		dir := filepath.Join(t.TempDir(), "bundle")
		if code, out, errOut := runCLI("build", "--catalog", "../../../index/testdata/catalog", "--out", dir, "--separator", "."); code != 0 {
			t.Fatalf("build: exit %d, %s%s", code, out, errOut)
		}
		code, out, _ := runCLI("search", "--index", dir, "weather", "forecast")
		if lines := strings.Split(out, "\n"); code != 0 || len(lines) < 2 || !strings.Contains(lines[1], "weather.get_forecast") {
			t.Errorf("search: exit %d, got %q, want weather.get_forecast first", code, out)
		}
	}
	code, _, errOut := runCLI("build", "--catalog", "../../../index/testdata/catalog", "--out", filepath.Join(t.TempDir(), "b"), "--separator", "x")
	if code != 1 || !strings.Contains(errOut, `name separator "x"`) {
		t.Errorf("--separator x: got exit %d %q, want the separator refused", code, errOut)
	}
}

func TestCLIErrors(t *testing.T) {
	bad := t.TempDir()
	writeFile(t, filepath.Join(bad, "x.json"), `{"server":"x","tools":[{"name":"t","inputSchema":"no"}]}`)
	for _, test := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: mcpsearch"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"build", "--out", "x"}, 2, "--catalog is required"},
		{[]string{"build", "--catalog", bad, "--out", filepath.Join(bad, "out")}, 1, `x.json: tools[0] "t": field inputSchema: must be a JSON object`},
		{[]string{"verify", "--index", bad}, 1, "not an index bundle"},
		{[]string{"search", "--index", bad}, 2, "give the query"},
		{[]string{"search", "--index", bad, "--limit", "99", "q"}, 2, "--limit"},
	} {
		code, _, errOut := runCLI(test.args...)
		if code != test.code || !strings.Contains(errOut, test.want) {
			t.Errorf("%v: got exit %d %q, want %d containing %q", test.args, code, errOut, test.code, test.want)
		}
	}
}

// TestSearchAsCaller: the operator's search sees every item; --groups
// searches as a caller of those groups.
func TestSearchAsCaller(t *testing.T) {
	catalog := t.TempDir()
	files := map[string]string{
		"ops.json":  `{"server":"ops","visibility":{"groups":["ops"]},"tools":[{"name":"restart_cluster","description":"Restart the cluster","inputSchema":{"type":"object"}}]}`,
		"open.json": `{"server":"open","tools":[{"name":"cluster_status","description":"Show the cluster status","inputSchema":{"type":"object"}}]}`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(catalog, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	if code, out, errOut := runCLI("build", "--catalog", catalog, "--out", dir); code != 0 {
		t.Fatalf("build: exit %d, %s%s", code, out, errOut)
	}
	for _, test := range []struct {
		args []string
		want bool // ops__restart_cluster listed
	}{
		{nil, true}, {[]string{"--groups", "ops"}, true}, {[]string{"--groups", "dev"}, false}, {[]string{"--scopes", "x"}, false},
	} {
		args := append(append([]string{"search", "--index", dir}, test.args...), "cluster")
		code, out, _ := runCLI(args...)
		if code != 0 || strings.Contains(out, "ops__restart_cluster") != test.want || !strings.Contains(out, "open__cluster_status") {
			t.Errorf("%v: exit %d, got %q, want ops__restart_cluster listed: %v", test.args, code, out, test.want)
		}
	}
}

// TestOverLimit: sizes are told against Lambda's limits in MiB, the unit
// Lambda enforces them in.
func TestOverLimit(t *testing.T) {
	if got, want := overLimit(artifact.DirectUploadLimit, artifact.DirectUploadLimit, "x"), " (limit 50 MiB)"; got != want {
		t.Errorf("at the limit: %q, want %q", got, want)
	}
	if got, want := overLimit(artifact.DirectUploadLimit+1, artifact.DirectUploadLimit, "the direct-upload limit"), " (over the direct-upload limit of 50 MiB)"; got != want {
		t.Errorf("past the limit: %q, want %q", got, want)
	}
	if artifact.DirectUploadLimit != 52_428_800 || artifact.UnzippedLimit != 262_144_000 {
		t.Errorf("limits %d and %d bytes, want Lambda's 52,428,800 and 262,144,000", artifact.DirectUploadLimit, artifact.UnzippedLimit)
	}
}
