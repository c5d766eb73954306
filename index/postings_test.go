package index

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

// TestPostingsBound: a query whose terms' postings add up to more than the
// bound (what the pipeline sets: bm25.Query.MaxPostings) is scored as the query without its commonest
// terms, left out most postings first until the rest fit; the worst
// queries' kept terms then walk at most the bound. No ordinary request
// (the mixes of the BM25 and search benchmarks) reaches it.
func TestPostingsBound(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	bound := max(retrieval.PostingsPerItem*x.manifest.Counts[ext.KindTool], retrieval.MinPostings)
	over := 0
	for _, wq := range worstQueries(t, x) {
		q := ext.Query{Kind: ext.KindTool, Text: wq.text, Limit: 10}
		bq, _ := boundedQuery(t, x, q)
		terms := leafTerms(bq.Text)
		perTerm, total := termPostings(t, x, bq.Text)
		kept := keptTerms(terms, perTerm, total, uint64(bound))
		if len(kept) < len(terms) {
			over++
		}
		var walked uint64
		for _, term := range kept {
			walked += perTerm[term]
		}
		if walked > uint64(bound) && len(kept) > 1 {
			t.Errorf("%s: the kept terms walk %d postings, over the bound of %d", wq.name, walked, bound)
		}
		unbounded, _ := boundedQuery(t, x, q)
		unbounded.MaxPostings = 0
		unbounded.Text = onlyTerms(unbounded.Text, kept)
		if bq.MaxPostings != bound {
			t.Fatalf("%s: the pipeline bounds the postings at %d, want %d", wq.name, bq.MaxPostings, bound)
		}
		got, err := bm25Top(context.Background(), x, q.Kind, bq, 60)
		if err != nil {
			t.Fatal(err)
		}
		want, err := bm25Top(context.Background(), x, q.Kind, unbounded, 60)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: bounded, the best 60 differ from those of the query of its %d kept terms (of %d)", wq.name, len(kept), len(terms))
		}
	}
	if over == 0 {
		t.Errorf("no worst query reached the bound of %d postings: the test tests nothing", bound)
	}
	for _, text := range bm25Queries {
		bq, terms := boundedQuery(t, x, ext.Query{Kind: ext.KindTool, Text: text, Limit: 10})
		if _, total := termPostings(t, x, bq.Text); total > uint64(bound) {
			t.Errorf("%q (%d terms): %d postings, over the bound of %d: an ordinary request loses words", text, len(terms), total, bound)
		}
	}
}

// boundedQuery is the BM25 query Search makes of q, with its terms.
func boundedQuery(t *testing.T, x *Index, q ext.Query) (bm25.Query, []string) {
	t.Helper()
	res := ranked(t, x, q, ext.Access{All: true})
	if res == nil {
		t.Fatalf("%.40q: no searchable words", q.Text)
	}
	return res.Query, leafTerms(res.Query.Text)
}

// termPostings counts each term's postings over the leaves of text, and
// all of them.
func termPostings(t *testing.T, x *Index, text [][]bm25.Leaf) (map[string]uint64, uint64) {
	t.Helper()
	r := x.reader()
	defer r.Close()
	perTerm, total := map[string]uint64{}, uint64(0)
	for _, clause := range text {
		for _, l := range clause {
			p, err := r.TermFieldReader(context.Background(), []byte(l.Term), l.Field, false, false, false)
			if err != nil {
				t.Fatal(err)
			}
			perTerm[l.Term] += p.Count()
			total += p.Count()
			p.Close()
		}
	}
	return perTerm, total
}

// keptTerms is what the bound keeps of terms, written here apart from
// package bm25: while the postings pass the bound, the term with the most
// of them (the first of equals) goes, but never the last one.
func keptTerms(terms []string, perTerm map[string]uint64, total, bound uint64) []string {
	byPostings := slices.Clone(terms)
	slices.SortStableFunc(byPostings, func(a, b string) int { return cmp.Compare(perTerm[b], perTerm[a]) })
	gone := map[string]bool{}
	for _, term := range byPostings[:len(byPostings)-1] {
		if total <= bound {
			break
		}
		gone[term] = true
		total -= perTerm[term]
	}
	return slices.DeleteFunc(slices.Clone(terms), func(term string) bool { return gone[term] })
}

// leafTerms are the terms of the leaves of text, in their order, once
// each: the words of the field clauses, then the exact name.
func leafTerms(text [][]bm25.Leaf) []string {
	var terms []string
	for _, clause := range text {
		for _, l := range clause {
			if !slices.Contains(terms, l.Term) {
				terms = append(terms, l.Term)
			}
		}
	}
	return terms
}

// onlyTerms is text without the leaves of terms not in kept.
func onlyTerms(text [][]bm25.Leaf, kept []string) [][]bm25.Leaf {
	out := make([][]bm25.Leaf, len(text))
	for i, clause := range text {
		out[i] = slices.DeleteFunc(slices.Clone(clause), func(l bm25.Leaf) bool { return !slices.Contains(kept, l.Term) })
	}
	return out
}
