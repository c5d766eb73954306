package sight

import (
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// maxVisibleSets bounds the cached bitmaps of visible documents, one set
// for each combination of visibility sets a caller may see.
const maxVisibleSets = 64

// Bundle is what a sight is made from: an open bundle's postings, its
// written requests, its item counts and BM25's statistics of every item.
type Bundle struct {
	Name     string // "index DIR", for errors
	Index    *segmentfile.Segment
	Requests *requests.Index // nil: the bundle has none
	Counts   map[ext.Kind]int
	Stats    map[ext.Kind]*search.BM25Stats
}

// Cache holds, for one bundle, what each combination of visibility sets
// sees, made on first use: at most maxVisibleSets combinations.
type Cache struct {
	b            Bundle
	visibleSets  ext.Memo[*docs]
	requestViews ext.Memo[*requests.View]
	callerStats  ext.Memo[map[ext.Kind]*search.BM25Stats]
}

// NewCache returns an empty cache of b's sights.
func NewCache(b Bundle) *Cache {
	return &Cache{b: b, visibleSets: ext.Memo[*docs]{Limit: maxVisibleSets},
		requestViews: ext.Memo[*requests.View]{Limit: maxVisibleSets * len(ext.Kinds)},
		callerStats:  ext.Memo[map[ext.Kind]*search.BM25Stats]{Limit: maxVisibleSets}}
}

// View is one caller's sight of the bundle, as retrieval reads it
// (retrieval.Sight, and the Stats of retrieval.Bundle).
type View struct {
	w Viewer
	c *Cache
}

// View is the sight of the caller w.
func (c *Cache) View(w Viewer) View { return View{w, c} }

// Viewer is the caller's viewer.
func (v View) Viewer() Viewer { return v.w }

// SeesAll reports whether the caller sees every item.
func (v View) SeesAll() bool { return v.w.All() }

// Sees reports whether the caller sees the ord-th item of kind k.
func (v View) Sees(k ext.Kind, ord int) bool { return v.w.Sees(k, ord) }

// Count is the number of items of kind k the caller sees.
func (v View) Count(k ext.Kind) int { return v.w.Count(k, v.c.b.Counts[k]) }

// Visible returns the documents the caller sees, a bitmap per segment of
// the index; nil when it sees every one. The bitmaps are shared: read
// only.
func (v View) Visible() ([]*roaring.Bitmap, error) {
	d, err := v.c.docsOf(v.w)
	if d == nil {
		return nil, err
	}
	return d.visible, err
}

// Outside returns the documents the caller may not see, deleted ones
// included, a bitmap per segment of the index (bm25.Scope.Outside); nil
// when it sees every one. The bitmaps are shared: read only.
func (v View) Outside() ([]*roaring.Bitmap, error) {
	d, err := v.c.docsOf(v.w)
	if d == nil {
		return nil, err
	}
	return d.outside, err
}

// docs are the documents one combination of visibility sets sees, and
// those it does not, a bitmap per segment.
type docs struct{ visible, outside []*roaring.Bitmap }

// docsOf returns the documents w sees and does not, made once for each
// combination of visibility sets; nil when it sees every one.
func (c *Cache) docsOf(w Viewer) (*docs, error) {
	if w.All() {
		return nil, nil
	}
	return c.visibleSets.Get(w.key, func() (*docs, error) {
		return c.readDocs(w.access)
	})
}

// readDocs reads the documents a caller with a sees: those holding one of
// its visibility terms, in each segment, and the others.
func (c *Cache) readDocs(a ext.Access) (_ *docs, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("%s: visible documents: %w", c.b.Name, err)
		}
	}()
	d := &docs{}
	for _, seg := range c.b.Index.Reader().Segments() {
		dict, err := seg.Dictionary(schema.Visibility)
		if err != nil {
			return nil, err
		}
		visible := roaring.New()
		for _, term := range bundle.AccessTerms(a) {
			pl, err := dict.PostingsList([]byte(term), nil, nil)
			if err != nil {
				return nil, err
			}
			if err := bm25.OrInto(pl, visible); err != nil {
				return nil, err
			}
		}
		d.visible = append(d.visible, visible)
		d.outside = append(d.outside, roaring.Flip(visible, 0, seg.Count()))
	}
	return d, nil
}

// RequestView is what the caller sees of the written requests of kind k
// (requests.View), made once for each combination of visibility sets a
// caller may see; nil when it sees every item or the bundle has no
// requests.
func (v View) RequestView(k ext.Kind) *requests.View {
	w, c := v.w, v.c
	if w.All() || c.b.Requests == nil {
		return nil
	}
	view, _ := c.requestViews.Get(string(k)+"\x00"+w.key, func() (*requests.View, error) {
		return c.b.Requests.View(k, func(ord int) bool { return w.Sees(k, ord) }), nil
	})
	return view
}

// Stats are BM25's statistics of kind k for the caller
// (retrieval.Bundle.Stats): the items of k it sees and the field lengths
// of their documents, made once for each combination of visibility sets,
// so that a field's average length is that of a catalog of what it sees.
func (v View) Stats(k ext.Kind) *search.BM25Stats {
	w, c := v.w, v.c
	if w.All() {
		return c.b.Stats[k]
	}
	stats, _ := c.callerStats.Get(w.key, func() (map[ext.Kind]*search.BM25Stats, error) {
		lengths := w.fieldLengths()
		out := map[ext.Kind]*search.BM25Stats{}
		for _, kind := range ext.Kinds {
			out[kind] = &search.BM25Stats{DocCount: float64(max(1, w.Count(kind, c.b.Counts[kind]))), FieldCardinality: lengths}
		}
		return out, nil
	})
	return stats[k]
}
