package requests

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestOwnRequests: an item's own text gives its name's words, its title
// and its description's first sentence, each once, bounded.
func TestOwnRequests(t *testing.T) {
	t.Parallel()
	it := &catalog.Item{Label: "approveExpense_report", Title: "Approve expense report",
		Description: "Mark a pending expense report as accepted. Only managers may call it."}
	got := OwnRequests(it)
	want := []string{"approve expense report", "Mark a pending expense report as accepted"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("OwnRequests = %q, want %q (the title repeats the name's words: once)", got, want)
	}
	long := &catalog.Item{Label: "x", Description: strings.Repeat("word ", 100)}
	got = OwnRequests(long)
	if len(got) != 2 || len(strings.Fields(got[1])) != ownSentenceWords {
		t.Errorf("a long description gives %q, want its first %d words", got, ownSentenceWords)
	}
	huge := &catalog.Item{Description: strings.Repeat("é", 2000)}
	got = OwnRequests(huge)
	if len(got) != 1 || len(got[0]) > ownRequestBytes || len(got[0]) < ownRequestBytes-1 || !strings.HasPrefix(huge.Description, got[0]) {
		t.Errorf("a description of one 4,000-byte word gives %d requests (%d bytes), want one of at most %d bytes, cut at a rune", len(got), len(strings.Join(got, "")), ownRequestBytes)
	}
	if got := OwnRequests(&catalog.Item{}); len(got) != 0 {
		t.Errorf("an item of no text gives %q, want none", got)
	}
}

// TestOwnTextIsNotAsked: an item without written requests has its own
// text as requests, found by a search as written ones are, and marked so
// that it does not count as asked.
func TestOwnTextIsNotAsked(t *testing.T) {
	t.Parallel()
	its := []catalog.Item{
		{Kind: ext.KindTool, Name: "crm__add_lead", Label: "add_lead", Requests: []string{"add a new lead to the pipeline"}},
		{Kind: ext.KindTool, Name: "crm__archive_lead", Label: "archive_lead", Description: "Archive a lead that went cold."},
		{Kind: ext.KindTool, Name: "crm__nothing"},
	}
	x := build(t, its)
	if x.Own(0) || !x.Own(1) || x.Own(2) {
		t.Errorf("Own = %v %v %v, want false (written) true (its own text) false (no text)", x.Own(0), x.Own(1), x.Own(2))
	}
	if got := x.Of(1); strings.Join(got, "|") != "archive lead|Archive a lead that went cold" {
		t.Errorf("the own requests of archive_lead: %q", got)
	}
	v := x.View(ext.KindTool, nil)
	if v.Asked() != 1 || v.Own() != 1 || x.ItemsWithRequests(ext.KindTool) != 1 || x.ItemsWithOwnText(ext.KindTool) != 1 {
		t.Errorf("asked %d, own %d (index: %d, %d), want 1 and 1", v.Asked(), v.Own(), x.ItemsWithRequests(ext.KindTool), x.ItemsWithOwnText(ext.KindTool))
	}
	ms, err := x.Search(ext.KindTool, v, 1<<20).Best(context.Background(), terms("archive", "cold"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Pos != 1 {
		t.Errorf("archive cold: matches %+v, want archive_lead's own text", ms)
	}
}

// TestNoOwnTextWithoutWrittenRequests: a kind no item of which carries
// written requests gets no own text: nothing would read it, and the file
// would grow for nothing.
func TestNoOwnTextWithoutWrittenRequests(t *testing.T) {
	t.Parallel()
	x := build(t, []catalog.Item{
		{Kind: ext.KindTool, Name: "crm__archive_lead", Label: "archive_lead", Description: "Archive a lead that went cold."},
		{Kind: ext.KindPrompt, Name: "crm__summary", Label: "summary", Requests: []string{"summarise a lead"}},
	})
	if x.Own(0) || x.Count(ext.KindTool) != 0 {
		t.Errorf("a tool beside no tool with written requests: own %v, %d tool requests; want none", x.Own(0), x.Count(ext.KindTool))
	}
}
