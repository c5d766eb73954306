package bundle

import (
	"fmt"
	"os"
	"path/filepath"

	bdoc "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
)

// The bundle's bleve index is one segment, bleve/segment.zap (zap v16,
// bleve's segment format), written and read by package segmentfile rather
// than through scorch, bleve's index of many segments: a bundle is one
// immutable segment, and scorch's package initialisation alone cost every
// cold start 2.5–5 ms; nor through bleve's top-level package, which starts
// analysis workers and publishes statistics through expvar (and so links
// net/http). The index needs neither bleve's query engine nor its mapping
// to search (package bm25 reads the postings). Bundles before format 17
// held a scorch index (index_meta.json, store/root.bolt beside the
// segment); the tests compare scores with bleve's own on an index bleve
// builds of the same documents.
const (
	segmentDir  = "bleve"
	SegmentFile = "segment.zap"
)

// SegmentPath is the path of the segment of the bundle at dir.
func SegmentPath(dir string) string { return filepath.Join(dir, segmentDir, SegmentFile) }

// segmentBuilder maps documents and writes them into one segment, in the
// order they are added.
type segmentBuilder struct {
	w *segmentfile.Writer
	m mapping.IndexMapping
}

// newSegmentBuilder starts the segment of the bundle being built in dir.
func newSegmentBuilder(dir string, m *mapping.IndexMappingImpl) (*segmentBuilder, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, segmentDir), 0o700); err != nil {
		return nil, err
	}
	w, err := segmentfile.Create(SegmentPath(dir))
	if err != nil {
		return nil, err
	}
	return &segmentBuilder{w: w, m: m}, nil
}

// index maps data to the document id and adds it.
func (s *segmentBuilder) index(id string, data any) error {
	doc := bdoc.NewDocument(id)
	if err := s.m.MapDocument(doc, data); err != nil {
		return err
	}
	return s.w.Add(doc)
}

// close writes the segment; with no document indexed it writes nothing and
// says so (segmentfile.ErrNoDocuments).
func (s *segmentBuilder) close() error { return s.w.Close() }

// abort removes what was written of the segment.
func (s *segmentBuilder) abort() error { return s.w.Abort() }

// OpenSegment opens the segment of the bundle at dir, read-only, and
// checks that it holds docs documents: zap trusts the count its footer
// holds, and every reader sizes its sets by it (a damaged count made a
// search allocate terabytes: a fault no recover catches).
func OpenSegment(dir string, docs int) (*segmentfile.Segment, error) {
	s, err := segmentfile.Open(SegmentPath(dir))
	if err != nil {
		return nil, err
	}
	if n := s.Count(); n != uint64(docs) {
		s.Close()
		return nil, fmt.Errorf("%s/%s holds %d documents, the manifest counts %d: the segment is damaged (mcpsearch verify checks every file's hash)", segmentDir, SegmentFile, n, docs)
	}
	return s, nil
}
