package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/scorer"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
)

// BM25 retrieval runs outside bleve's query engine. bleve's searchers walk
// every query term's postings in step, one document at a time, through a
// disjunction of disjunctions, and build a pooled match object for every
// document they visit; on the default catalog that was two thirds of a
// search. The scorer here reads the same postings through bleve's index
// reader one term at a time into dense accumulators (term-at-a-time), and
// computes exactly bleve's BM25 scores, so the ranking is the one bleve
// gives (TestBM25MatchesBleve compares both on every query of the test
// tables); the explain option splits the same scores by field and term on
// the page's documents (explain.go fieldScores; TestExplainMatchesBleve
// compares it with bleve's explanations).
//
// bleve's scoring, as reproduced:
//
//	leaf (term t in field f, boost w):
//	  idf    = ln(1 + (N - df + 0.5) / (df + 0.5))     N: items of the kind
//	  weight = (w * idf)²
//	  score  = idf * (√tf * k1) / (√tf + k1 * (1 - b + b * len / avgLen))
//	           * (w * idf * queryNorm)
//	queryNorm = 1 / √(sum of every leaf's weight)
//	disjunction: (sum of matched children's scores) * matched / children
//	conjunction: sum of its children's scores (filters score 0)
//
// where len = 1 / norm² from the posting, and avgLen = ⌈field length /
// N⌉; a field with no length falls back to TF-IDF's idf, 1 + ln(N / (df +
// 1)), which only enters the norm (such a field has no postings).

// bm25Leaf is one term query.
type bm25Leaf struct {
	field, term string
	boost       float64
}

// bm25Query is the retrieval query of a search: text is a disjunction of
// disjunctions of leaves (one per field, and the exact name), and each of
// filters a disjunction of boost-0 leaves that a match must satisfy.
type bm25Query struct {
	text    [][]bm25Leaf
	filters [][]bm25Leaf
}

// bleveQuery is q as a bleve query, for explanations and for comparing
// scores with bleve's own.
func (q bm25Query) bleveQuery() query.Query {
	text := bleve.NewDisjunctionQuery(disjunctions(q.text)...)
	if len(q.filters) == 0 {
		return text
	}
	return bleve.NewConjunctionQuery(append(disjunctions(q.filters), text)...)
}

func disjunctions(clauses [][]bm25Leaf) []query.Query {
	out := make([]query.Query, len(clauses))
	for i, c := range clauses {
		terms := make([]query.Query, len(c))
		for j, l := range c {
			terms[j] = fieldTerm(l.term, l.field, l.boost)
		}
		out[i] = bleve.NewDisjunctionQuery(terms...)
	}
	return out
}

// scoredLeaf is a leaf with its postings open and its scoring constants.
type scoredLeaf struct {
	postings    bindex.TermFieldReader
	idf, avgLen float64
	boost       float64
	queryWeight float64 // boost × idf × the query norm
}

// bm25Scratch holds the accumulators of one search, sized to the index's
// documents; they are all zero between searches.
type bm25Scratch struct {
	fieldSum   []float64 // score of the current field clause
	fieldHits  []uint16  // leaves of the current field clause matched
	textSum    []float64 // sum of the field clauses' scores
	clauseHits []uint16  // field clauses matched
	allowed    []uint64  // filters: bit set of the documents they let through
	touched    []uint32  // documents with a field clause matched
	inField    []uint32  // documents matched in the current field clause
}

var scratchPool sync.Pool

func getScratch(docs int) *bm25Scratch {
	if s, ok := scratchPool.Get().(*bm25Scratch); ok && len(s.textSum) == docs {
		return s
	}
	return &bm25Scratch{
		fieldSum: make([]float64, docs), fieldHits: make([]uint16, docs),
		textSum: make([]float64, docs), clauseHits: make([]uint16, docs),
	}
}

// ctxCheckEvery is how many postings pass between checks of the deadline.
const ctxCheckEvery = 4096

