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
	for i := range d.snap.Segments() {
		if d.pl, err = dicts[i].PostingsList([]byte(term), nil, d.pl); err != nil {
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

// scope is what BM25 reads for the caller (bm25.Scope): the items it
// sees, and the documents outside them, which no posting list it reads
// holds; nil for one who sees every item.
func (x searcher) scope(kind ext.Kind) (*bm25.Scope, error) {
	outside, err := x.Outside()
	if err != nil || outside == nil {
		return nil, err
	}
	return &bm25.Scope{Count: x.Count(kind), Outside: outside}, nil
}
