package text

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDocFiguresOfTheChineseTables: the sizes that index/README.md and
// zhgloss.NOTICE give of the Chinese tables are the tables' own: the
// headwords of zhgloss.txt and the pairs of zhtrad.txt.
func TestDocFiguresOfTheChineseTables(t *testing.T) {
	headwords := bytes.Count(skipComments([]byte(glossData)), []byte{'\n'})
	pairs := utf8.RuneCountInString(strings.TrimSpace(tradData)) / 2
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range []struct {
		doc, text string
		pattern   *regexp.Regexp
		want      int
	}{
		{"index/README.md", string(readme), regexp.MustCompile(`zhgloss\.txt` + "`" + `, ([\d,]+) words`), headwords},
		{"zhgloss.NOTICE", zhglossNotice, regexp.MustCompile(`holds (\d+) simplified headwords`), headwords},
		{"zhgloss.NOTICE", zhglossNotice, regexp.MustCompile(`pairs (\d+) traditional\s+characters`), pairs},
	} {
		m := test.pattern.FindStringSubmatch(test.text)
		if m == nil {
			t.Errorf("%s: no %s", test.doc, test.pattern)
			continue
		}
		if got, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); got != test.want {
			t.Errorf("%s says %q, the table holds %d", test.doc, m[0], test.want)
		}
	}
}
