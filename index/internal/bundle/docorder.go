package bundle

import (
	"encoding/binary"
	"errors"
	"fmt"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// writeDocOrder writes the document order (store.DocOrderFile) into the
// bundle at dir, whose segment's documents are the count items of the
// catalog (see package store: scorch numbered them in an order of its own;
// segmentfile numbers them in the order they were added, so that since
// format 17 the order is each document's own number).
func writeDocOrder(dir string, base map[ext.Kind]int, count int) ([]uint32, error) {
	positions, err := docPositions(dir, base, count)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", store.DocOrderFile, err)
	}
	return positions, store.WriteDocOrder(dir, positions)
}

// documentsOf inverts positions (the catalog position of each document):
// the document number of each catalog position.
func documentsOf(positions []uint32) []uint32 {
	docs := make([]uint32, len(positions))
	for doc, pos := range positions {
		docs[pos] = uint32(doc)
	}
	return docs
}

// docPositions returns the catalog position of each document of the
// segment of the bundle at dir, by document number.
func docPositions(dir string, base map[ext.Kind]int, count int) (_ []uint32, err error) {
	x, err := OpenSegment(dir, count)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, x.Close()) }()
	r := x.Reader()
	positions := make([]uint32, count)
	id := make(bindex.IndexInternalID, 8)
	for doc := range count {
		binary.BigEndian.PutUint64(id, uint64(doc))
		ext, err := r.ExternalID(id)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", doc, err)
		}
		pos, err := catalogPosition(ext, base)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", doc, err)
		}
		positions[doc] = uint32(pos)
	}
	return positions, nil
}
