package index

import (
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
)

// What a caller who may not see every item learns of the others: nothing
// of their words. Its query's words are looked up, corrected and weighed
// among the items it sees (terms.go, typo.go, nomatch.go), BM25's idf
// counts them among those items too (bm25.Scope), and the dense
// candidates are the nearest items it sees (dense.go), so that a word only
// hidden items hold is, in every answer and score, a word no item holds
// (TestHiddenVocabularyIsUnknown, TestHiddenWordScoresAsAnUnknownWord).
// What still depends on hidden items is measured by
// TestHiddenServersRanking (functions/search/README.md, "What is not
// hidden"): the fields' average lengths and the item vectors, built over
// every item.
//
// A term's documents that the caller sees are counted as the cardinality
// of the term's postings (a roaring bitmap in the segment) and the
// caller's visible documents, a bitmap per segment made once for each
// combination of visibility sets and cached.

// maxVisibleSets bounds the cached bitmaps of visible documents, one set
// for each combination of visibility sets a caller may see.
const maxVisibleSets = 64

// visibleDocs returns the documents w sees, a bitmap per segment of the
// index; nil when it sees every one. The bitmaps are shared: read only.
func (x *Index) visibleDocs(w viewer) ([]*roaring.Bitmap, error) {
	if w.all() {
		return nil, nil
	}
	return x.visibleSets.Get(fmt.Sprint(w.allowed), func() ([]*roaring.Bitmap, error) {
		return x.readVisibleDocs(w.access)
	})
}

// readVisibleDocs reads the documents a caller with a sees: those holding
// one of its visibility terms, in each segment.
func (x *Index) readVisibleDocs(a ext.Access) (_ []*roaring.Bitmap, err error) {
	defer wrapf(&err, "index %s: visible documents", x.dir)
	r, err := x.reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("index reader %T is not a scorch snapshot", r)
	}
	var out []*roaring.Bitmap
	for _, seg := range snap.Segments() {
		dict, err := seg.Segment().Dictionary(fieldVisibility)
		if err != nil {
			return nil, err
		}
		docs := roaring.New()
		for _, term := range accessTerms(a) {
			pl, err := dict.PostingsList([]byte(term), seg.Deleted(), nil)
			if err != nil {
				return nil, err
			}
			if err := orInto(pl, docs); err != nil {
				return nil, err
			}
		}
		if deleted := seg.Deleted(); deleted != nil {
			docs.AndNot(deleted)
		}
		out = append(out, docs)
	}
	return out, nil
}

// orInto adds the documents of postings list pl to docs.
func orInto(pl any, docs *roaring.Bitmap) error {
	b, ok := pl.(interface{ OrInto(*roaring.Bitmap) })
	if !ok {
		return fmt.Errorf("postings list %T has no bitmap", pl)
	}
	b.OrInto(docs)
	return nil
}

// visibleFreq counts the documents the caller sees that hold term in the
// index field named full.
func (d *termDicts) visibleFreq(full, term string) (int, error) {
	dicts, err := d.dictsOf(full)
	if err != nil {
		return 0, err
	}
	if d.scratch == nil {
		d.scratch = roaring.New()
	}
	n := 0
	for i, seg := range d.snap.Segments() {
		if d.pl, err = dicts[i].PostingsList([]byte(term), seg.Deleted(), d.pl); err != nil {
			return 0, fmt.Errorf("term %q in %s: %w", term, full, err)
		}
		d.scratch.Clear()
		if err := orInto(d.pl, d.scratch); err != nil {
			return 0, err
		}
		n += int(d.scratch.AndCardinality(d.visible[i]))
	}
	return n, nil
}

// scope is what BM25 counts idf over for a caller who sees what w sees
// (bm25.Scope), and the function that closes what it reads; nil for one
// who sees every item.
func (x *Index) scope(kind ext.Kind, w viewer) (*bm25.Scope, func(), error) {
	visible, err := x.visibleDocs(w)
	if err != nil || visible == nil {
		return nil, func() {}, err
	}
	r, err := x.reader()
	if err != nil {
		return nil, func() {}, err
	}
	count := w.count(kind, x.manifest.Counts[kind])
	d, err := newTermDicts(r, kind, visible, count)
	if err != nil {
		r.Close()
		return nil, func() {}, err
	}
	return &bm25.Scope{Count: count, DocFreq: d.visibleFreq}, func() { r.Close() }, nil
}
