package bm25

import (
	"encoding/binary"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"

	"github.com/RoaringBitmap/roaring/v2"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Set is a bit set of document numbers; the empty set, of a query with no
// filters, lets every document through.
type Set []uint64

// Allowed returns the documents every filter clause lets through, of docs
// documents, or the empty Set when there are no filters.
func Allowed(r *segmentfile.Reader, filters [][]Leaf, docs int) (Set, error) {
	return allowed(r, nil, filters, docs, nil)
}

// AllowedIn is Allowed within scope (nil: every document): the documents
// of scope that every filter clause lets through.
func AllowedIn(r *segmentfile.Reader, scope *Scope, filters [][]Leaf, docs int) (Set, error) {
	return allowed(r, scope, filters, docs, nil)
}

// allowed is Allowed within scope (nil: every document), in buf.
func allowed(r *segmentfile.Reader, scope *Scope, filters [][]Leaf, docs int, buf Set) (Set, error) {
	if len(filters) == 0 {
		return buf[:0], nil
	}
	words := (docs + 63) / 64
	allowed := fill(buf, words, ^uint64(0))
	clause := make([]uint64, words)
	for _, f := range filters {
		clear(clause)
		for _, l := range f {
			if err := markPostings(r, scope, l, clause); err != nil {
				return allowed, err
			}
		}
		for i := range allowed {
			allowed[i] &= clause[i]
		}
	}
	return allowed, nil
}

func fill(b []uint64, n int, v uint64) []uint64 {
	if cap(b) < n {
		b = make([]uint64, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = v
	}
	return b
}

// markPostings sets the bit of every document in scope holding leaf l.
func markPostings(r *segmentfile.Reader, scope *Scope, l Leaf, bits []uint64) error {
	p, err := termReader(r, scope, l.Field, l.Term)
	if err != nil {
		return fmt.Errorf("term %q in %s: %w", l.Term, l.Field, err)
	}
	defer p.Close()
	var tfd bindex.TermFieldDoc
	for {
		d, err := p.Next(&tfd)
		if err != nil {
			return err
		}
		if d == nil {
			return nil
		}
		doc := DocNumber(d.ID)
		if doc/64 >= uint64(len(bits)) {
			return fmt.Errorf("a posting of document %d, past the %d documents", doc, 64*len(bits))
		}
		bits[doc/64] |= 1 << (doc % 64)
	}
}

// DocNumber is a document's number from its internal ID (scorch: the
// number, big-endian).
func DocNumber(id bindex.IndexInternalID) uint64 { return binary.BigEndian.Uint64(id) }

// Has reports whether s (empty: no filters) holds doc.
func (s Set) Has(doc uint64) bool {
	return len(s) == 0 || s[doc/64]&(1<<(doc%64)) != 0
}

// OrInto adds the documents of postings list pl (a segment's) to docs.
func OrInto(pl any, docs *roaring.Bitmap) error {
	b, ok := pl.(interface{ OrInto(*roaring.Bitmap) })
	if !ok {
		return fmt.Errorf("postings list %T has no bitmap", pl)
	}
	b.OrInto(docs)
	return nil
}

// InternalID is the id bleve gives the document numbered num (DocNumber's
// inverse).
func InternalID(num uint64) bindex.IndexInternalID {
	id := make(bindex.IndexInternalID, 8)
	binary.BigEndian.PutUint64(id, num)
	return id
}
