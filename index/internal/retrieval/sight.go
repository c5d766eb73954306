package retrieval

import (
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
)

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
		if err := bm25.OrInto(d.pl, d.scratch); err != nil {
			return 0, err
		}
		n += int(d.scratch.AndCardinality(d.visible[i]))
	}
	return n, nil
}

// scope is what BM25 counts idf over for the caller (bm25.Scope), and the function that closes what it reads; nil for one
// who sees every item.
func (x searcher) scope(kind ext.Kind) (*bm25.Scope, func(), error) {
	visible, err := x.Visible()
	if err != nil || visible == nil {
		return nil, func() {}, err
	}
	r, err := x.Reader()
	if err != nil {
		return nil, func() {}, err
	}
	count := x.Count(kind)
	d, err := newTermDicts(r, kind, visible, count)
	if err != nil {
		r.Close()
		return nil, func() {}, err
	}
	return &bm25.Scope{Count: count, DocFreq: d.visibleFreq}, func() { r.Close() }, nil
}
