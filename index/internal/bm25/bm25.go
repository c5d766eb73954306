package bm25

import (
	"cmp"
	"context"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/scorer"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Leaf is one term query: Term in Field, its score times Boost. A leaf of
// boost 0 restricts matches and scores nothing (a filter).
type Leaf struct {
	Field, Term string
	Boost       float64
}

// Query is the retrieval query of a search: Text is a disjunction of
// disjunctions of leaves (one per field, and the exact name), and each of
// Filters a disjunction of boost-0 leaves that a match must satisfy.
// Scope, when set, is what the caller may see, over which idf counts.
type Query struct {
	Text    [][]Leaf
	Filters [][]Leaf
	Scope   *Scope
	// MaxPostings bounds the postings the leaves of Text walk: when theirs
	// add up to more, the terms with the most postings (over every field)
	// are left out, most first, until the rest fit, as if Text did not
	// hold them; never the last term (0: no bound). The postings counted
	// are those of the documents in Scope.
	MaxPostings int
	// Allowed, when set, is the set of documents Filters let through,
	// computed once (AllowedIn) for the steps of a search that read it;
	// Top then reads it rather than the filters' postings again.
	Allowed *Set
	// Bonus adds scores to documents' BM25 scores, after the outer
	// disjunction's share of clauses: evidence scored outside the postings
	// (an item's best-matching written request). A document with a bonus
	// that the filters let through is found though no leaf matches it.
	// Top adds it; Contributions and Bleve leave it out.
	Bonus []Bonus
}

// Bonus is a score added to one document's.
type Bonus struct {
	Doc   uint32
	Score float64
}

// Scope is what a caller may see of a kind: Count documents, and Outside
// the documents it may not see, a bitmap per segment of the index
// (deleted documents included). Every posting list is read without them
// (scopedReader): a leaf's idf counts the documents in the scope, so that
// a term that only documents outside hold weighs as a term of none,
// MaxPostings counts their postings, the filters let none of the others
// through, and no posting of theirs is scored or decoded. The average
// field lengths are the statistics' that Top is given (the caller's own,
// retrieval.Bundle.Stats).
type Scope struct {
	Count   int
	Outside []*roaring.Bitmap
}

// termReader opens the postings of term in field, within scope (nil:
// every document), with frequencies and norms.
func termReader(r *segmentfile.Reader, scope *Scope, field, term string) (bindex.TermFieldReader, error) {
	if scope == nil {
		return r.TermFieldReader(context.Background(), []byte(term), field, true, true, false)
	}
	snap := r
	return openScoped(snap, scope.Outside, field, term)
}

// Bleve is q as a bleve query, for comparing scores and explanations with
// bleve's own.
func (q Query) Bleve() query.Query {
	text := query.NewDisjunctionQuery(disjunctions(q.Text))
	if len(q.Filters) == 0 {
		return text
	}
	return query.NewConjunctionQuery(append(disjunctions(q.Filters), text))
}

func disjunctions(clauses [][]Leaf) []query.Query {
	out := make([]query.Query, len(clauses))
	for i, c := range clauses {
		terms := make([]query.Query, len(c))
		for j, l := range c {
			t := query.NewTermQuery(l.Term)
			t.SetField(l.Field)
			t.SetBoost(l.Boost)
			terms[j] = t
		}
		out[i] = query.NewDisjunctionQuery(terms)
	}
	return out
}

// scoredLeaf is a leaf with its postings open and its scoring constants.
type scoredLeaf struct {
	Leaf
	postings    bindex.TermFieldReader
	idf, avgLen float64
	boost       float64
	queryWeight float64 // boost × idf × the query norm
}

// openLeaves opens the postings of q's text leaves and sets their
// constants, with the query norm over all of them; idf counts within
// q.Scope (nil: every document). The leaves of the terms q.MaxPostings
// leaves out are closed and dropped (leftOut).
func openLeaves(r *segmentfile.Reader, stats *search.BM25Stats, q Query) ([][]scoredLeaf, error) {
	postings, err := openPostings(r, q.Scope, q.Text)
	if err != nil {
		return nil, err
	}
	left := leftOut(q.Text, postings, q.MaxPostings)
	out := make([][]scoredLeaf, len(q.Text))
	weights := 0.0
	for i, clause := range q.Text {
		out[i] = make([]scoredLeaf, 0, len(clause))
		clauseWeight := 0.0 // summed by clause, as bleve sums
		for j, l := range clause {
			p := postings[i][j]
			postings[i][j] = nil
			if left[l.Term] {
				p.Close()
				continue
			}
			sl, err := newScoredLeaf(p, stats, l, q.Scope)
			if err != nil {
				p.Close()
				closePostings(postings)
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

// openPostings opens the postings of every leaf of text within scope;
// on an error it closes those it opened.
func openPostings(r *segmentfile.Reader, scope *Scope, text [][]Leaf) ([][]bindex.TermFieldReader, error) {
	out := make([][]bindex.TermFieldReader, len(text))
	for i, clause := range text {
		out[i] = make([]bindex.TermFieldReader, len(clause))
		for j, l := range clause {
			p, err := termReader(r, scope, l.Field, l.Term)
			if err != nil {
				closePostings(out)
				return nil, fmt.Errorf("term %q in %s: %w", l.Term, l.Field, err)
			}
			out[i][j] = p
		}
	}
	return out, nil
}

func closePostings(postings [][]bindex.TermFieldReader) {
	for _, clause := range postings {
		for _, p := range clause {
			if p != nil {
				p.Close()
			}
		}
	}
}

// leftOut returns the terms of text to leave out so that the postings of
// the others add up to at most maxPostings: the terms with the most
// postings over every field, most first (of equals, the first in text),
// never the last one; nil when they fit or maxPostings is 0. A query of
// many common words would otherwise walk most of the index once per word
// and field (BenchmarkWorstQuery); such words weigh little in BM25 (their
// idf is low), and no query of the evaluation sets reaches the bound
// (index README, "What a search costs").
func leftOut(text [][]Leaf, postings [][]bindex.TermFieldReader, maxPostings int) map[string]bool {
	if maxPostings <= 0 {
		return nil
	}
	var total uint64
	for _, clause := range postings {
		for _, p := range clause {
			total += p.Count()
		}
	}
	if total <= uint64(maxPostings) {
		return nil
	}
	perTerm := map[string]uint64{}
	var terms []string
	for i, clause := range text {
		for j, l := range clause {
			if _, ok := perTerm[l.Term]; !ok {
				terms = append(terms, l.Term)
			}
			perTerm[l.Term] += postings[i][j].Count()
		}
	}
	slices.SortStableFunc(terms, func(a, b string) int { return cmp.Compare(perTerm[b], perTerm[a]) })
	left := map[string]bool{}
	for _, t := range terms[:len(terms)-1] {
		if total <= uint64(maxPostings) {
			break
		}
		left[t] = true
		total -= perTerm[t]
	}
	return left
}

func newScoredLeaf(p bindex.TermFieldReader, stats *search.BM25Stats, l Leaf, scope *Scope) (scoredLeaf, error) {
	n := stats.DocCount
	length, ok := stats.FieldCardinality[l.Field]
	if !ok {
		return scoredLeaf{}, fmt.Errorf("no field length for %s", l.Field)
	}
	avgLen := math.Ceil(float64(length) / n)
	df := float64(p.Count()) // within the scope, when there is one
	if scope != nil {
		n = float64(max(1, scope.Count))
	}
	sl := scoredLeaf{Leaf: l, postings: p, avgLen: avgLen, boost: l.Boost}
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
