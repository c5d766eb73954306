// Package typotest makes the words the tests of the index and of
// retrieval search for: typos of a catalog's words. Tests only.
package typotest

import (
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"math/rand/v2"
	"slices"
	"testing"
)

// Mutate applies n random edits to word past its first character.
func Mutate(rnd *rand.Rand, word []rune, n int) string {
	w := slices.Clone(word)
	for range n {
		if len(w) < 3 {
			break
		}
		i := 1 + rnd.IntN(len(w)-1)
		switch rnd.IntN(4) {
		case 0:
			w[i] = 'a' + rune(rnd.IntN(26))
		case 1:
			w = slices.Delete(w, i, i+1)
		case 2:
			w = slices.Insert(w, i, 'a'+rune(rnd.IntN(26)))
		default:
			if i+1 < len(w) {
				w[i], w[i+1] = w[i+1], w[i]
			}
		}
	}
	return string(w)
}

// Vocabulary returns the terms of the index field named field, with the
// documents holding each.
func Vocabulary(tb testing.TB, r *segmentfile.Reader, field string) map[string]int {
	tb.Helper()
	dict, err := r.FieldDict(field)
	if err != nil {
		tb.Fatal(err)
	}
	defer dict.Close()
	out := map[string]int{}
	for e, err := dict.Next(); err == nil && e != nil; e, err = dict.Next() {
		out[e.Term] = int(e.Count)
	}
	return out
}
