package bm25

import (
	"encoding/binary"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"

	"github.com/RoaringBitmap/roaring/v2"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// scopedReader reads one term's postings in one field of a scorch
// snapshot without the documents a caller may not see: each segment's
// postings list is opened with those documents excepted (Scope.Outside),
// so its count is that of the documents the caller sees and its iterator
// never yields another. The segment's own iterator still steps over an
// excepted posting to keep its frequencies in step (a roaring iterator's
// step, no decoding of the posting), so a hidden document costs a small
// fraction of what one the caller sees does. It implements
// bindex.TermFieldReader for what this package reads of it: Next, Advance,
// Count and Close.
type scopedReader struct {
	lists   []segment.PostingsList
	offsets []uint64 // each segment's first document number
	its     []segment.PostingsIterator
	cur     int
	count   uint64
	// last is the posting returned last (its document number, frequency
	// and norm), which an Advance to a document at or before it returns
	// again, as bleve's own reader does.
	last *lastPosting
}

type lastPosting struct {
	num  uint64
	freq uint64
	norm float64
}

var _ bindex.TermFieldReader = (*scopedReader)(nil)

// openScoped opens term's postings in field, without the documents of
// outside (a bitmap per segment of snap, deleted documents included).
func openScoped(snap *segmentfile.Reader, outside []*roaring.Bitmap, field, term string) (*scopedReader, error) {
	segs := snap.Segments()
	if len(outside) != len(segs) {
		return nil, fmt.Errorf("a scope of %d segments for an index of %d", len(outside), len(segs))
	}
	r := &scopedReader{lists: make([]segment.PostingsList, len(segs)), offsets: make([]uint64, len(segs)), its: make([]segment.PostingsIterator, len(segs))}
	next := uint64(0)
	for i, s := range segs {
		r.offsets[i] = next
		next += s.Count()
		dict, err := s.Dictionary(field)
		if err != nil {
			return nil, err
		}
		pl, err := dict.PostingsList([]byte(term), outside[i], nil)
		if err != nil {
			return nil, err
		}
		r.lists[i] = pl
		r.count += pl.Count()
	}
	return r, nil
}

// Next returns the next posting the caller sees, or nil at the end.
func (r *scopedReader) Next(tfd *bindex.TermFieldDoc) (*bindex.TermFieldDoc, error) {
	for ; r.cur < len(r.lists); r.cur++ {
		p, err := r.iterator(r.cur).Next()
		if err != nil {
			return nil, err
		}
		if p != nil {
			return r.doc(p, tfd), nil
		}
	}
	return nil, nil
}

// Advance returns the first posting the caller sees at or after document
// id, or nil.
func (r *scopedReader) Advance(id bindex.IndexInternalID, tfd *bindex.TermFieldDoc) (*bindex.TermFieldDoc, error) {
	num := DocNumber(id)
	if r.last != nil && r.last.num >= num {
		return r.fill(tfd), nil
	}
	for ; r.cur < len(r.lists); r.cur++ {
		if r.cur+1 < len(r.lists) && r.offsets[r.cur+1] <= num {
			continue
		}
		local := uint64(0)
		if num > r.offsets[r.cur] {
			local = num - r.offsets[r.cur]
		}
		p, err := r.iterator(r.cur).Advance(local)
		if err != nil {
			return nil, err
		}
		if p != nil {
			return r.doc(p, tfd), nil
		}
	}
	return nil, nil
}

func (r *scopedReader) iterator(i int) segment.PostingsIterator {
	if r.its[i] == nil {
		r.its[i] = r.lists[i].Iterator(true, true, false, nil)
	}
	return r.its[i]
}

// doc remembers p, of the current segment, and returns it in tfd.
func (r *scopedReader) doc(p segment.Posting, tfd *bindex.TermFieldDoc) *bindex.TermFieldDoc {
	if r.last == nil {
		r.last = &lastPosting{}
	}
	*r.last = lastPosting{num: r.offsets[r.cur] + p.Number(), freq: p.Frequency(), norm: p.Norm()}
	return r.fill(tfd)
}

// fill writes the last posting into tfd (a new one when nil).
func (r *scopedReader) fill(tfd *bindex.TermFieldDoc) *bindex.TermFieldDoc {
	if tfd == nil {
		tfd = &bindex.TermFieldDoc{}
	}
	tfd.ID = binary.BigEndian.AppendUint64(tfd.ID[:0], r.last.num)
	tfd.Freq, tfd.Norm = r.last.freq, r.last.norm
	return tfd
}

// Count is the number of documents the caller sees that hold the term.
func (r *scopedReader) Count() uint64 { return r.count }

// Close releases nothing: the lists are the segments' own.
func (r *scopedReader) Close() error { return nil }

// Size is not measured.
func (r *scopedReader) Size() int { return 0 }
