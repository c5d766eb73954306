// Package segmentfile writes and reads the one bleve segment of a bundle —
// a zap (v16) file of its documents' postings, norms and ids — without
// bleve's scorch. Scorch is an index of many segments, with a bolt
// database of snapshots, a persister and a merger; a bundle needs one
// immutable segment, and scorch's package initialisation alone (two
// Levenshtein automata for fuzzy queries, which the index does not make:
// its typo correction walks the dictionaries with its own automaton)
// cost every cold start 2.5–5 ms. Write numbers the documents in the order
// given, so that a document's number is its position in that order.
//
// A Segment is opened once and read by any number of goroutines; its
// Reader is what a search reads through, closed by the search, releasing
// nothing (the segment is the bundle's, closed with it).
package segmentfile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/RoaringBitmap/roaring/v2"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v16"
)

// plugin is zap v16, the segment format of bleve 2.5 (scorch's default).
var plugin = &zap.ZapPlugin{}

// batchSize is how many documents Write analyses and encodes at once
// before merging (scorch's builder's batch): it bounds the memory of the
// documents' postings held before they are written.
const batchSize = 1000

// mergeMax is how many segments one merge joins (scorch's builder's).
const mergeMax = 10

// ErrNoDocuments is Write's error when it is given none: a segment holds
// at least one document.
var ErrNoDocuments = errors.New("no document was indexed: a segment holds at least one")

// Write analyses docs (each document's indexed fields, as scorch does, and
// its _id) and writes them to path as one segment, numbered in the order
// given. Its temporary files are made in the directory of path and
// removed; on error path is not written.
func Write(path string, docs []bindex.Document) error {
	return write(path, docs, batchSize)
}

// write is Write with batches of batch documents.
func write(path string, docs []bindex.Document, batch int) (err error) {
	w, err := create(path, batch)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if err := w.Add(d); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// Writer writes a segment a document at a time: each batch is analysed
// and written as it fills, and Close merges them into the segment.
type Writer struct {
	path, tmp string
	batch     int
	docs      []bindex.Document
	parts     []string
}

// Create starts a segment at path; its temporary files are made in the
// directory of path. Close writes it, Abort removes what was written.
func Create(path string) (*Writer, error) { return create(path, batchSize) }

func create(path string, batch int) (*Writer, error) {
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".segment-")
	if err != nil {
		return nil, err
	}
	return &Writer{path: path, tmp: tmp, batch: batch}, nil
}

// Add adds d, the next document.
func (w *Writer) Add(d bindex.Document) error {
	w.docs = append(w.docs, d)
	if len(w.docs) < w.batch {
		return nil
	}
	return w.flush()
}

// flush writes the documents added since the last flush as one part.
func (w *Writer) flush() error {
	part := filepath.Join(w.tmp, fmt.Sprintf("%06d.zap", len(w.parts)))
	if err := writeBatch(part, w.docs); err != nil {
		return err
	}
	w.parts = append(w.parts, part)
	w.docs = w.docs[:0]
	return nil
}

// Close writes the segment: the last part, then the merges of the parts,
// in order. ErrNoDocuments when none was added.
func (w *Writer) Close() (err error) {
	defer func() { err = errors.Join(err, os.RemoveAll(w.tmp)) }()
	if len(w.docs) > 0 {
		if err := w.flush(); err != nil {
			return err
		}
	}
	if len(w.parts) == 0 {
		return ErrNoDocuments
	}
	parts := w.parts
	for len(parts) > 1 {
		n := min(mergeMax, len(parts))
		merged := filepath.Join(w.tmp, fmt.Sprintf("merged-%06d.zap", len(parts)))
		if err := merge(parts[:n], merged); err != nil {
			return err
		}
		// the merged segment goes first: its documents came first
		parts = append([]string{merged}, parts[n:]...)
	}
	return os.Rename(parts[0], w.path)
}

// Abort removes what the writer wrote; the segment is not written.
func (w *Writer) Abort() error { return os.RemoveAll(w.tmp) }

// writeBatch analyses docs and writes them as one segment at path.
func writeBatch(path string, docs []bindex.Document) error {
	for _, d := range docs {
		if d.ID() == "" {
			return errors.New("a document without an id")
		}
		d.AddIDField()
		if err := analyze(d); err != nil {
			return fmt.Errorf("document %s: %w", d.ID(), err)
		}
	}
	seg, _, err := plugin.New(docs)
	if err != nil {
		return fmt.Errorf("encoding a segment: %w", err)
	}
	persisted, ok := seg.(segment.UnpersistedSegment)
	if !ok {
		return fmt.Errorf("zap's new segment %T cannot be written", seg)
	}
	return persisted.Persist(path)
}

