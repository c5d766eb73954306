package bm25

import (
	"context"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"sync"
	"unsafe"

	"github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// bm25Scratch holds the accumulators of one search, sized to the index's
// documents; they are all zero between searches.
//
// A cold start's first search pays for every page of them it touches
// (at 100,000 documents, 2.2 MB), so they are few: once the clauses are
// scored, fieldSum, zero again, holds the bonuses; touched and inField
// are made as large as they can grow, so that appending never copies
// them, and only what is written is paged in.
type bm25Scratch struct {
	fieldSum   []float64 // score of the current field clause; after the clauses, Query.Bonus
	fieldHits  []uint16  // leaves of the current field clause matched
	textSum    []float64 // sum of the field clauses' scores
	clauseHits []uint16  // field clauses matched
	allowed    Set       // filters: the documents they let through
	given      *Set      // Query.Allowed, read in place of allowed when set
	touched    []uint32  // documents with a field clause matched or a bonus
	inField    []uint32  // documents matched in the current field clause
}

var scratchPool sync.Pool

func getScratch(docs int) *bm25Scratch {
	if s, ok := scratchPool.Get().(*bm25Scratch); ok && len(s.textSum) == docs {
		return s
	}
	s := &bm25Scratch{
		fieldSum: make([]float64, docs), fieldHits: make([]uint16, docs),
		textSum: make([]float64, docs), clauseHits: make([]uint16, docs),
		touched: make([]uint32, 0, docs), inField: make([]uint32, 0, docs),
	}
	writePages(s.fieldSum)
	writePages(s.fieldHits)
	writePages(s.textSum)
	writePages(s.clauseHits)
	return s
}

// writePages writes a zero into each page of s, which is zero: memory
// fresh from the system is paged in by its first access, and a first
// access that reads (scoreClause reads each accumulator before it adds)
// maps the shared zero page, so that the write after it faults again, to
// copy it, and flushes the page from every processor's TLB. Written
// first, each page faults once, with nothing to flush (at 100,000
// documents, 540 pages: the first search of a cold start 0.4 ms faster,
// `mcpsearch-lab bench coldstart`).
func writePages[T any](s []T) {
	var zero T
	step := max(1, pageSize/max(1, int(unsafe.Sizeof(zero))))
	for i := 0; i < len(s); i += step {
		s[i] = zero
	}
}

// pageSize is the smallest page of the systems served (4 KiB); where
// pages are larger, writePages writes some twice.
const pageSize = 4096

// ctxCheckEvery is how many postings pass between checks of the deadline.
const ctxCheckEvery = 4096

// Top returns the n best documents for q, best first, ties in catalog
// order (order), with their BM25 scores, reading r, which holds docs
// documents. stats are those of the kind searched: its document count and
// the total length of each field.
func Top(ctx context.Context, r *segmentfile.Reader, docs int, stats *search.BM25Stats, q Query, n int, order store.DocOrder) ([]Doc, error) {
	leaves, err := openLeaves(r, stats, q)
	defer closeLeaves(leaves)
	if err != nil {
		return nil, err
	}
	s := getScratch(docs)
	defer scratchPool.Put(s)
	if err := s.filter(r, q, docs); err != nil {
		return nil, err
	}
	for _, clause := range leaves {
		if err := s.scoreClause(ctx, clause); err != nil {
			s.reset()
			return nil, err
		}
	}
	if err := s.addBonus(q.Bonus); err != nil {
		s.reset()
		return nil, err
	}
	return s.top(len(leaves), n, order), nil
}

// filter sets the documents every filter clause lets through; with no
// filters, all are.
func (s *bm25Scratch) filter(r *segmentfile.Reader, q Query, docs int) (err error) {
	if s.given = q.Allowed; s.given != nil {
		return nil
	}
	s.allowed, err = allowed(r, q.Scope, q.Filters, docs, s.allowed[:0])
	return err
}

func (s *bm25Scratch) lets(doc uint64) bool {
	if s.given != nil {
		return s.given.Has(doc)
	}
	return s.allowed.Has(doc)
}

// scoreClause adds one field clause (a disjunction of leaves) to the text
// scores: its sum times the share of its leaves matched.
func (s *bm25Scratch) scoreClause(ctx context.Context, clause []scoredLeaf) error {
	var tfd bindex.TermFieldDoc
	seen := 0
	for _, l := range clause {
		for {
			d, err := l.postings.Next(&tfd)
			if err != nil {
				return err
			}
			if d == nil {
				break
			}
			if seen++; seen%ctxCheckEvery == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			doc := DocNumber(d.ID)
			if doc >= uint64(len(s.textSum)) {
				return fmt.Errorf("a posting of document %d, past the %d documents", doc, len(s.textSum))
			}
			if !s.lets(doc) {
				continue
			}
			if s.fieldHits[doc] == 0 {
				s.inField = append(s.inField, uint32(doc))
			}
			s.fieldSum[doc] += l.score(d)
			s.fieldHits[doc]++
		}
	}
	coordOf := float64(len(clause))
	for _, doc := range s.inField {
		score := s.fieldSum[doc] * (float64(s.fieldHits[doc]) / coordOf)
		if s.clauseHits[doc] == 0 {
			s.touched = append(s.touched, doc)
		}
		s.textSum[doc] += score
		s.clauseHits[doc]++
		s.fieldSum[doc], s.fieldHits[doc] = 0, 0
	}
	s.inField = s.inField[:0]
	return nil
}

// addBonus adds each bonus the filters let through to its document, in
// fieldSum, which the clauses left zero.
func (s *bm25Scratch) addBonus(bonus []Bonus) error {
	for _, b := range bonus {
		doc := uint64(b.Doc)
		if doc >= uint64(len(s.textSum)) {
			return fmt.Errorf("a bonus of document %d, past the %d documents", doc, len(s.textSum))
		}
		if !s.lets(doc) || b.Score <= 0 {
			continue
		}
		if s.clauseHits[doc] == 0 && s.fieldSum[doc] == 0 {
			s.touched = append(s.touched, b.Doc)
		}
		s.fieldSum[doc] += b.Score
	}
	return nil
}

// reset zeroes what a search left in the accumulators.
func (s *bm25Scratch) reset() {
	for _, doc := range s.inField {
		s.fieldSum[doc], s.fieldHits[doc] = 0, 0
	}
	for _, doc := range s.touched {
		s.textSum[doc], s.clauseHits[doc], s.fieldSum[doc] = 0, 0, 0
	}
	s.inField, s.touched = s.inField[:0], s.touched[:0]
	s.given = nil
}

// Doc is a document and its final BM25 score.
type Doc struct {
	Num   uint32  // its number in the index
	Rank  uint32  // its position in catalog order, the tie-break
	Score float64 // its BM25 score
}

// before orders by score, then by catalog order.
func (a Doc) before(b Doc) bool {
	return a.Score > b.Score || a.Score == b.Score && a.Rank < b.Rank
}

// top applies the outer disjunction's share of clauses matched, keeps the
// n best documents, and resets the accumulators.
func (s *bm25Scratch) top(clauses, n int, order store.DocOrder) []Doc {
	h := make(docHeap, 0, min(n, len(s.touched)))
	for _, doc := range s.touched {
		text := 0.0
		if s.clauseHits[doc] > 0 {
			text = s.textSum[doc] * (float64(s.clauseHits[doc]) / float64(clauses))
		}
		score := text + s.fieldSum[doc]
		if len(h) == n && n > 0 && score < h[0].Score {
			continue // worse than the worst kept whatever its rank: no need to read it
		}
		h.offer(Doc{Num: doc, Rank: order.Rank(doc), Score: score}, n)
	}
	s.reset()
	return h.sorted()
}

// docHeap keeps the n best documents offered: a heap with the worst on top.
type docHeap []Doc

func (h *docHeap) offer(d Doc, n int) {
	if n <= 0 {
		return
	}
	if len(*h) < n {
		*h = append(*h, d)
		h.up(len(*h) - 1)
		return
	}
	if d.before((*h)[0]) {
		(*h)[0] = d
		h.down(0)
	}
}

// worse: the heap's order, the worst document at the root.
func (h docHeap) worse(i, j int) bool { return h[j].before(h[i]) }

func (h docHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.worse(i, p) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h docHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h.worse(r, l) {
			c = r
		}
		if !h.worse(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// sorted empties the heap, best first.
func (h docHeap) sorted() []Doc {
	out := make([]Doc, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		h.down(0)
	}
	return out
}
