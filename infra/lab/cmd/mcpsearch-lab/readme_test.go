package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's token figures from today's measurement")

// TestReadmeTokenFigures: the token figures of the README's "Why" — its
// table row and the sentence before it — are what `mcpsearch-lab bench tokens
// --catalog functions/search/catalog` measures today (the same code,
// measureTokens). With -update the test writes them into the README.
func TestReadmeTokenFigures(t *testing.T) {
	row, err := measureTokens(filepath.Join(repoRoot, "functions", "search", "catalog"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repoRoot, "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, fig := range readmeTokenFigures(row) {
		loc := fig.pattern.FindStringSubmatchIndex(readme)
		if loc == nil {
			t.Errorf("README.md: no %s (%s)", fig.what, fig.pattern)
			continue
		}
		// Right to left, so that a replaced figure leaves the offsets
		// of those before it.
		for i := len(fig.want) - 1; i >= 0; i-- {
			start, end := loc[2+2*i], loc[3+2*i]
			if got := readme[start:end]; got != fig.want[i] {
				if *update {
					readme = readme[:start] + fig.want[i] + readme[end:]
					continue
				}
				t.Errorf("README.md: the %s says %s where bench tokens measures %s (go test ./infra/lab/cmd/mcpsearch-lab -run TestReadmeTokenFigures -update rewrites it)",
					fig.what, got, fig.want[i])
			}
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeFigure is a piece of the README, found by pattern, whose groups
// are figures that should read want.
type readmeFigure struct {
	what    string
	pattern *regexp.Regexp
	want    []string
}

// readmeTokenFigures are the README's token figures for the measured row
// of the default catalog.
func readmeTokenFigures(row tokenRow) []readmeFigure {
	listTokens, searchTokens := row.listBytes/bytesPerToken, row.searchBytes/bytesPerToken
	reduction := 100 * (1 - float64(row.searchBytes)/float64(row.listBytes))
	cell := `\s*([\d,.%]+)\s*\|`
	return []readmeFigure{
		{"table row", regexp.MustCompile(`(?m)^\| default catalog \((\d+) servers\) \|` + strings.Repeat(cell, 6) + `$`), []string{
			fmt.Sprint(row.directory.servers), commas(row.tools), commas(row.listBytes), commas(listTokens),
			commas(row.searchBytes), commas(searchTokens), fmt.Sprintf("%.2f%%", reduction)}},
		{"sentence on the catalog", regexp.MustCompile(`The (\d+) published MCP servers bundled here as the default\s+catalog hold ([\d,]+) tools`),
			[]string{fmt.Sprint(row.directory.servers), commas(row.tools)}},
		{"sentence on tokens", regexp.MustCompile(`about ([\d.]+) million\s+tokens of context, while one ` + "`tools/search`" + ` page of five results costs about\s+(\S+) thousand`),
			[]string{fmt.Sprintf("%.1f", float64(listTokens)/1e6), numberWord(int(float64(searchTokens)/1000 + 0.5))}},
	}
}

// commas writes n with a comma between each group of three digits.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// numberWord is n in words, for 1 to 10, else in digits.
func numberWord(n int) string {
	words := []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n >= 1 && n <= len(words) {
		return words[n-1]
	}
	return fmt.Sprint(n)
}
