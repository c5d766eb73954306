package index

import (
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// What a caller who may not see every item learns of the others: nothing
// of their words. Retrieval reads the bundle through the caller's sight
// (retrieval.Sight: the documents it sees and does not, its BM25
// statistics and its view of the written requests, each made here once
// for each combination of visibility sets): its query's words are looked
// up, corrected and weighed among the items it sees, every posting list
// is read without the documents it may not see (bm25.Scope), BM25's idf,
// average field lengths and postings bound count what it sees, so do the
// written requests' (requests.View), and the dense candidates are the
// nearest items it sees, so that a word only hidden items hold is, in
// every answer and score, a word no item holds (TestHiddenItemsShapeNothing,
// TestHiddenVocabularyIsUnknown). What still depends on hidden items is
// measured by TestHiddenServersRanking (functions/search/README.md,
// "What is not hidden"): the item vectors, built over every item.
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
	d, err := x.sightOf(w)
	if d == nil {
		return nil, err
	}
	return d.visible, err
}

// outsideDocs returns the documents w may not see, deleted ones included,
// a bitmap per segment of the index (bm25.Scope.Outside); nil when it sees
// every one. The bitmaps are shared: read only.
func (x *Index) outsideDocs(w viewer) ([]*roaring.Bitmap, error) {
	d, err := x.sightOf(w)
	if d == nil {
		return nil, err
	}
	return d.outside, err
}

// sightDocs are the documents one combination of visibility sets sees,
// and those it does not, a bitmap per segment.
type sightDocs struct{ visible, outside []*roaring.Bitmap }

// sightOf returns the documents w sees and does not, made once for each
// combination of visibility sets; nil when it sees every one.
func (x *Index) sightOf(w viewer) (*sightDocs, error) {
	if w.all() {
		return nil, nil
	}
	return x.visibleSets.Get(w.key, func() (*sightDocs, error) {
		return x.readSightDocs(w.access)
	})
}

// readSightDocs reads the documents a caller with a sees: those holding
// one of its visibility terms, in each segment, and the others.
func (x *Index) readSightDocs(a ext.Access) (_ *sightDocs, err error) {
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
	d := &sightDocs{}
	for _, seg := range snap.Segments() {
		dict, err := seg.Segment().Dictionary(schema.Visibility)
		if err != nil {
			return nil, err
		}
		docs := roaring.New()
		for _, term := range bundle.AccessTerms(a) {
			pl, err := dict.PostingsList([]byte(term), seg.Deleted(), nil)
			if err != nil {
				return nil, err
			}
			if err := bm25.OrInto(pl, docs); err != nil {
				return nil, err
			}
		}
		if deleted := seg.Deleted(); deleted != nil {
			docs.AndNot(deleted)
		}
		d.visible = append(d.visible, docs)
		d.outside = append(d.outside, roaring.Flip(docs, 0, seg.Segment().Count()))
	}
	return d, nil
}

// requestView is what w sees of the written requests of kind k
// (requests.View), made once for each combination of visibility sets a
// caller may see; nil when it sees every item or the bundle has no
// requests.
func (x *Index) requestView(w viewer, k ext.Kind) *requests.View {
	if w.all() || x.requests == nil {
		return nil
	}
	v, _ := x.requestViews.Get(string(k)+"\x00"+w.key, func() (*requests.View, error) {
		return x.requests.View(k, func(ord int) bool { return w.sees(k, ord) }), nil
	})
	return v
}

// statsOf are BM25's statistics of kind k for w (retrieval.Bundle.Stats):
// the items of k it sees and the field lengths of their documents, made
// once for each combination of visibility sets, so that a field's average
// length is that of a catalog of what w sees.
func (x *Index) statsOf(w viewer, k ext.Kind) *search.BM25Stats {
	if w.all() {
		return x.bm25[k]
	}
	stats, _ := x.callerStats.Get(w.key, func() (map[ext.Kind]*search.BM25Stats, error) {
		lengths := w.fieldLengths()
		out := map[ext.Kind]*search.BM25Stats{}
		for _, kind := range ext.Kinds {
			out[kind] = &search.BM25Stats{DocCount: float64(max(1, w.count(kind, x.manifest.Counts[kind]))), FieldCardinality: lengths}
		}
		return out, nil
	})
	return stats[k]
}
