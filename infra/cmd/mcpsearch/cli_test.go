package main

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/cli/clitest"
)

// repoRoot is the root of the repository; tests run in infra/cmd/mcpsearch.
const repoRoot = "../../.."

// testCatalog is the index's small test catalog.
const testCatalog = "../../../index/testdata/catalog"

// TestHelp: asking for help is not a mistake: the usage goes to standard
// output and the exit code is 0. No command, or an unknown one, is a
// mistake: the usage goes to standard error and the exit code is 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, run, program, []clitest.Help{
		{Args: []string{"--help"}, Want: "usage: mcpsearch <command>"},
		{Args: []string{"-h"}, Want: "usage: mcpsearch <command>"},
		{Args: []string{"help"}, Want: "usage: mcpsearch <command>"},
		{Args: []string{"search", "--help"}, Want: "QUERY"},
		{Args: []string{"build", "-h"}, Want: "-catalog"},
		{Args: []string{"requests", "--help"}, Want: "coverage"},
	}, [][]string{nil, {"frobnicate"}, {"build", "--frobnicate"}})
}

// TestUsageListsEveryCommand: the command list and the package doc name
// every command, and none of the lab's.
func TestUsageListsEveryCommand(t *testing.T) {
	clitest.CheckUsageNames(t, run, program, slices.Sorted(maps.Keys(commands)))
	for _, lab := range []string{"eval", "bench", "errandmodel", "fitmodel", "wordnet", "wordvec", "cedict", "holdout"} {
		if _, ok := commands[lab]; ok {
			t.Errorf("the operator's CLI has the lab's command %s (infra/lab/cmd/mcpsearch-lab)", lab)
		}
	}
}

// TestSearchNoMatchSaysWhy: a search without items prints the index's
// hint, not an empty table.
func TestSearchNoMatchSaysWhy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if code, out, errOut := runCLI("build", "--catalog", testCatalog, "--out", dir); code != 0 {
		t.Fatalf("build: exit %d, %s%s", code, out, errOut)
	}
	x, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "zebra xylophone", Limit: 10})
	x.Close()
	if err != nil || len(page.Items) != 0 || page.Hint == "" {
		t.Fatalf("the index answers %+v, %v; want no items and a hint", page, err)
	}
	code, out, errOut := runCLI("search", "--index", dir, "zebra", "xylophone")
	if code != 0 || !strings.Contains(out, page.Hint) || strings.Contains(out, "SCORE") {
		t.Errorf("got exit %d, %q%s; want 0 and the hint %q without a table", code, out, errOut, page.Hint)
	}
}

// TestSearchOff: --off switches retrieval rules off as the function's
// MCPSEARCH_RULES_OFF does: with no-match off, a request no item fits gets
// its best matches; an unknown rule is a usage error naming it.
func TestSearchOff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if code, out, errOut := runCLI("build", "--catalog", testCatalog, "--out", dir); code != 0 {
		t.Fatalf("build: exit %d, %s%s", code, out, errOut)
	}
	const request = "delete my dentist appointment" // the test catalog deletes notes
	if code, out, _ := runCLI("search", "--index", dir, request); code != 0 || !strings.HasPrefix(out, "no tools:") {
		t.Fatalf("every rule on: exit %d, %q; want no tools", code, out)
	}
	if code, out, errOut := runCLI("search", "--index", dir, "--off", "no-match", request); code != 0 || !strings.Contains(out, "notes__delete_note") {
		t.Errorf("--off no-match: exit %d, %q%s; want notes__delete_note", code, out, errOut)
	}
	if code, _, errOut := runCLI("search", "--index", dir, "--off", "no-match,nope", request); code != 2 || !strings.Contains(errOut, `no retrieval rule is named "nope"`) {
		t.Errorf("--off nope: exit %d, %s; want 2 naming the rule", code, errOut)
	}
}

// TestRequiredNamesEveryMissingFlag: every missing flag is named, in the
// order the command declares them, every time.
func TestRequiredNamesEveryMissingFlag(t *testing.T) {
	for _, test := range []struct {
		args []string
		want string
	}{
		{[]string{"package"}, "--catalog and --out are required"},
		{[]string{"build"}, "--catalog and --out are required"},
		{[]string{"crawl"}, "--servers and --out are required"},
		{[]string{"crawl", "--servers", "s.yaml"}, "--out is required"},
	} {
		for range 20 {
			code, _, errOut := runCLI(test.args...)
			if code != 2 || !strings.Contains(errOut, test.want) {
				t.Fatalf("%v: got exit %d %q, want 2 containing %q", test.args, code, errOut, test.want)
			}
		}
	}
}