// analyze analyses each indexed field of d, composing its composite fields
// (scorch's analyze, less the geo shapes no bundle holds).
func analyze(d bindex.Document) error {
	var err error
	d.VisitFields(func(f bindex.Field) {
		if !f.Options().IsIndexed() {
			return
		}
		if _, ok := f.(bindex.GeoShapeField); ok {
			err = fmt.Errorf("field %s: a geo shape, which a bundle does not index", f.Name())
			return
		}
		f.Analyze()
		if d.HasComposite() && f.Name() != "_id" {
			d.VisitComposite(func(cf bindex.CompositeField) {
				cf.Compose(f.Name(), f.AnalyzedLength(), f.AnalyzedTokenFrequencies())
			})
		}
	})
	return err
}

// merge joins the segments at paths, in order, into one at out and
// removes them.
func merge(paths []string, out string) (err error) {
	segs := make([]segment.Segment, 0, len(paths))
	defer func() {
		for _, s := range segs {
			err = errors.Join(err, s.Close())
		}
		if err == nil {
			for _, p := range paths {
				err = errors.Join(err, os.Remove(p))
			}
		}
	}()
	for _, p := range paths {
		s, err := plugin.Open(p)
		if err != nil {
			return fmt.Errorf("opening a segment to merge: %w", err)
		}
		segs = append(segs, s)
	}
	if _, _, err := plugin.Merge(segs, make([]*roaring.Bitmap, len(segs)), out, nil, nil); err != nil {
		return fmt.Errorf("merging %d segments: %w", len(segs), err)
	}
	return nil
}

// Segment is an open segment file.
type Segment struct {
	seg  segment.Segment
	segs []segment.Segment // seg alone: what Reader.Segments returns, made once
}

// Open opens the segment file at path, read-only (zap maps it).
func Open(path string) (*Segment, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	seg, err := plugin.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return &Segment{seg: seg, segs: []segment.Segment{seg}}, nil
}

// Count is the number of documents the segment's footer says it holds.
func (s *Segment) Count() uint64 { return s.seg.Count() }

// Close unmaps the segment; no Reader of it may be read after.
func (s *Segment) Close() error { return s.seg.Close() }

// Reader returns a reader of the segment for one search.
func (s *Segment) Reader() *Reader { return &Reader{seg: s.seg, segs: s.segs} }

// Reader reads a segment: its postings, dictionaries and ids.
type Reader struct {
	seg  segment.Segment
	segs []segment.Segment
}

// Close releases nothing: the segment is its Segment's.
func (r *Reader) Close() error { return nil }

// Segment is the segment itself, for readers that walk its dictionaries
// or open its postings without some documents.
func (r *Reader) Segment() segment.Segment { return r.seg }

// DocCount is the number of documents.
func (r *Reader) DocCount() (uint64, error) { return r.seg.Count(), nil }

// ExternalID is the id of the document numbered by id (8 bytes, big
// endian).
func (r *Reader) ExternalID(id bindex.IndexInternalID) (string, error) {
	if len(id) != 8 {
		return "", fmt.Errorf("an internal id of %d bytes", len(id))
	}
	num := binary.BigEndian.Uint64(id)
	if num >= r.seg.Count() {
		return "", fmt.Errorf("document %d of %d", num, r.seg.Count())
	}
	ext, err := r.seg.DocID(num)
	if err != nil {
		return "", err
	}
	return string(ext), nil
}