// bm25Top returns the n best documents of kind for q, best first, ties in
// document (catalog) order, with their BM25 scores.
func (x *Index) bm25Top(ctx context.Context, kind ext.Kind, q bm25Query, n int) (_ []candidate, err error) {
	r, docs, err := x.readerOfDocs()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	leaves, err := openLeaves(r, x.bm25[kind], q.text)
	defer closeLeaves(leaves)
	if err != nil {
		return nil, err
	}
	s := getScratch(docs)
	defer scratchPool.Put(s)
	if err := s.filter(r, q.filters, docs); err != nil {
		return nil, err
	}
	for _, clause := range leaves {
		if err := s.scoreClause(ctx, clause); err != nil {
			s.reset()
			return nil, err
		}
	}
	top := s.top(len(leaves), n, x.docOrder)
	return x.candidatesOf(r, top)
}

// readerOfDocs opens a reader of the index's postings, as reader does, and
// returns the number of documents it holds.
func (x *Index) readerOfDocs() (bindex.IndexReader, int, error) {
	r, err := x.reader()
	if err != nil {
		return nil, 0, err
	}
	docs, err := r.DocCount()
	if err != nil {
		r.Close()
		return nil, 0, err
	}
	return r, int(docs), nil
}

// openLeaves opens the postings of every leaf and sets their constants,
// with the query norm over all of them.
func openLeaves(r bindex.IndexReader, stats *search.BM25Stats, text [][]bm25Leaf) ([][]scoredLeaf, error) {
	out := make([][]scoredLeaf, len(text))
	weights := 0.0
	for i, clause := range text {
		out[i] = make([]scoredLeaf, 0, len(clause))
		clauseWeight := 0.0
		for _, l := range clause {
			p, err := r.TermFieldReader(context.Background(), []byte(l.term), l.field, true, true, false)
			if err != nil {
				return out, fmt.Errorf("term %q in %s: %w", l.term, l.field, err)
			}
			sl, err := newScoredLeaf(p, stats, l)
			if err != nil {
				p.Close()
				return out, err
			}
			out[i] = append(out[i], sl)
			w := sl.boost * sl.idf
			clauseWeight += w * w
		}
		weights += clauseWeight
	}
	queryNorm := 1.0 / math.Sqrt(weights)
	for _, clause := range out {
		for j := range clause {
			clause[j].queryWeight = clause[j].boost * clause[j].idf * queryNorm
		}
	}
	return out, nil
}

func newScoredLeaf(p bindex.TermFieldReader, stats *search.BM25Stats, l bm25Leaf) (scoredLeaf, error) {
	n := stats.DocCount
	length, ok := stats.FieldCardinality[l.field]
	if !ok {
		return scoredLeaf{}, fmt.Errorf("no field length for %s", l.field)
	}
	avgLen := math.Ceil(float64(length) / n)
	df := float64(p.Count())
	sl := scoredLeaf{postings: p, avgLen: avgLen, boost: l.boost}
	if avgLen > 0 {
		sl.idf = math.Log(1 + (n-df+0.5)/(df+0.5))
	} else {
		sl.idf = 1.0 + math.Log(n/(df+1.0))
	}
	return sl, nil
}

func closeLeaves(leaves [][]scoredLeaf) {
	for _, clause := range leaves {
		for _, l := range clause {
			l.postings.Close()
		}
	}
}

// filter sets the documents every filter clause lets through; with no
// filters, all are.
func (s *bm25Scratch) filter(r bindex.IndexReader, filters [][]bm25Leaf, docs int) (err error) {
	s.allowed, err = allowedDocs(r, filters, docs, s.allowed[:0])
	return err
}

// allowedDocs returns, in buf, the bit set of the documents every filter
// clause lets through, or an empty set when there are no filters.
func allowedDocs(r bindex.IndexReader, filters [][]bm25Leaf, docs int, buf []uint64) ([]uint64, error) {
	if len(filters) == 0 {
		return buf[:0], nil
	}
	words := (docs + 63) / 64
	allowed := fill(buf, words, ^uint64(0))
	clause := make([]uint64, words)
	for _, f := range filters {
		clear(clause)
		for _, l := range f {
			if err := markPostings(r, l, clause); err != nil {
				return allowed, err
			}
		}
		for i := range allowed {
			allowed[i] &= clause[i]
		}
	}
	return allowed, nil
}

