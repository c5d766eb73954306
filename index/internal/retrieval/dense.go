package retrieval

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Dense fusion: the cosine of the query's and each item's vector (package
// vectors; or a hosted model's, when the bundle has them and the query's
// vector came in time: DenseQuery, densequery.go), times rank.DenseWeight, is added to the score of every
// candidate of the re-ranking window, and the DenseCandidates items
// nearest the query join the window whether BM25 found them or not, so an
// item that shares no word with the query can still be found.
//
// Multi-vector queries. A long query often describes a task of several
// steps ("find a flight, then book a hotel and add it to my calendar"),
// each needing its own tool, and one mean vector of the whole text leans to
// whichever step has the most words. So a query of more than
// rank.MaxCommandWords words is also split into clauses (text.SplitClauses),
// and each clause with a vector
//
//   - lets its clauseCandidates nearest items (cosine ≥
//     denseMinCosine) join the re-ranking window, beside the whole
//     query's nearest, and
//   - lifts the window item nearest to it (cosine ≥ denseMinCosine) by
//     weightClauseBest, so each step's best tool can reach the head.
//
// A shorter query is one clause and is answered exactly as before. A long
// query costs at most maxClauses more vector scans (each bounded by
// vectors.MinScan rows).

// addDense scores the re-ranking window (the first window of cands) by
// the cosine of query and item vectors and adds the items nearest by
// cosine that are not in it; a long query's clauses add theirs too. The
// whole query's vector is a hosted model's when the bundle gives one
// (queryVector), the clauses' always the word vectors'. It returns the
// candidates, the size of the new window and which vectors the query's
// were (queryVector's note).
func (x searcher) addDense(ctx context.Context, kind ext.Kind, r *Request, allowed *bm25.Set, cands []rank.Candidate, window int) ([]rank.Candidate, int, string, error) {
	if len(cands) == 0 {
		return cands, window, "", nil // nothing shares a word with the query: no items
	}
	qv, note := x.queryVector(ctx, r)
	if qv == nil {
		return cands, window, note, nil
	}
	var cvs []DenseQuery
	if r.Off.On(rules.Clauses) {
		cvs = x.clauseVectors(r.Searched)
	}
	near, err := x.nearestAll(kind, qv, cvs, r.Off.On(rules.DenseCandidates))
	if err != nil {
		return nil, 0, "", err
	}
	if near, err = x.passFilter(kind, allowed, near); err != nil {
		return nil, 0, "", err
	}
	out, moved, err := x.joinWindow(kind, cands, window, near)
	if err != nil {
		return nil, 0, "", err
	}
	if err := x.scoreDense(kind, qv, cvs, out); err != nil {
		return nil, 0, "", err
	}
	w := len(out)
	for j := window; j < len(cands); j++ {
		if !moved[j] {
			out = append(out, cands[j])
		}
	}
	return out, w, note, nil
}

// joinWindow returns the window of cands with the items near appended
// that are not in it, and which candidates past the window joined it.
func (x searcher) joinWindow(kind ext.Kind, cands []rank.Candidate, window int, near []vectors.Hit) ([]rank.Candidate, map[int]bool, error) {
	at := map[string]int{}
	for i, c := range cands {
		at[c.ID] = i
	}
	out := slices.Clone(cands[:window])
	moved := map[int]bool{}
	for _, h := range near {
		id := schema.DocID(kind, h.Ord)
		if j, ok := at[id]; ok {
			if j < window {
				continue
			}
			moved[j] = true
		}
		// BM25 counts in the window only: an item joining it scores by its
		// cosine and name, whatever page (and so how many BM25 candidates)
		// was asked for, so that every page sees the same order.
		metas, err := x.Metas([]string{id})
		if err != nil {
			return nil, nil, err
		}
		m := metas[0]
		out = append(out, rank.Candidate{ID: id, Label: m.Label, Server: m.Server, Words: strings.Fields(m.Words)})
	}
	return out, moved, nil
}

// scoreDense sets the cosine of the query vector qv, and the clause lift
// of the clause vectors cvs, of each candidate of the window.
func (x searcher) scoreDense(kind ext.Kind, qv DenseQuery, cvs []DenseQuery, window []rank.Candidate) error {
	ords := make([]int, len(window))
	for i, c := range window {
		k, ord, ok := schema.ParseDocID(c.ID)
		if !ok || k != kind {
			return fmt.Errorf("%s: no document %q of kind %s", x.Name(), c.ID, kind)
		}
		ords[i] = ord
	}
	cos, err := qv.Cosines(kind, ords)
	if err != nil {
		return err
	}
	lift, err := x.clauseBest(kind, cvs, ords)
	if err != nil {
		return err
	}
	for i := range window {
		window[i].Dense, window[i].Clause = float64(cos[i]), lift[i]
	}
	return nil
}

// passFilter keeps the hits that the filters let through (allowed: the
// clauses restricting kind, filter and visibility; nil, no filter), in
// their order.
func (x searcher) passFilter(kind ext.Kind, allowed *bm25.Set, hits []vectors.Hit) ([]vectors.Hit, error) {
	if allowed == nil || len(hits) == 0 {
		return hits, nil
	}
	r := x.Reader()
	defer r.Close()
	pass := map[int]bool{}
	for _, h := range hits {
		id, err := r.InternalID(schema.DocID(kind, h.Ord))
		if err != nil || id == nil {
			return nil, fmt.Errorf("%s: no document %s (%v)", x.Name(), schema.DocID(kind, h.Ord), err)
		}
		pass[h.Ord] = allowed.Has(bm25.DocNumber(id))
	}
	return slices.DeleteFunc(hits, func(h vectors.Hit) bool { return !pass[h.Ord] }), nil
}

// clauses splits a query of more than rank.MaxCommandWords words into at
// most maxClauses clauses of at least minClauseWords words, or
// returns nil when the query is shorter or holds fewer than two such
// clauses.
func clauses(query string) []string {
	if len(strings.Fields(query)) <= rank.MaxCommandWords {
		return nil
	}
	var out []string
	for _, c := range text.SplitClauses(query) {
		if len(strings.Fields(c)) >= minClauseWords && len(out) < maxClauses {
			out = append(out, c)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// clauseVectors are the vectors of the clauses of a query (see clauses),
// or nil when fewer than two clauses have one.
func (x searcher) clauseVectors(query string) []DenseQuery {
	var out []DenseQuery
	for _, c := range clauses(query) {
		if v := x.wordVector(c); v != nil {
			out = append(out, v)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// nearestAll returns the DenseCandidates items nearest the whole
// query vector qv (when whole is set), then the clauseCandidates nearest each clause
// vector, each item once and only those with a cosine of at least
// denseMinCosine; of the items the caller sees only.
func (x searcher) nearestAll(kind ext.Kind, qv DenseQuery, cvs []DenseQuery, whole bool) ([]vectors.Hit, error) {
	var keep func(ord int) bool
	if !x.SeesAll() {
		keep = func(ord int) bool { return x.Sees(kind, ord) }
	}
	seen := map[int]bool{}
	var out []vectors.Hit
	for i, v := range append([]DenseQuery{qv}, cvs...) {
		k := DenseCandidates
		if i > 0 {
			k = clauseCandidates
		} else if !whole {
			continue
		}
		hits, err := v.Nearest(kind, k, keep)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if h.Cosine < denseMinCosine {
				break
			}
			if !seen[h.Ord] {
				seen[h.Ord] = true
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// clauseBest returns, for the items ords of kind, weightClauseBest
// times the number of clause vectors cvs to which the item is the nearest
// of ords (with a cosine of at least denseMinCosine).
func (x searcher) clauseBest(kind ext.Kind, cvs []DenseQuery, ords []int) ([]float64, error) {
	out := make([]float64, len(ords))
	for _, cv := range cvs {
		cos, err := cv.Cosines(kind, ords)
		if err != nil {
			return nil, err
		}
		best := -1
		for i, c := range cos {
			if c >= denseMinCosine && (best < 0 || c > cos[best]) {
				best = i
			}
		}
		if best >= 0 {
			out[best] += weightClauseBest
		}
	}
	return out, nil
}
