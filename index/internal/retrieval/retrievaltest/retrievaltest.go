// Package retrievaltest is for tests only: it makes a retrieval.Source
// of a catalog given in memory (server files as strings, or a
// catalog.Catalog built in Go), so that the retrieval pipeline's tests
// live beside it instead of in package index, the only package that opens
// bundles for the product.
//
// A Bundle is built by the bundle builder itself (bundle.Build: the same
// documents, segment writer, record stores, written requests, word
// vectors, visibility table and manifest as a product build) and read by
// the product's own readers (bundle.OpenSegment, store, vectors,
// requests, sight), wired as index.Open wires them; only the hosted
// model's query vectors are left out (HostedQuery answers none, as for a
// bundle built without them). TestSameAsIndex proves that every part a
// search reads answers as index.Open's source of the same catalog.
//
// Why a directory and not bytes: every reader of a bundle maps its file
// (segmentfile.Open, vectors.Open, requests.Open, store.Open) and none
// reads from memory; teaching four formats to read bytes for tests alone
// would give the tests a path the product never takes. So the bundle is
// written to a directory of this package's own, made under the system's
// temporary directory and removed when the test ends: the caller manages
// nothing, and a few items build in milliseconds.
package retrievaltest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Bundle is a built and opened bundle of a catalog; closed, and its
// directory removed, when the test that made it ends. Safe for concurrent
// use, as an open index is.
type Bundle struct {
	Catalog  *catalog.Catalog
	Manifest *bundle.Manifest
	// Off are the rules switched off in Search, Page and Names, as
	// index.Index.SetRulesOff switches them (zero: none); set it before
	// searching, not beside searches.
	Off      rules.Set
	dir      string
	segment  *segmentfile.Segment
	metas    *store.Store
	vectors  *vectors.Vectors
	requests *requests.Index
	base     map[ext.Kind]int
	vis      *sight.Index
	sight    *sight.Cache
	names    *retrieval.FilterNames
	tables   retrieval.Tables
}

// Files builds the catalog of server files given as name → JSON content
// (as a catalog directory holds them, read by catalog.LoadFS).
func Files(tb testing.TB, files map[string]string) *Bundle {
	tb.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content), Mode: 0o644}
	}
	cat, err := catalog.LoadFS(fsys, "memory", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return New(tb, cat)
}

// Dir builds the catalog of the catalog directory dir.
func Dir(tb testing.TB, dir string) *Bundle {
	tb.Helper()
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return New(tb, cat)
}

// New builds cat and opens it; the test must not change cat after.
func New(tb testing.TB, cat *catalog.Catalog) *Bundle {
	tb.Helper()
	b, err := Build(cat)
	if err != nil {
		tb.Fatalf("retrievaltest: %v", err)
	}
	tb.Cleanup(func() {
		if err := b.Close(); err != nil {
			tb.Errorf("retrievaltest: closing: %v", err)
		}
	})
	return b
}

// Build is New for a bundle that outlives one test (shared by a test
// binary's tests): the caller closes it.
func Build(cat *catalog.Catalog) (_ *Bundle, err error) {
	tmp, err := os.MkdirTemp("", "mcpsearch-retrievaltest-")
	if err != nil {
		return nil, err
	}
	b := &Bundle{Catalog: cat, dir: tmp}
	defer func() {
		if err != nil {
			b.Close()
		}
	}()
	dir := filepath.Join(tmp, "bundle")
	if b.Manifest, err = bundle.Build(cat, dir, nil); err != nil {
		return nil, err
	}
	return b, b.open(dir)
}

// open opens the parts of the bundle at dir as index.Open does.
func (b *Bundle) open(dir string) (err error) {
	m, n := b.Manifest, len(b.Catalog.Items)
	b.base = bundle.KindBases(m.Counts)
	if b.vis, err = sight.Expand(m.Visibility, m.Counts); err != nil {
		return err
	}
	if b.segment, err = bundle.OpenSegment(dir, n); err != nil {
		return err
	}
	order, err := store.ReadDocOrder(dir, n)
	if err != nil {
		return err
	}
	if b.metas, err = store.Open(dir, store.MetaStore); err != nil {
		return err
	}
	if b.vectors, err = vectors.Open(dir, n); err != nil {
		return err
	}
	if b.requests, err = requests.Open(dir, n); err != nil {
		return err
	}
	b.tables = retrieval.Tables{Bundle: "index " + dir, Index: b.segment, Order: order, Vecs: b.vectors, Reqs: b.requests, NameJoiner: m.Separator}
	b.sight = sight.NewCache(b.sightOf())
	b.names = retrieval.NewFilterNames(b.vis, m.Counts)
	return nil
}

// sightOf is what the callers' sights are made from.
func (b *Bundle) sightOf() sight.Bundle {
	return sight.Bundle{Name: b.tables.Bundle, Index: b.segment, Requests: b.requests, Counts: b.Manifest.Counts, Stats: bm25Stats(b.Manifest)}
}

// bm25Stats are BM25's statistics of every item of each kind, as
// index.Open makes them from the manifest.
func bm25Stats(m *bundle.Manifest) map[ext.Kind]*search.BM25Stats {
	stats := map[ext.Kind]*search.BM25Stats{}
	for _, k := range ext.Kinds {
		stats[k] = &search.BM25Stats{DocCount: float64(max(1, m.Counts[k])), FieldCardinality: m.FieldLengths}
	}
	return stats
}

