package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	"github.com/mcpsearch/mcpsearch/index"
)

// TestToolVocabIsTheDistilledTable: the embedded products table is what
// the products command distils from the embedded library, byte for byte:
// a library update fails here until the table is distilled again.
func TestToolVocabIsTheDistilledTable(t *testing.T) {
	if stdout := checkRegenerates(t, toolVocabFile, "toolvocab"); !strings.Contains(stdout, "products") {
		t.Errorf("output %q names no products", stdout)
	}
}

// TestToolVocabWords: a word of a server's name is a product unless the
// tool names of more than foreignUse other servers use it; a scope (a
// publisher's handle) names nothing; the words are written as the index's
// analyzer reads them (sheets: spreadsheet, its synonym).
func TestToolVocabWords(t *testing.T) {
	tool := func(names ...string) []library.Item {
		var out []library.Item
		for _, n := range names {
			out = append(out, library.Item{Kind: ext.KindTool, Name: n})
		}
		return out
	}
	files := []*library.File{
		{Identity: "@kai/trello-mcp", InfoName: "trello", Items: tool("trello_create_card", "get_chart")},
		{Identity: "chart-server", Items: tool("create_chart")},
		{Identity: "@acme/sheets", Items: tool("make_chart", "sheets_read")},
	}
	got, objects := toolVocabWords(files, 1, 2)
	has := func(terms []string, word string) bool { return slices.Contains(terms, index.Terms(word)[0]) }
	for _, want := range []string{"trello", "sheets"} {
		if !has(got, want) {
			t.Errorf("products %v lack %s", got, want)
		}
	}
	for _, not := range []string{"chart", "kai", "acme", "create"} {
		if has(got, not) {
			t.Errorf("products %v hold %s", got, not)
		}
	}
	if !has(objects, "chart") || !has(objects, "create") || has(objects, "card") || has(objects, "trello") {
		t.Errorf("objects %v: want chart and create (named by 2 servers' tools), not card (1) nor trello (a product)", objects)
	}
	if again, _ := toolVocabWords(files, 2, 2); strings.Join(again, " ") == strings.Join(got, " ") {
		t.Errorf("--foreign-use 2 gives the products of 1 (%v): chart is used by two other servers", got)
	}
	for _, flag := range []string{"--foreign-use", "--min-servers"} {
		if code, _, stderr := runCLI("toolvocab", flag, "-1", "--out", filepath.Join(t.TempDir(), "p.txt")); code == 0 || !strings.Contains(stderr, flag) {
			t.Errorf("toolvocab %s -1: exit %d, %q; want a failure naming the flag", flag, code, stderr)
		}
	}
}
