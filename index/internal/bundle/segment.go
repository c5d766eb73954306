package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bdoc "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/util"
	bindex "github.com/blevesearch/bleve_index_api"
)

// The bundle's bleve index (bleve/) is written and read through scorch,
// bleve's index format, not through bleve's top-level package: importing
// that package starts analysis workers and publishes statistics through
// expvar (and so links net/http), and the index needs neither bleve's query
// engine nor its mapping to search (package bm25 reads the postings). The
// files are the ones bleve.NewBuilder writes — index_meta.json, and the
// segment and root.bolt in store/ with the mapping inside — so
// bleve.OpenUsing opens a bundle too (the tests compare scores with
// bleve's own that way).
const (
	segmentMetaFile = "index_meta.json"
	segmentMeta     = `{"storage":"scorch","index_type":"scorch"}`
	segmentStore    = "store"
)

// segmentBuilder writes a bleve index of one segment (bleve.NewBuilder's
// work: each document indexed once, no background goroutines).
type segmentBuilder struct {
	b    *scorch.Builder
	m    mapping.IndexMapping
	docs int
}

func newSegmentBuilder(path string, m *mapping.IndexMappingImpl) (*segmentBuilder, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	mappingJSON, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(path, segmentMetaFile), []byte(segmentMeta), 0o600); err != nil {
		return nil, err
	}
	b, err := scorch.NewBuilder(map[string]any{
		"path":     filepath.Join(path, segmentStore),
		"internal": map[string][]byte{string(util.MappingInternalKey): mappingJSON},
	})
	if err != nil {
		return nil, err
	}
	return &segmentBuilder{b: b, m: m}, nil
}

// index maps data to the document id and adds it.
func (s *segmentBuilder) index(id string, data any) error {
	doc := bdoc.NewDocument(id)
	if err := s.m.MapDocument(doc, data); err != nil {
		return err
	}
	if err := s.b.Index(doc); err != nil {
		return err
	}
	s.docs++
	return nil
}

// errNoDocuments is close's error when nothing was indexed: scorch's
// builder has no segment to write then (its Close would index past the end
// of an empty list).
var errNoDocuments = errors.New("no document was indexed: a segment holds at least one")

// close writes the segment; with no document indexed it writes nothing and
// says so (the build's folder, with the builder's files, is removed with
// the failed build).
func (s *segmentBuilder) close() error {
	if s.docs == 0 {
		return errNoDocuments
	}
	return s.b.Close()
}

// OpenSegment opens the bleve index at path read-only: nothing is written
// and no persister or merger runs, so a non-owner opens a read-only tree.
func OpenSegment(path string) (bindex.Index, error) {
	data, err := os.ReadFile(filepath.Join(path, segmentMetaFile))
	if err != nil {
		return nil, fmt.Errorf("cannot open index, metadata missing: %w", err)
	}
	var meta struct {
		Storage   string `json:"storage"`
		IndexType string `json:"index_type"`
	}
	if json.Unmarshal(data, &meta) != nil || meta.Storage != scorch.Name || meta.IndexType != scorch.Name {
		return nil, errors.New("index_meta.json: not a scorch index")
	}
	s, err := scorch.NewScorch(scorch.Name, map[string]any{
		"path": filepath.Join(path, segmentStore), "create_if_missing": false, "error_if_exists": false, "read_only": true,
	}, nil)
	if err != nil {
		return nil, err
	}
	if err := s.Open(); err != nil {
		return nil, err
	}
	return s, nil
}
