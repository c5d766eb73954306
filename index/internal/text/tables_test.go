package text

import (
	"crypto/sha256"
	"testing"
)

// BenchmarkTablesDigest is what hashing the tables at start-up would cost
// (the embedded data alone), against the constants of package versions:
// why they are computed when the tables change instead.
func BenchmarkTablesDigest(b *testing.B) {
	tables := [][]byte{glossData, []byte(tradData), []byte(wordnetTable), []byte(wordvecTable), foreignData, []byte(synonymGroups), []byte(phraseTable)}
	n := 0
	for _, table := range tables {
		n += len(table)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		h := sha256.New()
		for _, table := range tables {
			h.Write(table)
		}
		h.Sum(nil)
	}
}
