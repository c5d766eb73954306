package sight

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestKindIndexFollowsKinds: the visibility index's kind switch gives each
// kind its place in ext.Kinds.
func TestKindIndexFollowsKinds(t *testing.T) {
	t.Parallel()
	if len(ext.Kinds) != kinds {
		t.Fatalf("ext.Kinds has %d kinds, the visibility index %d", len(ext.Kinds), kinds)
	}
	for i, k := range ext.Kinds {
		if got := kindIndex(k); got != i {
			t.Errorf("kindIndex(%s) = %d, want %d", k, got, i)
		}
	}
}