// InternalID is the number of the document whose id is id (8 bytes, big
// endian), or nil when none has it.
func (r *Reader) InternalID(id string) (bindex.IndexInternalID, error) {
	nums, err := r.seg.DocNumbers([]string{id})
	if err != nil || nums.IsEmpty() {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(nil, uint64(nums.Minimum())), nil
}

// FieldDict walks the terms of field in order, with the number of
// documents holding each.
func (r *Reader) FieldDict(field string) (bindex.FieldDict, error) {
	dict, err := r.seg.Dictionary(field)
	if err != nil {
		return nil, err
	}
	return &fieldDict{dict: dict, it: dict.AutomatonIterator(nil, nil, nil), cardinality: dict.Cardinality()}, nil
}

// fieldDict is a bindex.FieldDict over one dictionary.
type fieldDict struct {
	dict        segment.TermDictionary
	it          segment.DictionaryIterator
	pl          segment.PostingsList
	cardinality int
}

// Next returns the next term and the number of documents holding it
// (countFromPostings).
func (d *fieldDict) Next() (*bindex.DictEntry, error) {
	e, err := d.it.Next()
	if err != nil || e == nil {
		return e, err
	}
	if d.pl, err = countFromPostings(d.dict, e, d.pl); err != nil {
		return nil, err
	}
	return e, nil
}

// countFromPostings sets e.Count, the number of documents holding e.Term
// in dict, from its postings (pl is reused, and returned): zap's
// dictionary iterator reuses one postings list for the counts it gives,
// and after a term of one posting (its "1-hit" encoding) gives every later
// term a count of one. Every walk of a dictionary counts through here.
func countFromPostings(dict segment.TermDictionary, e *bindex.DictEntry, pl segment.PostingsList) (segment.PostingsList, error) {
	pl, err := dict.PostingsList([]byte(e.Term), nil, pl)
	if err != nil {
		return nil, err
	}
	e.Count = pl.Count()
	return pl, nil
}

// EachTerm calls fn with each term of dict between start (inclusive) and
// end (exclusive, nil: none) that a accepts, its edit distance where a is
// a fuzzy automaton, and the number of documents holding it
// (countFromPostings). The entry is reused between calls.
func EachTerm(dict segment.TermDictionary, a segment.Automaton, start, end []byte, fn func(*bindex.DictEntry)) error {
	it := dict.AutomatonIterator(a, start, end)
	var pl segment.PostingsList
	for {
		e, err := it.Next()
		if err != nil || e == nil {
			return err
		}
		if pl, err = countFromPostings(dict, e, pl); err != nil {
			return err
		}
		fn(e)
	}
}
func (d *fieldDict) Close() error      { return nil }
func (d *fieldDict) Cardinality() int  { return d.cardinality }
func (d *fieldDict) BytesRead() uint64 { return 0 }

// TermFieldReader opens the postings of term in field, with frequencies
// and norms as asked (never term vectors: no bundle reads them).
func (r *Reader) TermFieldReader(_ context.Context, term []byte, field string, includeFreq, includeNorm, includeTermVectors bool) (bindex.TermFieldReader, error) {
	if includeTermVectors {
		return nil, errors.New("term vectors are not read from a bundle's segment")
	}
	dict, err := r.seg.Dictionary(field)
	if err != nil {
		return nil, err
	}
	pl, err := dict.PostingsList(term, nil, nil)
	if err != nil {
		return nil, err
	}
	t := &termReader{pl: pl, freq: includeFreq, norm: includeNorm}
	t.restart()
	return t, nil
}

// termReader is a bindex.TermFieldReader over one postings list.
type termReader struct {
	pl         segment.PostingsList
	it         segment.PostingsIterator
	freq, norm bool
	cur        uint64 // the document last returned
	started    bool   // whether one was
}

// restart reads the postings from the first again.
func (t *termReader) restart() {
	t.it, t.started = t.pl.Iterator(t.freq, t.norm, false, nil), false
}

// Next returns the next posting, or nil at the end.
func (t *termReader) Next(tfd *bindex.TermFieldDoc) (*bindex.TermFieldDoc, error) {
	p, err := t.it.Next()
	if err != nil || p == nil {
		return nil, err
	}
	return t.fill(p, tfd), nil
}

// Advance returns the first posting at or after document id, or nil. As
// scorch's reader does, a target at or before the document last returned
// reads the postings again from the first (explanations ask for a page's
// documents in the order of their scores).
func (t *termReader) Advance(id bindex.IndexInternalID, tfd *bindex.TermFieldDoc) (*bindex.TermFieldDoc, error) {
	if len(id) != 8 {
		return nil, fmt.Errorf("an internal id of %d bytes", len(id))
	}
	num := binary.BigEndian.Uint64(id)
	if t.started && t.cur >= num {
		t.restart()
	}
	p, err := t.it.Advance(num)
	if err != nil || p == nil {
		return nil, err
	}
	return t.fill(p, tfd), nil
}

// fill remembers p and returns it in tfd.
func (t *termReader) fill(p segment.Posting, tfd *bindex.TermFieldDoc) *bindex.TermFieldDoc {
	t.cur, t.started = p.Number(), true
	return fill(p, tfd)
}

// fill writes p into tfd (a new one when nil).
func fill(p segment.Posting, tfd *bindex.TermFieldDoc) *bindex.TermFieldDoc {
	if tfd == nil {
		tfd = &bindex.TermFieldDoc{}
	}
	tfd.ID = binary.BigEndian.AppendUint64(tfd.ID[:0], p.Number())
	tfd.Freq, tfd.Norm = p.Frequency(), p.Norm()
	return tfd
}

func (t *termReader) Count() uint64 { return t.pl.Count() }
func (t *termReader) Close() error  { return nil }
func (t *termReader) Size() int     { return t.pl.Size() + t.it.Size() }

// Segments are the reader's segments: one, a bundle's. (Its readers walk
// them as they walked scorch's snapshot, whose documents are numbered
// across its segments in turn.) The slice is the Segment's, made at open:
// a search asks for it once a term, and it allocates nothing; callers
// only read it.
func (r *Reader) Segments() []segment.Segment { return r.segs }