func fill(b []uint64, n int, v uint64) []uint64 {
	if cap(b) < n {
		b = make([]uint64, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = v
	}
	return b
}

// markPostings sets the bit of every document holding leaf l.
func markPostings(r bindex.IndexReader, l bm25Leaf, bits []uint64) error {
	p, err := r.TermFieldReader(context.Background(), []byte(l.term), l.field, false, false, false)
	if err != nil {
		return fmt.Errorf("term %q in %s: %w", l.term, l.field, err)
	}
	defer p.Close()
	var tfd bindex.TermFieldDoc
	for {
		d, err := p.Next(&tfd)
		if err != nil {
			return err
		}
		if d == nil {
			return nil
		}
		doc := docNumber(d.ID)
		if doc/64 >= uint64(len(bits)) {
			return fmt.Errorf("a posting of document %d, past the %d documents", doc, 64*len(bits))
		}
		bits[doc/64] |= 1 << (doc % 64)
	}
}

// docNumber is a document's number from its internal ID (scorch: the
// number, big-endian).
func docNumber(id bindex.IndexInternalID) uint64 { return binary.BigEndian.Uint64(id) }

func (s *bm25Scratch) lets(doc uint64) bool { return lets(s.allowed, doc) }

// lets reports whether the set allowed (empty: no filters) holds doc.
func lets(allowed []uint64, doc uint64) bool {
	return len(allowed) == 0 || allowed[doc/64]&(1<<(doc%64)) != 0
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
			doc := docNumber(d.ID)
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

// score is bleve's BM25 score of one posting, query weight included.
func (l *scoredLeaf) score(d *bindex.TermFieldDoc) float64 {
	var tf float64
	if d.Freq < scorer.MaxSqrtCache {
		tf = scorer.SqrtCache[int(d.Freq)]
	} else {
		tf = math.Sqrt(float64(d.Freq))
	}
	var score float64
	if l.avgLen > 0 {
		fieldLength := 1 / (d.Norm * d.Norm)
		score = l.idf * (tf * search.BM25_k1) /
			(tf + search.BM25_k1*(1-search.BM25_b+(search.BM25_b*fieldLength/l.avgLen)))
	} else {
		score = tf * d.Norm * l.idf
	}
	if l.queryWeight != 1.0 {
		score *= l.queryWeight
	}
	return score
}

// reset zeroes what a search left in the accumulators.
func (s *bm25Scratch) reset() {
	for _, doc := range s.inField {
		s.fieldSum[doc], s.fieldHits[doc] = 0, 0
	}
	for _, doc := range s.touched {
		s.textSum[doc], s.clauseHits[doc] = 0, 0
	}
	s.inField, s.touched = s.inField[:0], s.touched[:0]
}

// scoredDoc is a document and its final BM25 score.
type scoredDoc struct {
	doc   uint32
	rank  uint32 // position in catalog order, the tie-break (docorder.go)
	score float64
}

// before orders by score, then by catalog order.
func (a scoredDoc) before(b scoredDoc) bool {
	return a.score > b.score || a.score == b.score && a.rank < b.rank
}

// top applies the outer disjunction's share of clauses matched, keeps the
// n best documents and resets the accumulators.
func (s *bm25Scratch) top(clauses, n int, order []byte) []scoredDoc {
	h := make(docHeap, 0, min(n, len(s.touched)))
	for _, doc := range s.touched {
		d := scoredDoc{doc: doc, rank: docRank(order, doc), score: s.textSum[doc] * (float64(s.clauseHits[doc]) / float64(clauses))}
		h.offer(d, n)
	}
	s.reset()
	return h.sorted()
}

// docHeap keeps the n best documents offered: a heap with the worst on top.
type docHeap []scoredDoc

func (h *docHeap) offer(d scoredDoc, n int) {
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
func (h docHeap) sorted() []scoredDoc {
	out := make([]scoredDoc, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		h.down(0)
	}
	return out
}

// candidatesOf names the documents of top.
func (x *Index) candidatesOf(r bindex.IndexReader, top []scoredDoc) ([]candidate, error) {
	cands := make([]candidate, len(top))
	id := make(bindex.IndexInternalID, 8)
	for i, d := range top {
		binary.BigEndian.PutUint64(id, uint64(d.doc))
		ext, err := r.ExternalID(id)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", d.doc, err)
		}
		cands[i] = candidate{id: ext, bm25: d.score, score: d.score}
	}
	return cands, nil
}
