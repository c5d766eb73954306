package index

import (
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// What a caller who may not see every item learns of the others: nothing
// of their words. Retrieval reads the bundle through the caller's sight
// (retrieval.Sight: the documents it sees, read here): its query's words
// are looked up, corrected and weighed among the items it sees, BM25's
// idf counts them among those items too (bm25.Scope), and the dense
// candidates are the nearest items it sees, so that a word only
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
		dict, err := seg.Segment().Dictionary(schema.Visibility)
		if err != nil {
			return nil, err
		}
		docs := roaring.New()
		for _, term := range accessTerms(a) {
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
		out = append(out, docs)
	}
	return out, nil
}
