package index

import (
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/hosted"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Index is an open, read-only bundle. It is safe for concurrent use.
type Index struct {
	dir            string
	manifest       *Manifest
	bleve          *segmentfile.Segment // the bleve segment (package segmentfile)
	bm25           map[ext.Kind]*search.BM25Stats
	metas, objects *store.Store
	base           map[ext.Kind]int       // position of each kind's first record
	uris           uriTable               // resource URIs and templates, read on first use (lookup.go)
	visibility     *sight.Index           // nil: every item is public
	vectors        *vectors.Vectors       // item vectors for the dense score
	hosted         hostedState            // a hosted model's item vectors, if built with them (hosted.go)
	requests       *requests.Index        // the items' written requests, matched one by one
	docOrder       store.DocOrder         // catalog position of each document, BM25's tie-break
	filterNames    *retrieval.FilterNames // servers and annotation names, read on first use
	directory      directoryOnce          // servers by visibility set and their topics, read on first use (internal/directory)
	serverList     serverList             // the catalog's servers (servers.json), read on first use (serverlist.go)
	sight          *sight.Cache           // what each kind of caller sees, on first use
	tables         retrieval.Tables       // what retrieval reads as it is
	off            atomic.Uint64          // the retrieval rules switched off, a rules.Set (rules.go)
}

// bm25Stats gives BM25, for each kind, the number of its items and the
// true total length of each field (a kind's fields hold its items only).
func bm25Stats(m *Manifest) map[ext.Kind]*search.BM25Stats {
	stats := map[ext.Kind]*search.BM25Stats{}
	for _, k := range ext.Kinds {
		stats[k] = &search.BM25Stats{DocCount: float64(max(1, m.Counts[k])), FieldCardinality: m.FieldLengths}
	}
	return stats
}

var _ ext.Searcher = (*Index)(nil)

// Open opens the bundle at dir read-only, after checking its manifest and
// the sizes of its files (each file is checked where it is read). It
// writes nothing. Its first call builds the text analyzer (text.Analyzer),
// which queries are read with.
func Open(dir string) (x *Index, err error) {
	defer wrapf(&err, "opening index")
	defer recoverOpen(dir, &x, &err)
	if _, err := text.Analyzer(); err != nil {
		return nil, err
	}
	m, err := bundle.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := m.CheckFiles(dir, false); err != nil {
		return nil, err
	}
	x = &Index{dir: dir, manifest: m, bm25: bm25Stats(m), base: bundle.KindBases(m.Counts)}
	if x.visibility, err = sight.Expand(m.Visibility, m.Counts); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if x.bleve, err = bundle.OpenSegment(dir, x.docCount()); err != nil {
		return nil, fmt.Errorf("%s: bleve index: %w", dir, err)
	}
	if x.docOrder, err = store.ReadDocOrder(dir, x.docCount()); err != nil {
		x.Close()
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := x.openStores(); err != nil {
		x.Close()
		return nil, err
	}
	if x.vectors, err = vectors.Open(dir, x.docCount()); err != nil {
		x.Close()
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if x.requests, err = requests.Open(dir, x.docCount()); err != nil {
		x.Close()
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if x.hosted.vectors, err = hosted.Open(dir, m.Counts); err != nil {
		x.Close()
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	x.sight = sight.NewCache(sight.Bundle{Name: "index " + dir, Index: x.bleve, Requests: x.requests, Counts: m.Counts, Stats: x.bm25})
	x.filterNames = retrieval.NewFilterNames(x.visibility, m.Counts)
	x.tables = retrieval.Tables{Bundle: "index " + dir, Index: x.bleve, Order: x.docOrder, Vecs: x.vectors, Reqs: x.requests, NameJoiner: m.Separator}
	return x, nil
}

// openStores opens the record stores and checks they hold every item.
func (x *Index) openStores() (err error) {
	if x.metas, err = store.Open(x.dir, store.MetaStore); err != nil {
		return fmt.Errorf("%s: %w", x.dir, err)
	}
	if x.objects, err = store.Open(x.dir, store.ObjectStore); err != nil {
		return fmt.Errorf("%s: %w", x.dir, err)
	}
	if n := x.docCount(); x.metas.Count() != n || x.objects.Count() != n {
		return fmt.Errorf("%s: the record stores hold %d and %d items, the manifest counts %d", x.dir, x.metas.Count(), x.objects.Count(), n)
	}
	return nil
}

// Verify checks the bundle at dir as Open does and also the SHA-256 of
// every file, and returns its manifest.
func Verify(dir string) (*Manifest, error) {
	m, err := bundle.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	return m, m.CheckFiles(dir, true)
}

// Close releases the index.
func (x *Index) Close() error {
	var errs []error
	for _, s := range []*store.Store{x.metas, x.objects} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	if x.vectors != nil {
		errs = append(errs, x.vectors.Close())
	}
	if x.requests != nil {
		errs = append(errs, x.requests.Close())
	}
	if x.hosted.vectors != nil {
		errs = append(errs, x.hosted.vectors.Close())
	}
	if x.bleve != nil {
		errs = append(errs, x.bleve.Close())
	}
	return errors.Join(errs...)
}

// Version is the index version from the manifest.
func (x *Index) Version() string { return x.manifest.IndexVersion }

// RulesVersion is QueryID: the identity of the query-time tables,
// constants and models x searches with (ext.RulesVersioner).
func (*Index) RulesVersion() string { return QueryID }

// Manifest returns the bundle's manifest. The caller must not modify it.
func (x *Index) Manifest() *Manifest { return x.manifest }

// CursorKey returns the key that signs cursors for this bundle.
func (x *Index) CursorKey() []byte {
	key, err := hex.DecodeString(x.manifest.CursorKey)
	if err != nil {
		return nil
	}
	return key
}

// reader opens a reader of the index's postings; the caller closes it.
func (x *Index) reader() *segmentfile.Reader { return x.bleve.Reader() }
