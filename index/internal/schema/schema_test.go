package schema

import (
	"fmt"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestDocIDIsTheFormat: DocID writes what fmt's "%s/%08d" writes, for
// every kind (and an unknown one), short, long and negative ordinals, and
// ParseDocID reads it back.
func TestDocIDIsTheFormat(t *testing.T) {
	kinds := append([]ext.Kind{"unknown"}, ext.Kinds...)
	for _, k := range kinds {
		for _, n := range []int{0, 1, 42, 1234567, 99_999_999, 100_000_000, 1 << 40, -1, -42, -123_456_789} {
			want := fmt.Sprintf("%s/%08d", kindCode[k], n)
			if got := DocID(k, n); got != want {
				t.Errorf("DocID(%s, %d) = %q, want %q", k, n, got, want)
			}
			if kk, nn, ok := ParseDocID(DocID(k, n)); k != "unknown" && n >= 0 && (!ok || kk != k || nn != n) {
				t.Errorf("ParseDocID(%q) = %s, %d, %v", DocID(k, n), kk, nn, ok)
			}
		}
	}
}

// BenchmarkDocID: the id of an item, as a search makes one for each item
// a written request matches.
func BenchmarkDocID(b *testing.B) {
	n := 0
	for b.Loop() {
		_ = DocID(ext.KindTool, n%100_000)
		n++
	}
}
