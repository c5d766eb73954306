package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestUsageColumns: every summary starts in one column, apart from the
// longest command name too ("requests" once ran into its summary).
func TestUsageColumns(t *testing.T) {
	commands := map[string]Command{"build": {Summary: "build it"}, "requests": {Summary: "the requests"}, "go": {Summary: "go on"}}
	var out bytes.Buffer
	Usage("prog", commands, &out)
	col := -1
	for _, line := range strings.Split(out.String(), "\n") {
		name, ok := strings.CutPrefix(line, "  ")
		if !ok {
			continue
		}
		fields := strings.Fields(name)
		summary := strings.Index(line, commands[fields[0]].Summary)
		if summary < 0 {
			t.Fatalf("line %q lacks its summary", line)
		}
		if col >= 0 && summary != col {
			t.Errorf("summaries start in columns %d and %d:\n%s", col, summary, out.String())
		}
		col = summary
		if gap := line[2+len(fields[0]) : summary]; len(gap) < 2 {
			t.Errorf("line %q: %d space(s) between name and summary, want at least 2", line, len(gap))
		}
	}
	if col < 0 {
		t.Fatalf("no command lines in:\n%s", out.String())
	}
}
