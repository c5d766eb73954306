package bm25

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// TestTopKeepsTheBestInCatalogOrder checks top against sorting every
// touched document by score, then catalog order: with scores drawn from a
// few values, most documents tie, many of them at the cut, where top reads
// the catalog order of a document only when its score does not already
// rule it out.
func TestTopKeepsTheBestInCatalogOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		docs := 1 + rng.IntN(300)
		order := make(store.DocOrder, 4*docs)
		for i, p := range rng.Perm(docs) {
			binary.LittleEndian.PutUint32(order[4*i:], uint32(p))
		}
		s := getScratch(docs)
		var want []Doc
		for doc := range docs {
			if rng.IntN(3) == 0 {
				continue
			}
			s.touched = append(s.touched, uint32(doc))
			s.textSum[doc], s.clauseHits[doc] = float64(rng.IntN(4)), uint16(1+rng.IntN(2))
			if rng.IntN(4) == 0 {
				s.fieldSum[doc] = float64(rng.IntN(3)) // a bonus
			}
			score := s.textSum[doc]*float64(s.clauseHits[doc])/2 + s.fieldSum[doc]
			want = append(want, Doc{Num: uint32(doc), Rank: order.Rank(uint32(doc)), Score: score})
		}
		slices.SortFunc(want, func(a, b Doc) int {
			if a.before(b) {
				return -1
			}
			return 1
		})
		n := rng.IntN(docs + 2)
		got := s.top(2, n, order)
		if want = want[:min(n, len(want))]; !slices.Equal(got, want) {
			t.Fatalf("trial %d: top %d of %d documents:\n got %v\nwant %v", trial, n, docs, got, want)
		}
		for doc := range docs {
			if s.textSum[doc] != 0 || s.clauseHits[doc] != 0 || s.fieldSum[doc] != 0 {
				t.Fatalf("trial %d: document %d left in the accumulators", trial, doc)
			}
		}
	}
}

// TestWritePagesWritesEveryPage checks that writePages writes the first
// element of each page's worth of a slice, and no other.
func TestWritePagesWritesEveryPage(t *testing.T) {
	f := make([]float64, 3*pageSize/8+5)
	for i := range f {
		f[i] = 1
	}
	writePages(f)
	for i := 0; i < len(f); i += pageSize / 8 {
		if f[i] != 0 {
			t.Errorf("element %d, the start of page %d, not written", i, 8*i/pageSize)
		}
	}
	if f[len(f)-1] != 1 {
		t.Errorf("writePages wrote past the elements it steps to")
	}
}