// TestPackageFromAnyDirectory: package finds the module it builds from
// the catalog's path or from the binary's own source, warns of stdio
// upstreams (Lambda refuses to start them), and when it cannot find the
// module it says so and creates nothing.
func TestPackageFromAnyDirectory(t *testing.T) {
	catalog, err := filepath.Abs(testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	t.Chdir(outside)
	local := filepath.Join(outside, "catalog")
	if err := os.Mkdir(local, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(local, "files.json"), `{"server":"files","upstream":{"transport":"stdio","command":"npx","args":["-y","files"]},"tools":[{"name":"read_file","description":"Read a file","inputSchema":{"type":"object"}}]}`)
	writeFile(t, filepath.Join(local, "web.json"), `{"server":"web","upstream":{"transport":"streamable-http","url":"https://example.com/mcp"},"tools":[{"name":"fetch","description":"Fetch a page","inputSchema":{"type":"object"}}]}`)

	pkg := func(catalog, out string) (int, string, string) {
		return runCLI("package", "--catalog", catalog, "--out", out, "--arch", runtime.GOARCH, "--zip=false")
	}
	t.Run("module found from the catalog", func(t *testing.T) {
		defer func(s string) { sourceDir = s }(sourceDir)
		sourceDir = ""
		out := filepath.Join(outside, "dist", "a")
		code, stdout, stderr := pkg(catalog, out)
		if code != 0 || strings.Contains(stderr, "warning") {
			t.Fatalf("exit %d, %s%s", code, stdout, stderr)
		}
		progress := regexp.MustCompile(`^mcpsearch package: version \S+ \(from [^\n]+\)\nmcpsearch package: compiling bootstrap for linux/\w+\.\.\. \d+\.\ds\nmcpsearch package: building the index of \S+\.\.\. \d+\.\ds\nmcpsearch package: writing THIRD_PARTY_NOTICES\.\.\. \d+\.\ds\n$`)
		if !progress.MatchString(stderr) {
			t.Errorf("stderr %q: want the version and where it came from, then a line for each step, with its time", stderr)
		}
		if _, err := os.Stat(filepath.Join(out, "bootstrap")); err != nil {
			t.Error(err)
		}
		if lib, err := librarydata.Library(); err != nil || !strings.Contains(stdout, "requests (library "+lib.Version()+"): ") {
			t.Errorf("stdout %q (%v): want the coverage line, the library on by default", stdout, err)
		}
		if m, err := index.Verify(filepath.Join(out, "index")); err != nil || m.Library == "" {
			t.Errorf("artifact's manifest: library %q (%v), want the library's version", m.Library, err)
		}
	})
	t.Run("module found from the binary, stdio upstreams named", func(t *testing.T) {
		out := filepath.Join(outside, "dist", "b")
		code, stdout, stderr := pkg(local, out)
		if code != 0 {
			t.Fatalf("exit %d, %s%s", code, stdout, stderr)
		}
		if !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "files") || strings.Contains(stderr, "web") {
			t.Errorf("stderr %q: want a warning naming files (stdio) and not web (streamable-http)", stderr)
		}
	})
	t.Run("module not found", func(t *testing.T) {
		defer func(s string) { sourceDir = s }(sourceDir)
		sourceDir = ""
		out := filepath.Join(outside, "new", "search")
		code, _, stderr := pkg(local, out)
		if code != 1 || !strings.Contains(stderr, "go.mod") {
			t.Errorf("got exit %d %q, want 1 saying which go.mod is missing", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(outside, "new")); !os.IsNotExist(err) {
			t.Errorf("a failed package left %s behind (%v)", filepath.Join(outside, "new"), err)
		}
	})
}

// TestDocExamplesWriteIgnoredPaths: the examples of the docs write their
// catalogs, bundles and artifacts where .gitignore keeps them out of the
// repository.
func TestDocExamplesWriteIgnoredPaths(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		// The checkout is a git clone; only git answers what .gitignore
		// ignores, so a machine without it cannot check this.
		t.Fatalf("git is not on PATH (apt-get install git): %v", err)
	}
	outFlag := regexp.MustCompile(`mcpsearch (?:crawl|build|package)\b[^\n` + "`" + `#]*?--out ([^\s` + "`" + `]+)`)
	var paths []string
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		for _, m := range outFlag.FindAllStringSubmatch(string(data), -1) {
			if p := m[1]; p != strings.ToUpper(p) && !strings.HasPrefix(p, "$") && !strings.HasPrefix(p, `"`) {
				paths = append(paths, p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no mcpsearch crawl, build or package example with --out found in the docs")
	}
	for _, p := range paths {
		cmd := exec.Command("git", "check-ignore", "--no-index", "-q", p)
		cmd.Dir = repoRoot
		if err := cmd.Run(); err != nil {
			t.Errorf("a doc example writes %s, which .gitignore does not cover (git check-ignore: %v)", p, err)
		}
	}
}
