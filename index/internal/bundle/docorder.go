package bundle

import (
	"encoding/binary"
	"errors"
	"fmt"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// writeDocOrder writes the document order (store.DocOrderFile) into dir
// for the bleve index at blevePath, whose documents are the count items of
// the catalog: bleve numbers them in an order of its own (see package
// store).
func writeDocOrder(blevePath, dir string, base map[ext.Kind]int, count int) ([]uint32, error) {
	positions, err := docPositions(blevePath, base, count)
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

// docPositions returns the catalog position of each document of the bleve
// index at blevePath, by document number.
func docPositions(blevePath string, base map[ext.Kind]int, count int) (_ []uint32, err error) {
	x, err := OpenSegment(blevePath)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, x.Close()) }()
	r, err := x.Reader()
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	if n, err := r.DocCount(); err != nil || int(n) != count {
		return nil, fmt.Errorf("%d documents (%v), want %d", n, err, count)
	}
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
