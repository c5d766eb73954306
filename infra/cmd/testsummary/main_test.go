package main

import (
	"strings"
	"testing"
)

// A stream as go test -json writes it: one pass, one fail, one skip with a
// reason, a package line and a package that failed to build.
const stream = `{"Action":"start","Package":"example/a"}
{"Action":"run","Package":"example/a","Test":"TestPass"}
{"Action":"output","Package":"example/a","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"pass","Package":"example/a","Test":"TestPass","Elapsed":3.5}
{"Action":"run","Package":"example/a","Test":"TestFail"}
{"Action":"output","Package":"example/a","Test":"TestFail","Output":"    a_test.go:9: got 1, want 2\n"}
{"Action":"fail","Package":"example/a","Test":"TestFail","Elapsed":0}
{"Action":"run","Package":"example/a","Test":"TestNeedsNode"}
{"Action":"output","Package":"example/a","Test":"TestNeedsNode","Output":"=== RUN   TestNeedsNode\n"}
{"Action":"output","Package":"example/a","Test":"TestNeedsNode","Output":"    a_test.go:20: node is not installed: run npm ci --prefix infra/testenv/interop\n"}
{"Action":"output","Package":"example/a","Test":"TestNeedsNode","Output":"--- SKIP: TestNeedsNode (0.00s)\n"}
{"Action":"skip","Package":"example/a","Test":"TestNeedsNode","Elapsed":0}
{"Action":"output","Package":"example/a","Output":"FAIL\texample/a\t0.01s\n"}
{"Action":"fail","Package":"example/a","Elapsed":0.01}
{"ImportPath":"example/b","Action":"build-output","Output":"b.go:3:1: syntax error\n"}
{"ImportPath":"example/b","Action":"build-fail"}
`

func TestSummaryCountsAndExplainsSkips(t *testing.T) {
	s := newSummary()
	var out strings.Builder
	if err := s.read(strings.NewReader(stream), &out); err != nil {
		t.Fatal(err)
	}
	s.print(&out)
	got := out.String()
	for _, want := range []string{
		"--- FAIL: TestFail (example/a)\n    a_test.go:9: got 1, want 2",
		"FAIL\texample/a\t0.01s",
		"example/a TestNeedsNode\n      a_test.go:20: node is not installed: run npm ci --prefix infra/testenv/interop",
		"b.go:3:1: syntax error",
		"\nslowest 3 tests (seconds; parallel tests overlap):\n     3.50  example/a TestPass\n     0.00  example/a TestFail\n",
		"\ntests: 1 passed, 1 failed, 1 skipped\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "=== RUN") {
		t.Errorf("summary repeats go test's RUN lines:\n%s", got)
	}
}

func TestSkipReasonWithoutOutput(t *testing.T) {
	if got := skipReason([]string{"=== RUN   TestX\n", "--- SKIP: TestX (0.00s)\n"}); got != "(no reason given)" {
		t.Errorf("skipReason = %q", got)
	}
}

// TestSkipReasonIgnoresStrayOutput: a line the code under test printed
// after t.Skip's (a JSON log line on standard output) is not the reason.
func TestSkipReasonIgnoresStrayOutput(t *testing.T) {
	lines := []string{
		"=== RUN   TestNeedsNode\n",
		"    interop_test.go:40: node is not installed: apt-get install nodejs\n",
		`{"time":"2026-12-02T02:00:00Z","level":"INFO","msg":"upstream closed"}` + "\n",
		"--- SKIP: TestNeedsNode (0.00s)\n",
	}
	if got, want := skipReason(lines), "interop_test.go:40: node is not installed: apt-get install nodejs"; got != want {
		t.Errorf("skipReason = %q, want %q", got, want)
	}
}
