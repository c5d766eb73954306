package retrieval

import (
	"context"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// maxPostings bounds the postings a search of kind walks
// (bm25.Query.MaxPostings): PostingsPerItem per item of the kind that
// the caller sees, at least MinPostings. The postings counted are the
// caller's too (bm25.Scope), so which words of a long query of common
// words are left out is what it would be over a catalog of those items.
func (x searcher) maxPostings(kind ext.Kind) int {
	return max(PostingsPerItem*x.Count(kind), MinPostings)
}

// candidates runs the BM25 query for the best n items (package bm25) and
// reads the meta records of the re-ranking window.
func (x searcher) candidates(ctx context.Context, kind ext.Kind, bq bm25.Query, n int) ([]rank.Candidate, error) {
	cands, err := x.bm25Top(ctx, kind, bq, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.Name(), err)
	}
	if err := x.nameCandidates(cands[:min(len(cands), RerankWindow)]); err != nil { // only re-ranking reads names
		return nil, err
	}
	return cands, nil
}

// nameCandidates reads the label, server and name words of cands.
func (x searcher) nameCandidates(cands []rank.Candidate) error {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	metas, err := x.Metas(ids)
	if err != nil {
		return err
	}
	for i, m := range metas {
		cands[i].Label, cands[i].Server, cands[i].Words = m.Label, m.Server, strings.Fields(m.Words)
	}
	return nil
}

// bm25Top returns the n best items of kind for q by BM25, best first,
// ties in catalog order (bm25.Top).
func (x searcher) bm25Top(ctx context.Context, kind ext.Kind, q bm25.Query, n int) ([]rank.Candidate, error) {
	r, docs, err := x.readerOfDocs()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	top, err := bm25.Top(ctx, r, docs, x.Stats(kind), q, n, x.DocOrder())
	if err != nil {
		return nil, err
	}
	return CandidatesOf(r, top)
}

// candidatesOf names the documents of top.
func CandidatesOf(r *segmentfile.Reader, top []bm25.Doc) ([]rank.Candidate, error) {
	cands := make([]rank.Candidate, len(top))
	for i, d := range top {
		ext, err := r.ExternalID(bm25.InternalID(uint64(d.Num)))
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", d.Num, err)
		}
		cands[i] = rank.Candidate{ID: ext, BM25: d.Score, Score: d.Score}
	}
	return cands, nil
}

// readerOfDocs opens a reader of the index's postings, as reader does, and
// returns the number of documents it holds.
func (x searcher) readerOfDocs() (*segmentfile.Reader, int, error) {
	r := x.Reader()
	docs, err := r.DocCount()
	if err != nil {
		r.Close()
		return nil, 0, err
	}
	return r, int(docs), nil
}
