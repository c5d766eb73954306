package retrieval

import (
	"context"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// DenseQuery is a query's vector in a space the items have vectors in:
// the word vectors (package vectors) or, when the bundle has them and the
// server embeds queries, a hosted model's (package hosted, through
// Bundle.HostedQuery). The dense step (dense.go) asks it for the items
// nearest to the query and for the cosines of the window's.
type DenseQuery interface {
	// Nearest returns the k items of kind nearest the query, best first,
	// of those keep keeps (nil: all).
	Nearest(kind ext.Kind, k int, keep func(ord int) bool) ([]vectors.Hit, error)
	// Cosines returns the query's cosine with each item of kind by
	// ordinal.
	Cosines(kind ext.Kind, ords []int) ([]float32, error)
}

// wordQuery is a query vector of the word vectors.
type wordQuery struct {
	v *vectors.Vectors
	q *vectors.Query
}

func (w wordQuery) Nearest(kind ext.Kind, k int, keep func(ord int) bool) ([]vectors.Hit, error) {
	return w.v.Nearest(kind, w.q, k, keep)
}

func (w wordQuery) Cosines(kind ext.Kind, ords []int) ([]float32, error) {
	return w.v.Cosines(kind, w.q, ords)
}

// wordVector is the word vectors' vector of text, or nil when no word of
// it has one.
func (x searcher) wordVector(text string) DenseQuery {
	q := x.Vectors().Query(text)
	if q == nil {
		return nil
	}
	return wordQuery{x.Vectors(), q}
}

// queryVector is the vector the dense step compares the items with: the
// hosted model's vector of the caller's text (r.Query.Text) when the
// bundle gives one, else the word vectors' of the searched text (nil when
// none of its words has one). The note says which, and why the hosted
// model's was not used (empty for a bundle without hosted vectors).
func (x searcher) queryVector(ctx context.Context, r *Request) (DenseQuery, string) {
	if hq, note := x.HostedQuery(ctx, r.Query.Text); hq != nil || note != "" {
		if hq != nil {
			return hq, note
		}
		return x.wordVector(r.Searched), note
	}
	return x.wordVector(r.Searched), ""
}
