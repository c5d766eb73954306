package wordvec

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDistil: the most frequent plain words and the vocabulary words are
// kept, sorted, with their ranks and vectors scaled to ±Levels and packed
// two components a byte.
func TestDistil(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.json")
	src := `{"precision":8,"l2NormIndex":2,"wordIndex":3,"size":5,"dimensions":2,
		"words":["the",",","of","Paris","refund"],
		"vectors":{"the":[0.5,-1,1.1,0],",":[1,1,1.4,1],"of":[2,0,2,2],"Paris":[1,0,1,3],"refund":[0,-0.25,0.25,4]},
		"unkVector":[0,0,0,-1]}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSource(path)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Distil(s, 1, map[string]bool{"refund": true, "paris": true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tab.Entries {
		got = append(got, e.Word)
	}
	if strings.Join(got, " ") != "refund the" {
		t.Fatalf("kept %v, want refund (vocabulary) and the (most frequent); not the punctuation, not Paris (not lower case), not of (past the top 1)", got)
	}
	if e := tab.Entries[0]; e.Rank != 4 || e.Vector[0] != 0 || e.Vector[1] != -7 {
		t.Errorf("refund: %+v, want rank 4 and vector [0 -7]", e)
	}
	if e := tab.Entries[1]; e.Rank != 0 || e.Vector[0] != 4 || e.Vector[1] != -7 {
		t.Errorf("the: %+v, want rank 0 and vector [4 -7] (0.5 of the largest: 3.5, rounded away from zero)", e)
	}
	b := tab.Encode()
	if !strings.HasPrefix(string(b), Magic) {
		t.Fatal("no magic")
	}
	b = b[len(Magic):]
	if dims, n := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]); dims != 2 || n != 2 {
		t.Errorf("head: %d dims, %d words", dims, n)
	}
	// head 8, offsets 3×4, blob "refundthe" 9, ranks 2×4, vectors 2×1
	if len(b) != 8+12+9+8+2 {
		t.Fatalf("encoded %d bytes", len(b))
	}
	// refund [0 -7]: low nibble 0, high nibble -7 (0x9); the [4 -7]: 0x94
	if vecs := b[len(b)-2:]; vecs[0] != 0x90 || vecs[1] != 0x94 {
		t.Errorf("vectors encoded as % x, want 90 94", vecs)
	}
	if !strings.Contains(string(b), "refundthe") {
		t.Error("words are not stored sorted and concatenated")
	}
}
