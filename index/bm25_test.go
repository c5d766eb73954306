package index

import (
	"slices"

	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// bm25Queries cover the query shapes (retrievaltest.BM25Shapes) and the
// benchmarks' mix; BM25's own tests (that it scores as bleve does) are
// retrieval's (internal/retrieval/bm25_test.go).
var bm25Queries = append(slices.Clone(retrievaltest.BM25Shapes), benchQueries...)
