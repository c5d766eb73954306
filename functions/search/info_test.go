package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCommandLine: --notices prints the licences of the data the binary
// embeds and names the Go modules it links; --version the version; any
// other argument is refused with the usage (exit 2), before anything is
// configured or served.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		args    []string
		code    int
		want    []string // on stdout, or on stderr when code is not 0
		notWant string
	}{
		{[]string{"--notices"}, 0, []string{"Princeton University", "GRAYPE Systems", "Attribution-ShareAlike 4.0", "github.com/blevesearch/bleve/v2 v2.5.7", "github.com/mark3labs/mcp-go "}, ""},
		{[]string{"--version"}, 0, []string{"mcpsearch search function " + version, "index format"}, "Princeton"},
		{[]string{"--help"}, 0, []string{"--notices", "--version"}, ""},
		{[]string{"--serve"}, 2, []string{`unknown argument "--serve"`, "usage: search"}, ""},
		{[]string{"--notices", "extra"}, 2, []string{"usage: search"}, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := commandLine(test.args, &stdout, &stderr)
		out := stdout.String()
		if test.code != 0 {
			out = stderr.String()
		}
		if code != test.code {
			t.Errorf("%v: got exit %d, want %d (stdout %q, stderr %q)", test.args, code, test.code, stdout.String(), stderr.String())
		}
		for _, w := range test.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%.300s", test.args, w, out)
			}
		}
		if test.notWant != "" && strings.Contains(out, test.notWant) {
			t.Errorf("%v: output holds %q", test.args, test.notWant)
		}
	}
}
