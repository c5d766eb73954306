package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Document order. bleve numbers the documents of a segment in the order
// its builder walks a batch, a Go map: two builds of one catalog number
// them differently. BM25 breaks ties of score by document, so that its
// answer is the same for every build of a catalog, and needs an order that
// does not depend on the build: docOrderFile maps each document number to
// the item's position in catalog order, written at build time.
//
// docOrderFile: the magic "MCPSDO1\n", then one little-endian uint32 a
// document, by document number.
const (
	docOrderFile  = "docorder.bin"
	docOrderMagic = "MCPSDO1\n"
)

// writeDocOrder writes docOrderFile into dir for the bleve index at
// blevePath, whose documents are the count items of the catalog.
func writeDocOrder(blevePath, dir string, base map[ext.Kind]int, count int) (err error) {
	x, err := bleve.OpenUsing(blevePath, map[string]any{"read_only": true})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, x.Close()) }()
	advanced, err := x.Advanced()
	if err != nil {
		return err
	}
	r, err := advanced.Reader()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	if n, err := r.DocCount(); err != nil || int(n) != count {
		return fmt.Errorf("%s: %d documents (%v), want %d", docOrderFile, n, err, count)
	}
	out := make([]byte, len(docOrderMagic), len(docOrderMagic)+4*count)
	copy(out, docOrderMagic)
	id := make(bindex.IndexInternalID, 8)
	for doc := range count {
		binary.BigEndian.PutUint64(id, uint64(doc))
		ext, err := r.ExternalID(id)
		if err != nil {
			return fmt.Errorf("%s: document %d: %w", docOrderFile, doc, err)
		}
		pos, err := catalogPosition(ext, base)
		if err != nil {
			return fmt.Errorf("%s: document %d: %w", docOrderFile, doc, err)
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(pos))
	}
	return os.WriteFile(filepath.Join(dir, docOrderFile), out, 0o644)
}

// catalogPosition is the position in catalog order of the item with the
// document id docID ("t/00000012").
func catalogPosition(docID string, base map[ext.Kind]int) (int, error) {
	code, n, ok := strings.Cut(docID, "/")
	ord, err := strconv.Atoi(n)
	if !ok || err != nil {
		return 0, fmt.Errorf("document id %q", docID)
	}
	for k, c := range kindCode {
		if c == code {
			return base[k] + ord, nil
		}
	}
	return 0, fmt.Errorf("document id %q: no such kind", docID)
}

// readDocOrder reads docOrderFile of dir, for count documents.
func readDocOrder(dir string, count int) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, docOrderFile))
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(string(data), docOrderMagic) || len(data) != len(docOrderMagic)+4*count {
		return nil, fmt.Errorf("%s: not the document order of %d items", docOrderFile, count)
	}
	return data[len(docOrderMagic):], nil
}

// docRank is a document's position in catalog order, the tie-break of BM25
// (order: the body of docOrderFile; a document past it sorts last).
func docRank(order []byte, doc uint32) uint32 {
	if i := 4 * int(doc); i+4 <= len(order) {
		return binary.LittleEndian.Uint32(order[i:])
	}
	return ^uint32(0)
}
