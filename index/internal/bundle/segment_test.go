package bundle

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestSegmentOfNoDocument: the segment builder closed with nothing indexed
// says so instead of letting scorch's builder index past an empty list.
func TestSegmentOfNoDocument(t *testing.T) {
	t.Parallel()
	m, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	b, err := newSegmentBuilder(filepath.Join(t.TempDir(), "bleve"), m)
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("close panicked: %v", p)
			}
		}()
		err = b.close()
	}()
	if !errors.Is(err, errNoDocuments) {
		t.Errorf("got %v, want errNoDocuments", err)
	}
}
