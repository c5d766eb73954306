package index

import (
	"context"
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// List implements ext.Searcher: the items of kind k in catalog order, of
// those the caller (ext.AccessFrom(ctx)) may see; offset counts those only.
func (x *Index) List(ctx context.Context, k ext.Kind, offset, limit int) (_ *ext.Page, err error) {
	defer recoverDamage(x.dir, &err)
	if w := x.visibility.Viewer(ext.AccessFrom(ctx)); !w.All() {
		return x.listVisible(ctx, w, k, offset, limit)
	}
	total := x.manifest.Counts[k]
	if offset >= total || limit <= 0 {
		return &ext.Page{}, nil
	}
	end := min(offset+limit, total)
	ids := make([]string, 0, end-offset)
	for n := offset; n < end; n++ {
		ids = append(ids, schema.DocID(k, n))
	}
	hits, err := x.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	return &ext.Page{Items: hits, More: end < total}, nil
}

// listVisible is List for a caller who sees some items only: it walks the
// in-memory visibility of the kind's items, which costs a few nanoseconds
// an item, and loads the page's objects.
func (x *Index) listVisible(ctx context.Context, w sight.Viewer, k ext.Kind, offset, limit int) (*ext.Page, error) {
	if limit <= 0 {
		return &ext.Page{}, nil
	}
	var ids []string
	seen, more := 0, false
	for n := range x.manifest.Counts[k] {
		if !w.Sees(k, n) {
			continue
		}
		if seen++; seen <= offset {
			continue
		}
		if len(ids) == limit {
			more = true
			break
		}
		ids = append(ids, schema.DocID(k, n))
	}
	hits, err := x.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	return &ext.Page{Items: hits, More: more}, nil
}

// fetch loads the objects of the documents ids, in that order.
func (x *Index) fetch(_ context.Context, ids []string) ([]ext.Hit, error) {
	hits := make([]ext.Hit, len(ids))
	metas, err := x.metasOf(ids)
	if err != nil {
		return nil, err
	}
	positions := make([]int, len(ids))
	for i, id := range ids {
		positions[i], _ = x.position(id) // metasOf checked every id
		hits[i].Server = metas[i].Server
	}
	objects, err := x.objects.GetAll(positions)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	for i := range hits {
		hits[i].Object = objects[i]
	}
	return hits, nil
}

// metaOf reads the name, server and name words of document id.
func (x *Index) metaOf(id string) (store.Meta, error) {
	metas, err := x.metasOf([]string{id})
	if err != nil {
		return store.Meta{}, err
	}
	return metas[0], nil
}

// metasOf reads the meta records of documents ids, in that order, reading
// each block of the store once.
func (x *Index) metasOf(ids []string) ([]store.Meta, error) {
	positions := make([]int, len(ids))
	for i, id := range ids {
		pos, err := x.position(id)
		if err != nil {
			return nil, err
		}
		positions[i] = pos
	}
	raws, err := x.metas.GetAll(positions)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	metas := make([]store.Meta, len(raws))
	for i, raw := range raws {
		if metas[i], err = store.DecodeMeta(raw); err != nil {
			return nil, fmt.Errorf("index %s: document %s: %w", x.dir, ids[i], err)
		}
	}
	return metas, nil
}
