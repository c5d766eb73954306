package index

import (
	"context"
	"sort"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

var _ ext.Selector = (*Index)(nil)

// Select implements ext.Selector: the items of kind k named name exactly,
// of those the caller (ext.AccessFrom(ctx)) may see, in catalog order.
// Tools and prompts are found by the binary search Resolve uses; resources
// and templates in the URI table, read once. Whether the name is unknown
// or names hidden items only, the lookup is the same and finds nothing.
func (x *Index) Select(ctx context.Context, k ext.Kind, name string) (_ []ext.Hit, err error) {
	defer recoverDamage(x.dir, &err)
	w := x.visibility.Viewer(ext.AccessFrom(ctx))
	ordinals, err := x.named(k, name)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, n := range ordinals {
		if w.Sees(k, n) {
			ids = append(ids, schema.DocID(k, n))
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return x.fetch(ctx, ids)
}

// named returns the ordinals of the items of kind k whose key is name,
// whoever may see them.
func (x *Index) named(k ext.Kind, name string) ([]int, error) {
	switch k {
	case ext.KindTool, ext.KindPrompt:
		n, ok, err := x.findName(k, name)
		if !ok {
			return nil, err
		}
		return []int{n}, nil
	case ext.KindResource, ext.KindResourceTemplate:
		t := &x.uris
		t.once.Do(func() { t.err = x.loadURIs() })
		if k == ext.KindResource {
			return t.resources[name], t.err
		}
		return t.byTemplate[name], t.err
	}
	return nil, nil
}

// findName finds, by binary search of the meta records (sorted by
// canonical name), the ordinal of the tool or prompt whose canonical name
// is name.
func (x *Index) findName(k ext.Kind, name string) (int, bool, error) {
	var firstErr error
	canonical := func(n int) string {
		m, err := x.metaOf(schema.DocID(k, n))
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return m.Server + x.manifest.Separator + m.Label
	}
	count := x.manifest.Counts[k]
	n := sort.Search(count, func(n int) bool { return canonical(n) >= name })
	if firstErr != nil {
		return 0, false, firstErr
	}
	return n, n < count && canonical(n) == name, firstErr
}
