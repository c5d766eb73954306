package segmentfile

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bdoc "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// words are the vocabulary of the test documents.
var words = strings.Fields("create delete list get update note file page screenshot weather city forecast issue branch merge request user team channel message")

// testDocs maps n documents of two text fields, seeded, with the mapping
// m; each call makes new ones (analysis fills them in).
func testDocs(t *testing.T, m *mapping.IndexMappingImpl, n int) []bindex.Document {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	text := func(k int) string {
		out := make([]string, 1+rng.IntN(k))
		for i := range out {
			out[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(out, " ")
	}
	docs := make([]bindex.Document, n)
	for i := range docs {
		d := bdoc.NewDocument(fmt.Sprintf("tool/%d", i))
		if err := m.MapDocument(d, map[string]any{"name": text(3), "description": text(12)}); err != nil {
			t.Fatal(err)
		}
		docs[i] = d
	}
	return docs
}

func testMapping() *mapping.IndexMappingImpl {
	m := mapping.NewIndexMapping()
	m.DefaultAnalyzer = "standard"
	return m
}

// TestSegmentIsScorchs: a segment Write makes holds what scorch's builder
// writes for the same documents — every term of every field, with the
// same documents, frequencies and norms, and every id — but numbers the
// documents in the order given (scorch: in Go map order within a batch),
// across batches and merges of merges.
func TestSegmentIsScorchs(t *testing.T) {
	t.Parallel()
	for _, batch := range []int{batchSize, 7} { // 3 batches, one merge; 220, merged in 25 rounds
		t.Run(fmt.Sprint(batch), func(t *testing.T) {
			t.Parallel()
			segmentIsScorchs(t, batch)
		})
	}
}

func segmentIsScorchs(t *testing.T, batch int) {
	m := testMapping()
	const n = 2*batchSize + 537
	dir := t.TempDir()
	path := filepath.Join(dir, "seg.zap")
	if err := write(path, testDocs(t, m, n), batch); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ours := s.Reader()
	theirs := scorchReader(t, m, testDocs(t, m, n))
	if got, _ := ours.DocCount(); got != n {
		t.Fatalf("%d documents, want %d", got, n)
	}
	for num := range uint64(n) {
		id, err := ours.ExternalID(internal(num))
		if err != nil || id != fmt.Sprintf("tool/%d", num) {
			t.Fatalf("document %d: id %q (%v), want tool/%d: documents not in the order given", num, id, err, num)
		}
		back, err := ours.InternalID(id)
		if err != nil || string(back) != string(internal(num)) {
			t.Fatalf("InternalID(%s) = %v (%v), want %d", id, back, err, num)
		}
	}
	for _, field := range []string{"name", "description", "_id"} {
		compareField(t, ours, theirs, field)
	}
}

// compareField compares every term of field in ours and theirs.
func compareField(t *testing.T, ours *Reader, theirs bindex.IndexReader, field string) {
	t.Helper()
	od, err := ours.FieldDict(field)
	if err != nil {
		t.Fatal(err)
	}
	td, err := theirs.FieldDict(field)
	if err != nil {
		t.Fatal(err)
	}
	defer td.Close()
	terms := 0
	for {
		o, err1 := od.Next()
		th, err2 := td.Next()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if o == nil || th == nil {
			if o != th {
				t.Fatalf("field %s: the dictionaries end apart (%v, %v)", field, o, th)
			}
			break
		}
		if o.Term != th.Term {
			t.Fatalf("field %s: term %q against scorch's %q", field, o.Term, th.Term)
		}
		if n := comparePostings(t, ours, theirs, field, o.Term); uint64(n) != o.Count {
			t.Fatalf("field %s: term %q: the dictionary counts %d documents, its postings %d", field, o.Term, o.Count, n)
		}
		terms++
	}
	if terms == 0 {
		t.Fatalf("field %s has no terms", field)
	}
}

// comparePostings compares the postings of term by document id and
// returns how many there are. (Scorch's dictionary counts are not
// compared: zap's iterator gives every term after one of a single posting
// a count of one, which FieldDict corrects.)
func comparePostings(t *testing.T, ours *Reader, theirs bindex.IndexReader, field, term string) int {
	t.Helper()
	byID := func(r interface {
		TermFieldReader(context.Context, []byte, string, bool, bool, bool) (bindex.TermFieldReader, error)
		ExternalID(bindex.IndexInternalID) (string, error)
	}) map[string][2]float64 {
		tfr, err := r.TermFieldReader(context.Background(), []byte(term), field, true, true, false)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][2]float64{}
		for {
			d, err := tfr.Next(nil)
			if err != nil {
				t.Fatal(err)
			}
			if d == nil {
				return out
			}
			id, err := r.ExternalID(d.ID)
			if err != nil {
				t.Fatal(err)
			}
			out[id] = [2]float64{float64(d.Freq), d.Norm}
		}
	}
	o, th := byID(ours), byID(theirs)
	if len(o) != len(th) {
		t.Fatalf("%s:%s: %d postings, scorch %d", field, term, len(o), len(th))
	}
	for id, v := range th {
		if o[id] != v {
			t.Fatalf("%s:%s: %s has frequency and norm %v, scorch %v", field, term, id, o[id], v)
		}
	}
	return len(o)
}

// scorchReader builds docs with scorch's builder, as bundles were built
// before, and opens a reader of it.
func scorchReader(t *testing.T, m *mapping.IndexMappingImpl, docs []bindex.Document) bindex.IndexReader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store")
	b, err := scorch.NewBuilder(map[string]any{"path": path})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := b.Index(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := scorch.NewScorch(scorch.Name, map[string]any{"path": path, "read_only": true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r, err := s.Reader()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func internal(num uint64) bindex.IndexInternalID {
	id := make(bindex.IndexInternalID, 8)
	for i := range 8 {
		id[7-i] = byte(num >> (8 * i))
	}
	return id
}

// TestAdvance: Advance finds the first posting at or after a document, and
// a reader's Next continues from it.
func TestAdvance(t *testing.T) {
	t.Parallel()
	m := testMapping()
	path := filepath.Join(t.TempDir(), "seg.zap")
	if err := Write(path, testDocs(t, m, 300)); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := s.Reader()
	all := func() []uint64 {
		tfr, _ := r.TermFieldReader(context.Background(), []byte("note"), "description", true, true, false)
		var out []uint64
		for d, _ := tfr.Next(nil); d != nil; d, _ = tfr.Next(nil) {
			out = append(out, num(d.ID))
		}
		return out
	}()
	if len(all) < 10 {
		t.Fatalf("%d postings of note", len(all))
	}
	tfr, _ := r.TermFieldReader(context.Background(), []byte("note"), "description", true, true, false)
	target := all[len(all)/2] - 1
	d, err := tfr.Advance(internal(target), nil)
	if err != nil || d == nil || num(d.ID) != all[len(all)/2] {
		t.Fatalf("Advance(%d): %v (%v), want %d", target, d, err, all[len(all)/2])
	}
	if d, _ := tfr.Next(nil); d == nil || num(d.ID) != all[len(all)/2+1] {
		t.Fatalf("Next after Advance: %v, want %d", d, all[len(all)/2+1])
	}
	// backwards, and to the document last returned, as explanations ask
	for _, i := range []int{2, 2, 0} {
		d, err := tfr.Advance(internal(all[i]), nil)
		if err != nil || d == nil || num(d.ID) != all[i] {
			t.Fatalf("Advance back to %d: %v (%v)", all[i], d, err)
		}
	}
	if _, err := r.TermFieldReader(context.Background(), []byte("note"), "description", true, true, true); err == nil {
		t.Error("term vectors asked for and given")
	}
}

func num(id bindex.IndexInternalID) uint64 {
	var n uint64
	for _, b := range id {
		n = n<<8 | uint64(b)
	}
	return n
}

// TestWriteErrors: no documents, a document without an id and a path in
// a missing directory are errors, and nothing is left behind.
func TestWriteErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Write(filepath.Join(dir, "seg.zap"), nil); !errors.Is(err, ErrNoDocuments) {
		t.Errorf("no documents: %v", err)
	}
	d := bdoc.NewDocument("")
	if err := Write(filepath.Join(dir, "seg.zap"), []bindex.Document{d}); err == nil || !strings.Contains(err.Error(), "without an id") {
		t.Errorf("a document without an id: %v", err)
	}
	if err := Write(filepath.Join(dir, "missing", "seg.zap"), testDocs(t, testMapping(), 3)); err == nil {
		t.Error("a path in a missing directory was written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if _, err := Open(filepath.Join(dir, "seg.zap")); err == nil {
		t.Error("a missing segment opened")
	}
}

// segmentsSink keeps what Segments returns, as its callers do, so that the
// compiler cannot keep it on the stack.
var segmentsSink []segment.Segment

// TestSegmentsAllocateNothing: a search asks for the reader's segments
// once a term it looks up (bm25's scoped postings, the term dictionaries):
// the answer is made at open, not again each time.
func TestSegmentsAllocateNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seg.zap")
	if err := Write(path, testDocs(t, testMapping(), 3)); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := s.Reader()
	if n := testing.AllocsPerRun(100, func() { segmentsSink = r.Segments() }); n != 0 {
		t.Errorf("Segments allocates %v times a call, want none", n)
	}
	if got := r.Segments(); len(got) != 1 || got[0] != r.Segment() {
		t.Errorf("Segments %v, want the one segment", got)
	}
}
