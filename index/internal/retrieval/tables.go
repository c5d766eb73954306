package retrieval

import (
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"

	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Tables are the parts of an open bundle that retrieval reads as they
// are, held by value: a Source embeds them, so that the pipeline reads
// them here rather than calling back into the package that opened the
// bundle for each. What a Source must make for its caller (the sight, the
// meta records, a hosted query) stays its own.
type Tables struct {
	Bundle     string               // names the bundle in errors ("index DIR")
	Index      *segmentfile.Segment // the postings
	Order      store.DocOrder
	Vecs       *vectors.Vectors // nil: the bundle has none
	Reqs       *requests.Index  // nil: the bundle has none
	NameJoiner string           // the separator of a canonical name
}

// Name names the bundle in errors.
func (t Tables) Name() string { return t.Bundle }

// Reader opens a reader of the postings; the caller closes it.
func (t Tables) Reader() *segmentfile.Reader { return t.Index.Reader() }

// DocOrder is the catalog position of each document, BM25's tie-break.
func (t Tables) DocOrder() store.DocOrder { return t.Order }

// Vectors are the items' vectors.
func (t Tables) Vectors() *vectors.Vectors { return t.Vecs }

// Requests are the items' written requests.
func (t Tables) Requests() *requests.Index { return t.Reqs }

// Separator joins a server's name and an item's own name.
func (t Tables) Separator() string { return t.NameJoiner }
