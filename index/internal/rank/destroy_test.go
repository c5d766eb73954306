package rank

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// TestDestroyersNotFirstUnasked: a tool whose name destroys is never
// first for a request that asks nothing destructive — the best tool of
// the window that does not destroy goes first, the others keep their
// order —, and is first as ranked for a request that asks for it.
func TestDestroyersNotFirstUnasked(t *testing.T) {
	window := func() []Candidate {
		return []Candidate{
			{ID: "t/0", Label: "delete-feature-flag", Words: []string{"delet", "featur", "flag"}, BM25: 3},
			{ID: "t/1", Label: "pg_kill", Words: []string{"pg", "kill"}, BM25: 2.9},
			{ID: "t/2", Label: "update-feature-flag", Words: []string{"updat", "featur", "flag"}, BM25: 1},
			{ID: "t/3", Label: "get-feature-flag", Words: []string{"get", "featur", "flag"}, BM25: 0.9},
		}
	}
	for _, test := range []struct {
		query string
		terms []string
		off   rules.Set
		first string
	}{
		{"switch off flag in production", []string{"switch", "off", "flag", "product"}, 0, "update-feature-flag"},
		{"delete the flag", []string{"delet", "flag"}, 0, "delete-feature-flag"},
		{"cancel the flag", []string{"cancel", "flag"}, 0, "pg_kill"},                                       // asked: as ranked (a cancel clashes with a delete)
		{"lösche die Flagge", []string{"losch", "die", "flagg", "delet", "flag"}, 0, "delete-feature-flag"}, // asked by the gloss
		{"switch off flag in production", []string{"switch", "off", "flag", "product"}, rules.Set(0).Without(rules.DestroyAsked), "delete-feature-flag"},
	} {
		cands := window()
		Rerank(NewQuery(Read(test.query), test.terms, test.off), cands, len(cands))
		if got := cands[0].Label; got != test.first {
			t.Errorf("%q (off %v): got %s first, want %s", test.query, test.off, got, test.first)
		}
	}
}

func TestDestroys(t *testing.T) {
	for name, want := range map[string]bool{
		"delete-feature-flag": true, "heroku__pg_kill": true, "drop-collection": true, "revokeToken": true,
		"terminate_instance": true, "purge_cache": true, "VPS_deleteProjectV1": true,
		"open_terminal": false, "dropbox_upload": false, "update-feature-flag": false, "create_issue": false,
	} {
		if got := Destroys(name); got != want {
			t.Errorf("Destroys(%q): got %v, want %v", name, got, want)
		}
	}
}
