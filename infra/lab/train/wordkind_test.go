package train

import (
	"strings"
	"testing"
)

// TestWordKind: the model trained on a few words of each kind reads them
// so, deterministically; words the vectors do not hold are left out, and
// a kind with none is refused.
func TestWordKind(t *testing.T) {
	tool := []string{"invoice", "repository", "deploy", "spreadsheet", "xqzvvnotaword"}
	said := []string{"birthday", "grandmother", "lisbon", "delicious"}
	m, nTool, nSaid, err := WordKind(tool, said)
	if err != nil || nTool != 4 || nSaid != 4 {
		t.Fatalf("WordKind = %d, %d, %v; want 4 of each", nTool, nSaid, err)
	}
	for _, w := range tool[:4] {
		if m.SaidInPassing(w) {
			t.Errorf("%s read as said in passing", w)
		}
	}
	for _, w := range said {
		if !m.SaidInPassing(w) {
			t.Errorf("%s not read as said in passing", w)
		}
	}
	again, _, _, _ := WordKind(tool, said)
	if string(again.Encode()) != string(m.Encode()) {
		t.Error("training twice gave two models")
	}
	if _, _, _, err := WordKind([]string{"xqzvvnotaword"}, said); err == nil || !strings.Contains(err.Error(), "0 of the tool words") {
		t.Errorf("no tool word held: %v, want a refusal saying so", err)
	}
}
