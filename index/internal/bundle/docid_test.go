package bundle

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestCatalogPosition(t *testing.T) {
	t.Parallel()
	base := map[ext.Kind]int{ext.KindTool: 0, ext.KindPrompt: 5, ext.KindResource: 7, ext.KindResourceTemplate: 9}
	for id, want := range map[string]int{"t/00000000": 0, "t/00000004": 4, "p/00000001": 6, "u/00000000": 9} {
		if got, err := catalogPosition(id, base); err != nil || got != want {
			t.Errorf("catalogPosition(%q) = %d, %v; want %d", id, got, err, want)
		}
	}
	for _, id := range []string{"", "t", "x/00000001", "t/abc"} {
		if _, err := catalogPosition(id, base); err == nil {
			t.Errorf("catalogPosition(%q): no error", id)
		}
	}
}
