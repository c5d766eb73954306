package text

import (
	"strings"
	"unicode"
)

// SplitClauses splits text into the clauses of the steps of a task
// ("find a flight, then book a hotel and add it to my calendar"): into
// sentences, then each after its commas and before the words that join
// steps ("and", "then", "finally" …), which belong to no clause.
func SplitClauses(text string) []string {
	var out []string
	for _, s := range sentences(text) {
		out = append(out, splitClause(s)...)
	}
	return out
}

// clauseBreaks are the words that join the steps of a task; a clause ends
// before them and they belong to none.
var clauseBreaks = map[string]bool{"and": true, "then": true, "finally": true, "afterwards": true, "next": true}

// sentences splits text after . ! ? ; or : followed by a space or the end,
// and at line breaks; a dot inside a word (a file name, a host, a version)
// does not end a sentence.
func sentences(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	for i, r := range rs {
		end := r == '\n'
		if strings.ContainsRune(".!?;:", r) {
			end = i+1 == len(rs) || unicode.IsSpace(rs[i+1])
		}
		if end {
			out = appendTrimmed(out, string(rs[start:i]))
			start = i + 1
		}
	}
	return appendTrimmed(out, string(rs[start:]))
}

// splitClause splits a sentence after commas and before clauseBreaks.
func splitClause(s string) []string {
	var out, cur []string
	for _, w := range strings.Fields(s) {
		if clauseBreaks[strings.ToLower(strings.Trim(w, ",\"'()"))] {
			out, cur = appendTrimmed(out, strings.Join(cur, " ")), nil
			continue
		}
		cur = append(cur, w)
		if strings.HasSuffix(w, ",") {
			out, cur = appendTrimmed(out, strings.Join(cur, " ")), nil
		}
	}
	return appendTrimmed(out, strings.Join(cur, " "))
}

func appendTrimmed(out []string, s string) []string {
	if s = strings.Trim(s, " \t\r\n,"); s != "" {
		out = append(out, s)
	}
	return out
}
