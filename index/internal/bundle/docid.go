package bundle

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// catalogPosition is the position in catalog order of the item with the
// document id schema.DocID ("t/00000012"), base being each kind's first position.
func catalogPosition(id string, base map[ext.Kind]int) (int, error) {
	k, n, ok := schema.ParseDocID(id)
	if !ok {
		return 0, fmt.Errorf("document id %q", id)
	}
	return base[k] + n, nil
}

// KindBases returns the position of each kind's first item in catalog
// order: kinds come in the order of ext.Kinds.
func KindBases(counts map[ext.Kind]int) map[ext.Kind]int {
	base, pos := map[ext.Kind]int{}, 0
	for _, k := range ext.Kinds {
		base[k] = pos
		pos += counts[k]
	}
	return base
}
