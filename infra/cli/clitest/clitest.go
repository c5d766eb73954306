// Package clitest is what the tests of the two command-line programs
// (infra/cmd/mcpsearch and infra/lab/cmd/mcpsearch-lab) share: running a
// program's run function in process, files written and read for a test,
// and the checks every program's help must pass. Only tests import it.
package clitest

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Run is a program's entry point: it runs the command line args and
// returns the exit code (package cli).
type Run func(args []string, stdout, stderr io.Writer) int

// Call runs run with args and returns its exit code and what it wrote to
// standard output and standard error.
func Call(run Run, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// WriteFile writes content to path, failing the test if it cannot.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns the content of path, failing the test if it cannot.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Help is a command line that asks for help and what its standard output
// holds.
type Help struct {
	Args []string
	Want string
}

// CheckHelp checks that asking for help is not a mistake (the usage on
// standard output, nothing on standard error, exit 0: each of helps) and
// that each of mistakes is one (nothing on standard output, the program's
// usage, "usage: " and its name, on standard error, exit 2).
func CheckHelp(t *testing.T, run Run, program string, helps []Help, mistakes [][]string) {
	t.Helper()
	for _, test := range helps {
		code, out, errOut := Call(run, test.Args...)
		if code != 0 || !strings.Contains(out, test.Want) || errOut != "" {
			t.Errorf("%v: got exit %d, stdout %q, stderr %q; want 0, stdout containing %q, nothing on stderr", test.Args, code, out, errOut, test.Want)
		}
	}
	for _, args := range mistakes {
		code, out, errOut := Call(run, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: "+program) {
			t.Errorf("%v: got exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", args, code, out, errOut)
		}
	}
}

// CheckFlagArgumentNames checks that the help of each of helps (a name
// and the command line that asks for it) names each flag's argument with
// one word (DIR, string): a back-quoted phrase in a flag's usage becomes
// that name (flag.UnquoteUsage).
func CheckFlagArgumentNames(t *testing.T, run Run, helps map[string][]string) {
	t.Helper()
	flagLine := regexp.MustCompile(`(?m)^  (-\S+) (.+)$`)
	for name, args := range helps {
		code, out, errOut := Call(run, args...)
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

// CheckUsageNames checks that the program's usage has a line for each of
// names and that the package doc of its main.go (in the test's
// directory) names each as "//\t<program> <name> ".
func CheckUsageNames(t *testing.T, run Run, program string, names []string) {
	t.Helper()
	_, usage, _ := Call(run, "--help")
	src := ReadFile(t, "main.go")
	for _, name := range names {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +\S`).MatchString(usage) {
			t.Errorf("usage lacks a line for %s:\n%s", name, usage)
		}
		if !strings.Contains(src, "//\t"+program+" "+name+" ") {
			t.Errorf("the package doc in main.go lacks %s %s", program, name)
		}
	}
}
