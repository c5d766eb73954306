package index

import (
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"

	"github.com/mcpsearch/mcpsearch/ext"
)

func init() {
	// Bound the clauses one query may expand to. Queries are built from at
	// most ext.MaxQueryTerms words over a few fields, far below this.
	searcher.DisjunctionMaxClauseCount = 4096
}

// Index is an open, read-only bundle. It is safe for concurrent use.
type Index struct {
	dir      string
	manifest *Manifest
	bleve    bleve.Index
	bm25     *search.BM25Stats
}

// bm25Stats gives BM25 the true average length of each field.
func bm25Stats(m *Manifest) *search.BM25Stats {
	docs := 0
	for _, n := range m.Counts {
		docs += n
	}
	return &search.BM25Stats{DocCount: float64(docs), FieldCardinality: m.FieldLengths}
}

var _ ext.Catalog = (*Index)(nil)

// Open opens the bundle at dir read-only, after checking its manifest and
// the sizes of its files. It writes nothing.
func Open(dir string) (x *Index, err error) {
	defer wrapf(&err, "opening index")
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := m.checkFiles(dir, false); err != nil {
		return nil, err
	}
	bi, err := bleve.OpenUsing(filepath.Join(dir, "bleve"), map[string]any{"read_only": true})
	if err != nil {
		return nil, fmt.Errorf("%s: bleve index: %w", dir, err)
	}
	return &Index{dir: dir, manifest: m, bleve: bi, bm25: bm25Stats(m)}, nil
}

// Verify checks the bundle at dir as Open does and also the SHA-256 of
// every file, and returns its manifest.
func Verify(dir string) (*Manifest, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	return m, m.checkFiles(dir, true)
}

// Close releases the index.
func (x *Index) Close() error { return x.bleve.Close() }

// Version is the index version from the manifest.
func (x *Index) Version() string { return x.manifest.IndexVersion }

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
