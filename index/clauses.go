package index

import (
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Multi-vector queries. A long query often describes a task of several
// steps ("find a flight, then book a hotel and add it to my calendar"),
// each needing its own tool, and one mean vector of the whole text leans to
// whichever step has the most words. So a query of more than
// maxCommandWords words is also split into clauses — at sentence ends,
// commas, "and", "then" and the like — and each clause with a vector
//
//   - lets its clauseCandidates nearest items (cosine ≥ denseMinCosine)
//     join the re-ranking window, beside the whole query's nearest, and
//   - lifts the window item nearest to it (cosine ≥ denseMinCosine) by
//     weightClauseBest, so each step's best tool can reach the head.
//
// A shorter query is one clause and is answered exactly as before. A long
// query costs at most maxClauses more vector scans (each bounded by
// minScan rows, see itemvec.go).
const (
	clauseCandidates = 2
	weightClauseBest = 0.24
	maxClauses       = 6
	minClauseWords   = 2
)

// clauseBreaks are the words that join the steps of a task; a clause ends
// before them and they belong to none.
var clauseBreaks = map[string]bool{"and": true, "then": true, "finally": true, "afterwards": true, "next": true}

// clauses splits a query of more than maxCommandWords words into at most
// maxClauses clauses of at least minClauseWords words, or returns nil when
// the query is shorter or holds fewer than two such clauses.
func clauses(text string) []string {
	if len(strings.Fields(text)) <= maxCommandWords {
		return nil
	}
	var out []string
	for _, s := range sentences(text) {
		for _, c := range splitClause(s) {
			if len(strings.Fields(c)) >= minClauseWords && len(out) < maxClauses {
				out = append(out, c)
			}
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// sentences splits text after . ! ? ; or : followed by a space or the end,
// and at line breaks; a dot inside a word (a file name, a host, a version)
// does not end a sentence.
func sentences(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	for i, r := range rs {
		end := r == '\n'
		if strings.ContainsRune(".!?;:", r) {
			end = i+1 == len(rs) || unicode.IsSpace(rs[i+1])
		}
		if end {
			out = appendTrimmed(out, string(rs[start:i]))
			start = i + 1
		}
	}
	return appendTrimmed(out, string(rs[start:]))
}

// splitClause splits a sentence after commas and before clauseBreaks.
func splitClause(s string) []string {
	var out, cur []string
	for _, w := range strings.Fields(s) {
		if clauseBreaks[strings.ToLower(strings.Trim(w, ",\"'()"))] {
			out, cur = appendTrimmed(out, strings.Join(cur, " ")), nil
			continue
		}
		cur = append(cur, w)
		if strings.HasSuffix(w, ",") {
			out, cur = appendTrimmed(out, strings.Join(cur, " ")), nil
		}
	}
	return appendTrimmed(out, strings.Join(cur, " "))
}

func appendTrimmed(out []string, s string) []string {
	if s = strings.Trim(s, " \t\r\n,"); s != "" {
		out = append(out, s)
	}
	return out
}

// clauseVectors are the vectors of text's clauses (see clauses), or nil
// when fewer than two clauses have one.
func (x *Index) clauseVectors(text string) []*denseQuery {
	var out []*denseQuery
	for _, c := range clauses(text) {
		if v := x.vectors.queryVector(c); v != nil {
			out = append(out, v)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// nearestAll returns the denseCandidates items nearest the whole query
// vector qv, then the clauseCandidates nearest each clause vector, each
// item once and only those with a cosine of at least denseMinCosine.
func (x *Index) nearestAll(kind ext.Kind, qv *denseQuery, cvs []*denseQuery) ([]denseHit, error) {
	seen := map[int]bool{}
	var out []denseHit
	for i, v := range append([]*denseQuery{qv}, cvs...) {
		k := denseCandidates
		if i > 0 {
			k = clauseCandidates
		}
		hits, err := x.vectors.nearest(kind, v, k)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if h.cosine < denseMinCosine {
				break
			}
			if !seen[h.ord] {
				seen[h.ord] = true
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// clauseBest returns, for the items ords of kind, weightClauseBest times
// the number of clause vectors cvs to which the item is the nearest of
// ords (with a cosine of at least denseMinCosine).
func (x *Index) clauseBest(kind ext.Kind, cvs []*denseQuery, ords []int) ([]float64, error) {
	out := make([]float64, len(ords))
	for _, cv := range cvs {
		cos, err := x.vectors.cosines(kind, cv, ords)
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
