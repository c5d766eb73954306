package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestHelp: asking for help is not a mistake: the usage goes to standard
// output and the exit code is 0. No command, or an unknown one, is a
// mistake: the usage goes to standard error and the exit code is 2.
func TestHelp(t *testing.T) {
	for _, test := range []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "usage: mcpsearch-lab <command>"},
		{[]string{"-h"}, "usage: mcpsearch-lab <command>"},
		{[]string{"help"}, "usage: mcpsearch-lab <command>"},
		{[]string{"eval", "-h"}, "-queries"},
		{[]string{"bench", "help"}, "coldstart"},
		{[]string{"bench", "load", "--help"}, "-clients"},
	} {
		code, out, errOut := runCLI(test.args...)
		if code != 0 || !strings.Contains(out, test.want) || errOut != "" {
			t.Errorf("%v: got exit %d, stdout %q, stderr %q; want 0, stdout containing %q, nothing on stderr", test.args, code, out, errOut, test.want)
		}
	}
	for _, args := range [][]string{nil, {"frobnicate"}, {"build"}, {"eval", "--frobnicate"}} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: mcpsearch-lab") {
			t.Errorf("%v: got exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", args, code, out, errOut)
		}
	}
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
	_, usage, _ := runCLI("--help")
	_, benchUsage, _ := runCLI("bench", "help")
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !regexp.MustCompile(`(?m)^  ` + name + ` +\S`).MatchString(usage) {
			t.Errorf("usage lacks a line for %s:\n%s", name, usage)
		}
		if !strings.Contains(string(src), "//\tmcpsearch-lab "+name+" ") {
			t.Errorf("the package doc in main.go lacks mcpsearch-lab %s", name)
		}
	}
	for _, b := range benches {
		if b.summary == "" {
			continue // a child process of another bench
		}
		if !strings.Contains(usage, b.name) || !regexp.MustCompile(`(?m)^  `+b.name+` +\S`).MatchString(benchUsage) {
			t.Errorf("usage or bench usage lacks bench %s:\n%s\n%s", b.name, usage, benchUsage)
		}
		if !strings.Contains(string(src), "//\tmcpsearch-lab bench "+b.name+" ") {
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
	flagLine := regexp.MustCompile(`(?m)^  (-\S+) (.+)$`)
	for name, args := range helps {
		code, out, errOut := runCLI(args...)
		if code != 0 || !strings.Contains(out, "flags:") {
			t.Errorf("%s --help: exit %d, %s%s", name, code, out, errOut)
			continue
		}
		for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
			if strings.ContainsAny(m[2], " `") {
				t.Errorf("%s --help: flag %s takes %q, want one word", name, m[1], m[2])
			}
		}
	}
}
