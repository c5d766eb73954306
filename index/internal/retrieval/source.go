package retrieval

import (
	"context"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Source is what the pipeline reads of an open bundle, for one caller
// (package index implements it, one value a search): the postings,
// statistics, records and vectors of the bundle (Bundle), and what the
// caller may see of them (Sight).
type Source interface {
	Bundle
	Sight
}

// Bundle is an open bundle as retrieval reads it.
type Bundle interface {
	// Name names the bundle in errors ("index DIR").
	Name() string
	// Reader opens a reader of the postings (of the bundle's segment);
	// the caller closes it. Opening one cannot fail.
	Reader() *segmentfile.Reader
	// Stats are BM25's statistics of kind k for the caller: the items of
	// k it sees and the true total length of each field over their
	// documents.
	Stats(k ext.Kind) *search.BM25Stats
	// DocOrder is the catalog position of each document, BM25's
	// tie-break.
	DocOrder() store.DocOrder
	// Metas reads the meta records (label, server, name words) of the
	// documents ids, in that order.
	Metas(ids []string) ([]store.Meta, error)
	// Vectors are the items' vectors (nil: the bundle has none).
	Vectors() *vectors.Vectors
	// HostedQuery is the vector of the query's text in the space of the
	// bundle's hosted model (package hosted), within the server's
	// deadline; nil when the bundle has no hosted vectors, the server
	// embeds no queries, or the embedding failed or came late, and the
	// word vectors serve as without them. The note says which vectors
	// serve and why (empty when the bundle has no hosted vectors).
	HostedQuery(ctx context.Context, text string) (DenseQuery, string)
	// Requests are the items' written requests.
	Requests() *requests.Index
	// Separator joins a server's name and an item's own name in its
	// canonical name.
	Separator() string
}

// Sight is what one caller may see of a bundle. A caller who may not see
// every item learns nothing of the others' words: its query's words are
// looked up, corrected and weighed among the items it sees, BM25's idf
// counts them among those items (bm25.Scope), and the dense candidates
// are the nearest items it sees.
type Sight interface {
	// SeesAll reports whether the caller sees every item.
	SeesAll() bool
	// Sees reports whether the caller sees the ord-th item of kind k.
	Sees(k ext.Kind, ord int) bool
	// Count is the number of items of kind k the caller sees.
	Count(k ext.Kind) int
	// Visible returns the documents the caller sees, a bitmap per segment
	// of the bundle (read only); nil when it sees every one.
	Visible() ([]*roaring.Bitmap, error)
	// Outside returns the documents the caller may not see, deleted ones
	// included, a bitmap per segment (read only); nil when it sees every
	// one.
	Outside() ([]*roaring.Bitmap, error)
	// RequestView is what the caller sees of the written requests of kind
	// k (read only); nil when it sees every item.
	RequestView(k ext.Kind) *requests.View
}