// Close closes what was opened and removes the directory.
func (b *Bundle) Close() error {
	var errs []error
	if b.metas != nil {
		errs = append(errs, b.metas.Close())
	}
	if b.vectors != nil {
		errs = append(errs, b.vectors.Close())
	}
	if b.requests != nil {
		errs = append(errs, b.requests.Close())
	}
	if b.segment != nil {
		errs = append(errs, b.segment.Close())
	}
	errs = append(errs, os.RemoveAll(b.dir))
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Source is the bundle as a caller with access a sees it, what the
// pipeline reads.
func (b *Bundle) Source(a ext.Access) retrieval.Source {
	return source{b, b.tables, b.sight.View(b.vis.Viewer(a))}
}

// Filtering is what a caller with access a's filters are checked and
// applied with (retrieval.Retrieve).
func (b *Bundle) Filtering(a ext.Access) retrieval.Filtering {
	return retrieval.Filtering{Names: b.names, Viewer: b.vis.Viewer(a), Access: a}
}

// FilterNames are the bundle's filter names, read on first use.
func (b *Bundle) FilterNames() *retrieval.FilterNames { return b.names }

// Reopened is b as a fresh open of its bundle finds it: what an open
// index reads on first use (the filter names, each caller's sight) not
// read yet. It shares b's files, which b's Close closes.
func (b *Bundle) Reopened() *Bundle {
	c := *b
	c.names = retrieval.NewFilterNames(b.vis, b.Manifest.Counts)
	c.sight = sight.NewCache(b.sightOf())
	return &c
}

// source is one caller's sight of a Bundle (retrieval.Source).
type source struct {
	b *Bundle
	retrieval.Tables
	sight.View
}

var _ retrieval.Source = source{}

// Metas reads the meta records of the documents ids, in that order.
func (s source) Metas(ids []string) ([]store.Meta, error) {
	positions := make([]int, len(ids))
	for i, id := range ids {
		k, n, ok := schema.ParseDocID(id)
		if !ok || n < 0 || n >= s.b.Manifest.Counts[k] {
			return nil, fmt.Errorf("%s: no document %q", s.Name(), id)
		}
		positions[i] = s.b.base[k] + n
	}
	raws, err := s.b.metas.GetAll(positions)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	metas := make([]store.Meta, len(raws))
	for i, raw := range raws {
		if metas[i], err = store.DecodeMeta(raw); err != nil {
			return nil, fmt.Errorf("%s: document %s: %w", s.Name(), ids[i], err)
		}
	}
	return metas, nil
}

// HostedQuery is none: a Bundle has no hosted vectors.
func (source) HostedQuery(context.Context, string) (retrieval.DenseQuery, string) { return nil, "" }

// Search reads and retrieves q as index.Search does for a caller with
// access a (filter checked, items ranked, the no-match test), before the
// page is loaded.
func (b *Bundle) Search(ctx context.Context, q ext.Query, a ext.Access) (*retrieval.Result, error) {
	written := q.Text
	q.Text = retrieval.ReadText(q.Text)
	src := b.Source(a)
	r, err := retrieval.Read(src, q, b.Off)
	if err != nil {
		return nil, err
	}
	r.Written = written
	return retrieval.Retrieve(ctx, src, r, b.Filtering(a))
}

// Item is the catalog's item of document id (nil when none is).
func (b *Bundle) Item(id string) *catalog.Item {
	k, n, ok := schema.ParseDocID(id)
	if !ok || n < 0 || n >= b.Manifest.Counts[k] {
		return nil
	}
	return &b.Catalog.Items[b.base[k]+n] // the stores' order, the catalog's
}

// Names are the canonical names of the first n items that q finds for a
// caller with access a (none when nothing fits).
func (b *Bundle) Names(tb testing.TB, q ext.Query, a ext.Access, n int) []string {
	tb.Helper()
	res, err := b.Search(context.Background(), q, a)
	if err != nil {
		tb.Fatal(err)
	}
	if res.Empty {
		return nil
	}
	var names []string
	for _, c := range res.Candidates[:min(n, len(res.Candidates))] {
		names = append(names, b.Item(c.ID).Name)
	}
	return names
}

// Page is the page index.Search answers q for a caller with access a: the
// candidates q's offset and limit ask for, with their servers, objects
// (the catalog's, which the bundle's object store holds) and scores, the
// hint on the first page, the explanations asked for, and the decision.
func (b *Bundle) Page(ctx context.Context, q ext.Query, a ext.Access) (*ext.Page, error) {
	res, err := b.Search(ctx, q, a)
	if err != nil {
		return nil, err
	}
	explain := res.Decision.Explanation()
	if res.Empty {
		return &ext.Page{Hint: res.Hint, Explain: explain}, nil
	}
	cands := res.Candidates
	if q.Offset >= len(cands) {
		return &ext.Page{Explain: explain}, nil
	}
	cands = cands[q.Offset:min(len(cands), q.Offset+q.Limit)]
	page := &ext.Page{More: len(res.Candidates) > q.Offset+q.Limit, Explain: explain}
	if q.Offset == 0 {
		page.Hint = res.Hint
	}
	for _, c := range cands {
		it := b.Item(c.ID)
		page.Items = append(page.Items, ext.Hit{Server: it.Server, Object: it.Object, Score: c.Score})
	}
	if q.Explain {
		explained, err := retrieval.Explain(ctx, b.Source(a), q.Kind, res, cands)
		if err != nil {
			return nil, err
		}
		for i, e := range explained {
			page.Items[i].Explain = e
		}
	}
	return page, nil
}
