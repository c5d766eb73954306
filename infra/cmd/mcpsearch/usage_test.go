package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/cli/clitest"
)

// TestFlagArgumentNamesAreWords: every command's help names each flag's
// argument with one word (DIR, string): a back-quoted phrase in a flag's
// usage becomes that name (flag.UnquoteUsage), as `mcpsearch build` did
// in eval's help ("-catalog mcpsearch build").
func TestFlagArgumentNamesAreWords(t *testing.T) {
	helps := map[string][]string{}
	for name := range commands {
		if name != "requests" { // its subcommands have the flags
			helps[name] = []string{name, "--help"}
		}
	}
	for _, sub := range []string{"coverage", "draft", "apply"} {
		helps["requests "+sub] = []string{"requests", sub, "--help"}
	}
	clitest.CheckFlagArgumentNames(t, run, helps)
}

// TestSearchFlagsAfterTheQuery: a flag after the query's words is a flag,
// not words of the query; an unknown one is refused; after -- every word
// is a word of the query.
func TestSearchFlagsAfterTheQuery(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if code, out, errOut := runCLI("build", "--catalog", testCatalog, "--out", dir); code != 0 {
		t.Fatalf("build: exit %d, %s%s", code, out, errOut)
	}
	code, out, errOut := runCLI("search", "--index", dir, "weather", "forecast", "--limit", "1")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 2 || !strings.Contains(lines[1], "weather__get_forecast") {
		t.Errorf("--limit 1 after the query: got exit %d, %q%s; want the header and one result, weather__get_forecast", code, out, errOut)
	}
	code, out, errOut = runCLI("search", "--index", dir, "weather", "--frobnicate")
	if code != 2 || out != "" || !strings.Contains(errOut, "-frobnicate") {
		t.Errorf("unknown flag after the query: got exit %d, %q%q; want 2 naming -frobnicate", code, out, errOut)
	}
	code, out, errOut = runCLI("search", "--index", dir, "--", "-zebra", "--xylophone")
	if code != 0 || !strings.Contains(out, "no tools") {
		t.Errorf("words after --: got exit %d, %q%s; want them searched (no tools match)", code, out, errOut)
	}
}
