package main

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/cli/clitest"
)

// TestHelp: asking for help is not a mistake: the usage goes to standard
// output and the exit code is 0. No command, or an unknown one, is a
// mistake: the usage goes to standard error and the exit code is 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, run, program, []clitest.Help{
		{Args: []string{"--help"}, Want: "usage: mcpsearch-lab <command>"},
		{Args: []string{"-h"}, Want: "usage: mcpsearch-lab <command>"},
		{Args: []string{"help"}, Want: "usage: mcpsearch-lab <command>"},
		{Args: []string{"eval", "-h"}, Want: "-queries"},
		{Args: []string{"bench", "help"}, Want: "coldstart"},
		{Args: []string{"bench", "load", "--help"}, Want: "-clients"},
	}, [][]string{nil, {"frobnicate"}, {"build"}, {"eval", "--frobnicate"}})
}

// TestCLIErrors: a mistake in the command line exits 2 naming it.
func TestCLIErrors(t *testing.T) {
	for _, test := range []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "bench tokens"},
		{[]string{"wordvec"}, "--package is required"},
		{[]string{"holdout"}, "--catalog, --out and --queries are required"},
		{[]string{"eval"}, "--queries is required"},
	} {
		code, _, errOut := runCLI(test.args...)
		if code != 2 || !strings.Contains(errOut, test.want) {
			t.Errorf("%v: got exit %d %q, want 2 containing %q", test.args, code, errOut, test.want)
		}
	}
}

// TestUsageListsEveryCommand: the command list and the package doc name
// every command and every measurement of bench.
func TestUsageListsEveryCommand(t *testing.T) {
	clitest.CheckUsageNames(t, run, program, slices.Sorted(maps.Keys(commands)))
	_, usage, _ := runCLI("--help")
	_, benchUsage, _ := runCLI("bench", "help")
	src := readFile(t, "main.go")
	for _, b := range benches {
		if b.summary == "" {
			continue // a child process of another bench
		}
		if !strings.Contains(usage, b.name) || !regexp.MustCompile(`(?m)^  `+b.name+` +\S`).MatchString(benchUsage) {
			t.Errorf("usage or bench usage lacks bench %s:\n%s\n%s", b.name, usage, benchUsage)
		}
		if !strings.Contains(src, "//\tmcpsearch-lab bench "+b.name+" ") {
			t.Errorf("the package doc in main.go lacks mcpsearch-lab bench %s", b.name)
		}
	}
}

// TestFlagArgumentNamesAreWords: every command's help names each flag's
// argument with one word (DIR, string): a back-quoted phrase in a flag's
// usage becomes that name (flag.UnquoteUsage).
func TestFlagArgumentNamesAreWords(t *testing.T) {
	helps := map[string][]string{}
	for name := range commands {
		if name != "bench" { // its measurements have the flags
			helps[name] = []string{name, "--help"}
		}
	}
	for _, b := range benches {
		helps["bench "+b.name] = []string{"bench", b.name, "--help"}
	}
	clitest.CheckFlagArgumentNames(t, run, helps)
}
