package bundle

import (
	"errors"
	"os"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
)

// TestSegmentOfNoDocument: the segment builder closed with nothing indexed
// says so and writes nothing.
func TestSegmentOfNoDocument(t *testing.T) {
	t.Parallel()
	m, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, err := newSegmentBuilder(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.close(); !errors.Is(err, segmentfile.ErrNoDocuments) {
		t.Errorf("got %v, want segmentfile.ErrNoDocuments", err)
	}
	if _, err := os.Stat(SegmentPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a segment of no document was written: %v", err)
	}
}
