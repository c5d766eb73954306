package index

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Documents. Each item is one bleve document, with the id
// "<kind code>/<ordinal>": the n-th item (from 0) of its kind in catalog
// order, "t/00000042". Its records in the stores and its vector are at
// its position in catalog order: kinds in the order of ext.Kinds, each
// kind's items in catalog order.

// kindCode is the code of each kind in document ids and field names.
var kindCode = map[ext.Kind]string{
	ext.KindTool: "t", ext.KindPrompt: "p", ext.KindResource: "r", ext.KindResourceTemplate: "u",
}

// docID is the id of the n-th item (from 0) of kind k in catalog order.
func docID(k ext.Kind, n int) string {
	return fmt.Sprintf("%s/%08d", kindCode[k], n)
}

// parseDocID returns the kind and ordinal of a document id.
func parseDocID(id string) (ext.Kind, int, bool) {
	code, num, ok := strings.Cut(id, "/")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		return "", 0, false
	}
	for k, c := range kindCode {
		if c == code {
			return k, n, true
		}
	}
	return "", 0, false
}

// catalogPosition is the position in catalog order of the item with the
// document id docID ("t/00000012"), base being each kind's first position.
func catalogPosition(docID string, base map[ext.Kind]int) (int, error) {
	k, n, ok := parseDocID(docID)
	if !ok {
		return 0, fmt.Errorf("document id %q", docID)
	}
	return base[k] + n, nil
}

// kindBases returns the position of each kind's first item in catalog
// order: kinds come in the order of ext.Kinds.
func kindBases(counts map[ext.Kind]int) map[ext.Kind]int {
	base, pos := map[ext.Kind]int{}, 0
	for _, k := range ext.Kinds {
		base[k] = pos
		pos += counts[k]
	}
	return base
}

// position turns a document id ("t/00000042") into the position of its
// record in catalog order.
func (x *Index) position(id string) (int, error) {
	k, n, ok := parseDocID(id)
	if !ok || n < 0 || n >= x.manifest.Counts[k] {
		return 0, fmt.Errorf("index %s: no document %q", x.dir, id)
	}
	return x.base[k] + n, nil
}

// itemAt is the kind and ordinal of the item at a position in catalog
// order.
func (x *Index) itemAt(pos int) (ext.Kind, int, bool) {
	for _, k := range ext.Kinds {
		if n := pos - x.base[k]; n >= 0 && n < x.manifest.Counts[k] {
			return k, n, true
		}
	}
	return "", 0, false
}

// docCount is the number of items of every kind.
func (x *Index) docCount() int {
	n := 0
	for _, c := range x.manifest.Counts {
		n += c
	}
	return n
}
