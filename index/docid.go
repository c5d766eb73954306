package index

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// position turns a document id ("t/00000042") into the position of its
// record in catalog order.
func (x *Index) position(id string) (int, error) {
	k, n, ok := schema.ParseDocID(id)
	if !ok || n < 0 || n >= x.manifest.Counts[k] {
		return 0, fmt.Errorf("index %s: no document %q", x.dir, id)
	}
	return x.base[k] + n, nil
}

// docCount is the number of items of every kind.
func (x *Index) docCount() int {
	n := 0
	for _, c := range x.manifest.Counts {
		n += c
	}
	return n
}
