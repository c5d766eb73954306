package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
)

// Document order. bleve numbers the documents of a segment in the order
// its builder walks a batch, a Go map: two builds of one catalog number
// them differently. BM25 breaks ties of score by document, so that its
// answer is the same for every build of a catalog, and needs an order that
// does not depend on the build: DocOrderFile maps each document number to
// the item's position in catalog order, written at build time.
//
// DocOrderFile: the magic "MCPSDO2\n", then one little-endian uint32 a
// document, by document number, then the CRC-32C of all before it
// (package checksum), which ReadDocOrder checks: the file is read whole at
// open (4 bytes an item), and a damaged position would reorder ties
// silently.
const (
	DocOrderFile  = "docorder.bin"
	docOrderMagic = "MCPSDO2\n"
)

// WriteDocOrder writes DocOrderFile into dir: positions[doc] is the
// catalog position of bleve's document doc.
func WriteDocOrder(dir string, positions []uint32) error {
	out := make([]byte, len(docOrderMagic), len(docOrderMagic)+4*len(positions))
	copy(out, docOrderMagic)
	for _, pos := range positions {
		out = binary.LittleEndian.AppendUint32(out, pos)
	}
	return os.WriteFile(filepath.Join(dir, DocOrderFile), checksum.Append(out, checksum.Of(out)), 0o644)
}

// DocOrder is the body of DocOrderFile: the catalog position of each
// document.
type DocOrder []byte

// ReadDocOrder reads DocOrderFile of dir, for count documents.
func ReadDocOrder(dir string, count int) (DocOrder, error) {
	data, err := os.ReadFile(filepath.Join(dir, DocOrderFile))
	if err != nil {
		return nil, err
	}
	body, crc, _ := checksum.Split(data)
	if !bytes.HasPrefix(body, []byte(docOrderMagic)) || len(body) != len(docOrderMagic)+4*count {
		return nil, fmt.Errorf("%s: not the document order of %d items", DocOrderFile, count)
	}
	if err := checksum.Check(DocOrderFile, "the document order", crc, body); err != nil {
		return nil, err
	}
	return body[len(docOrderMagic):], nil
}

// Rank is a document's position in catalog order, the tie-break of BM25
// (a document past the order sorts last).
func (o DocOrder) Rank(doc uint32) uint32 {
	if i := 4 * int(doc); i+4 <= len(o) {
		return binary.LittleEndian.Uint32(o[i:])
	}
	return ^uint32(0)
}
