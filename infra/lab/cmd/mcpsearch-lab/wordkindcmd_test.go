package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	"github.com/mcpsearch/mcpsearch/infra/lab/train"
)

// TestWordKindModelIsTheTrainedOne: the embedded word-kind model is what
// the wordkind command trains on the embedded library, byte for byte: a
// library update fails here until the model is trained again.
func TestWordKindModelIsTheTrainedOne(t *testing.T) {
	if stdout := checkRegenerates(t, train.WordKindModelFile, "wordkind"); !strings.Contains(stdout, "tool words") {
		t.Errorf("output %q says nothing of what it trained on", stdout)
	}
}

// TestWordKindWords: the words of server names and of the tool names of
// enough servers are tool words; a word of enough requests is said in
// passing unless a name or a description uses it; short words are left
// out.
func TestWordKindWords(t *testing.T) {
	files := []*library.File{
		{Identity: "@kai/trello-mcp", Items: []library.Item{
			{Kind: ext.KindTool, Name: "create_card", Description: "Create a card for the board.", Requests: []string{"add a card for my birthday party", "new card: dentist on friday"}},
		}},
		{Identity: "deck-server", Items: []library.Item{
			{Kind: ext.KindTool, Name: "createDeck", Description: "Create a deck.", Requests: []string{"a deck for the birthday", "make a deck about the party"}},
			{Kind: ext.KindResource, Name: "file:///board", Requests: []string{"the party board"}},
		}},
	}
	tool, said := wordKindWords(files, 2, 2)
	for _, w := range []string{"trello", "mcp", "deck", "server", "create"} {
		if !slices.Contains(tool, w) {
			t.Errorf("tool words %v lack %s", tool, w)
		}
	}
	for _, w := range []string{"card", "kai", "on"} {
		if slices.Contains(tool, w) {
			t.Errorf("tool words %v hold %s", tool, w)
		}
	}
	if want := []string{"birthday", "party"}; !slices.Equal(said, want) {
		t.Errorf("said in passing %v, want %v (dentist: one request; card, board: named or described)", said, want)
	}
	for _, flag := range []string{"--min-servers", "--min-requests"} {
		if code, _, stderr := runCLI("wordkind", flag, "0", "--out", filepath.Join(t.TempDir(), "m.json")); code == 0 || !strings.Contains(stderr, flag) {
			t.Errorf("wordkind %s 0: exit %d, %q; want a failure naming the flag", flag, code, stderr)
		}
	}
}
