package bm25

import (
	"cmp"
	"context"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"slices"

	"github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Contribution is the part of a document's BM25 score that one leaf (a
// term in a field) contributed.
type Contribution struct {
	Field, Term string
	Score       float64
	clause      int // the leaf's clause in the text
}

// Contributions splits the BM25 scores of documents ids by leaf of text,
// as Top computes them: each leaf's score times its field clause's share
// of leaves matched and the text's share of clauses matched, so that a
// document's contributions add up to its score. Each leaf's postings are
// advanced to the documents, in index order, so the cost is bounded by the
// documents and the query's terms. stats are as for Top; q's filters are
// not read (the documents passed them), its Scope and MaxPostings count as
// in Top.
func Contributions(ctx context.Context, r *segmentfile.Reader, stats *search.BM25Stats, q Query, ids []string) ([][]Contribution, error) {
	docs, err := pageDocs(r, ids)
	if err != nil {
		return nil, err
	}
	leaves, err := openLeaves(r, stats, q)
	defer closeLeaves(leaves)
	if err != nil {
		return nil, err
	}
	hits := make([][]Contribution, len(ids)) // by document: the leaves it matched
	for c, clause := range leaves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for l := range clause {
			if hits, err = matchLeaf(&clause[l], c, docs, hits); err != nil {
				return nil, err
			}
		}
	}
	for _, h := range hits {
		splitScore(h, leaves)
	}
	return hits, nil
}

// pageDoc is a document of a page: its number in the index and its place
// on the page.
type pageDoc struct {
	id  bindex.IndexInternalID
	num uint64
	at  int
}

// pageDocs returns the documents ids in index order.
func pageDocs(r *segmentfile.Reader, ids []string) ([]pageDoc, error) {
	docs := make([]pageDoc, len(ids))
	for i, id := range ids {
		iid, err := r.InternalID(id)
		if err != nil || iid == nil {
			return nil, fmt.Errorf("no document %s (%v)", id, err)
		}
		docs[i] = pageDoc{id: iid, num: DocNumber(iid), at: i}
	}
	slices.SortFunc(docs, func(a, b pageDoc) int { return cmp.Compare(a.num, b.num) })
	return docs, nil
}

// matchLeaf adds to hits the documents of docs that leaf l (the leaf
// spec of clause c) matches.
//
// The postings are advanced only past the last posting read: a page
// document before it holds no posting of the leaf, and advancing a
// bleve reader to a document before its own makes it open its postings
// again, which, for a long query explained at the largest page, cost as
// much again as the search.
func matchLeaf(l *scoredLeaf, c int, docs []pageDoc, hits [][]Contribution) ([][]Contribution, error) {
	var tfd bindex.TermFieldDoc
	var got *bindex.TermFieldDoc
	for _, d := range docs {
		if got != nil && DocNumber(got.ID) > d.num {
			continue
		}
		var err error
		if got, err = l.postings.Advance(d.id, &tfd); err != nil {
			return nil, fmt.Errorf("term %q in %s: %w", l.Term, l.Field, err)
		}
		if got == nil {
			break
		}
		if DocNumber(got.ID) == d.num {
			hits[d.at] = append(hits[d.at], Contribution{Field: l.Field, Term: l.Term, Score: l.score(got), clause: c})
		}
	}
	return hits, nil
}

// splitScore turns the scores of the leaves one document matched into its
// contributions, in place: each leaf's score carried by its clause's and
// the text's share of matches.
func splitScore(hits []Contribution, leaves [][]scoredLeaf) {
	matched := make([]int, len(leaves))
	clauses := 0
	for _, h := range hits {
		if matched[h.clause]++; matched[h.clause] == 1 {
			clauses++
		}
	}
	text := float64(clauses) / float64(len(leaves))
	for i, h := range hits {
		field := float64(matched[h.clause]) / float64(len(leaves[h.clause]))
		hits[i].Score = h.Score * field * text
	}
}
