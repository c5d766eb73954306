// Command testsummary runs `go test -json` and prints what a person wants
// to see of it: a line a package (as go test prints them), the output of
// every failed test, and at the end every skipped test with the reason it
// gave (so a skip is never silent), then one closing line:
//
//	tests: 812 passed, 0 failed, 8 skipped
//
// It exits with go test's status. `make test` runs it:
//
//	go run ./infra/cmd/testsummary [go test flags and packages]   (default ./...)
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run starts go test with args and summarises its event stream.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = []string{"./..."}
	}
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = stderr
	events, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "testsummary:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "testsummary: starting go test:", err)
		return 2
	}
	s := newSummary()
	if err := s.read(events, stdout); err != nil {
		fmt.Fprintln(stderr, "testsummary: reading go test's events:", err)
	}
	waitErr := cmd.Wait()
	s.print(stdout)
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit):
		return exit.ExitCode()
	case waitErr != nil:
		fmt.Fprintln(stderr, "testsummary: go test:", waitErr)
		return 2
	case s.failed > 0:
		return 1
	}
	return 0
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output and build-fail events
	Test       string
	Output     string
	Elapsed    float64
}

// summary gathers the counts, the skips and their reasons, and the output
// of each test until it ends.
type summary struct {
	passed, failed, skipped int
	skips                   []skip
	output                  map[string][]string // package + test -> output lines so far
	// slow are the top-level tests that took longest, so that a slow
	// suite names where its time goes.
	slow []timed
}

// timed is a top-level test and how long it ran.
type timed struct {
	name    string
	elapsed float64
}

// slowest is how many of the slowest tests the summary names.
const slowest = 10

type skip struct{ name, reason string }

func newSummary() *summary { return &summary{output: map[string][]string{}} }

// read consumes the event stream, writing package lines and failures to w
// as they happen.
func (s *summary) read(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(w, sc.Text()) // not an event: pass it on
			continue
		}
		s.take(e, w)
	}
	return sc.Err()
}

func (s *summary) take(e event, w io.Writer) {
	key := e.Package + " " + e.Test
	if e.ImportPath != "" {
		key = "build " + e.ImportPath
	}
	switch e.Action {
	case "output", "build-output":
		if e.Test == "" && e.Action == "output" {
			s.packageOutput(e, w)
			return
		}
		s.output[key] = append(s.output[key], e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			s.packageEnd(e, w)
			return
		}
		s.testEnd(e, key, w)
	case "build-fail":
		fmt.Fprint(w, strings.Join(s.output[key], ""))
		delete(s.output, key)
	}
}

// packageOutput prints go test's own package lines (ok, FAIL, no test
// files) and drops the rest (PASS, coverage noise) that -v would show.
func (s *summary) packageOutput(e event, w io.Writer) {
	line := e.Output
	if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "?") ||
		strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "# ") {
		fmt.Fprint(w, line)
		return
	}
	s.output[e.Package+" "] = append(s.output[e.Package+" "], line)
}

func (s *summary) packageEnd(e event, w io.Writer) {
	key := e.Package + " "
	if e.Action == "fail" {
		// A package that fails outside any test (a panic in TestMain, a
		// build error, a timeout) shows what it printed.
		fmt.Fprint(w, strings.Join(s.output[key], ""))
	}
	delete(s.output, key)
}

func (s *summary) testEnd(e event, key string, w io.Writer) {
	lines := s.output[key]
	delete(s.output, key)
	if !strings.Contains(e.Test, "/") {
		s.slow = append(s.slow, timed{e.Package + " " + e.Test, e.Elapsed})
	}
	switch e.Action {
	case "pass":
		s.passed++
	case "fail":
		s.failed++
		fmt.Fprintf(w, "--- FAIL: %s (%s)\n%s", e.Test, e.Package, strings.Join(lines, ""))
	case "skip":
		s.skipped++
		s.skips = append(s.skips, skip{name: e.Package + " " + e.Test, reason: skipReason(lines)})
	}
}

// skipReason is what the test said when it skipped: the last line it
// wrote through testing (t.Skip's "file.go:12: reason"), not a line that
// the code under test printed to standard output (a log line) after it;
// failing any such line, its last output line but for go test's own
// "--- SKIP" and "=== RUN" lines.
func skipReason(lines []string) string {
	var said []string
	testingLine := -1
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		if testingOutput.MatchString(l) {
			testingLine = len(said)
		}
		said = append(said, t)
	}
	switch {
	case len(said) == 0:
		return "(no reason given)"
	case testingLine >= 0:
		return said[testingLine]
	}
	return said[len(said)-1]
}

// testingOutput is a line that t.Log, t.Skip and the like write: indented,
// then the file and line that called them.
var testingOutput = regexp.MustCompile(`^ +[^ :]+\.go:\d+: `)

func (s *summary) print(w io.Writer) {
	if len(s.skips) > 0 {
		sort.Slice(s.skips, func(i, j int) bool { return s.skips[i].name < s.skips[j].name })
		fmt.Fprintf(w, "\nskipped (%d): each says what it needs\n", len(s.skips))
		for _, sk := range s.skips {
			fmt.Fprintf(w, "  %s\n      %s\n", sk.name, sk.reason)
		}
	}
	s.printSlowest(w)
	fmt.Fprintf(w, "\ntests: %d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skipped)
}

// printSlowest names the slowest top-level tests, slowest first (ties by
// name).
func (s *summary) printSlowest(w io.Writer) {
	if len(s.slow) == 0 {
		return
	}
	sort.Slice(s.slow, func(i, j int) bool {
		if s.slow[i].elapsed != s.slow[j].elapsed {
			return s.slow[i].elapsed > s.slow[j].elapsed
		}
		return s.slow[i].name < s.slow[j].name
	})
	n := min(slowest, len(s.slow))
	fmt.Fprintf(w, "\nslowest %d tests (seconds; parallel tests overlap):\n", n)
	for _, t := range s.slow[:n] {
		fmt.Fprintf(w, "  %7.2f  %s\n", t.elapsed, t.name)
	}
}
