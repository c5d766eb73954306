package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestTypoAutomatonMatchesBleve: walking a dictionary with typoAutomaton
// finds the terms, distances and counts that bleve's Levenshtein automaton
// finds, for words of the default catalog changed by every kind of edit.
func TestTypoAutomatonMatchesBleve(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	d := mustTermDicts(t, x)
	rnd := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for _, field := range typoFields {
		vocab := sortedKeys(vocabulary(t, x, ext.KindTool, field))
		for range 100 {
			word := []rune(vocab[rnd.IntN(len(vocab))])
			for _, w := range []string{string(word), mutate(rnd, word, 1), mutate(rnd, word, 2), mutate(rnd, word, 3), "ü" + string(word), string(word) + "é"} {
				rs := []rune(w)
				if len(rs) < 2 {
					continue
				}
				for _, edits := range []uint8{1, 2} {
					got := ownWalk(t, d, field, rs, edits)
					want := bleveWalk(t, d.snap, kindField(ext.KindTool, field), rs, edits)
					if !slices.Equal(got, want) {
						t.Fatalf("%s, %q within %d: got %v, want %v", field, w, edits, got, want)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d walks compared", checked)
}

func ownWalk(t *testing.T, d *termDicts, field string, word []rune, edits uint8) []string {
	dicts, err := d.field(field)
	if err != nil || len(dicts) != 1 {
		t.Fatalf("got %d dictionaries, %v; want one", len(dicts), err)
	}
	var a typoAutomaton
	a.reset(word, edits, math.MaxInt)
	var out []string
	start := []byte(string(word[:1]))
	err = walkDict(dicts[0], &a, start, prefixEnd(start), func(m typoMatch) {
		out = append(out, fmt.Sprintf("%s:%d:%d", m.term, m.distance, m.count))
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func bleveWalk(t *testing.T, r bindex.IndexReader, field string, word []rune, edits uint8) []string {
	dict, err := r.(bindex.IndexReaderFuzzy).FieldDictFuzzy(field, string(word), int(edits), string(word[:1]))
	if err != nil {
		t.Fatal(err)
	}
	defer dict.Close()
	var out []string
	for e, err := dict.Next(); err == nil && e != nil; e, err = dict.Next() {
		out = append(out, fmt.Sprintf("%s:%d:%d", e.Term, e.EditDistance, e.Count))
	}
	return out
}

// mutate applies n random edits to word past its first character.
func mutate(rnd *rand.Rand, word []rune, n int) string {
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

// TestDocFreqMatchesBleve: document frequencies read from the
// dictionaries are those bleve's term readers count.
func TestDocFreqMatchesBleve(t *testing.T) {
	x := defaultIndex(t)
	d := mustTermDicts(t, x)
	terms := []string{"nosuchtermanywhere"}
	for i, term := range sortedKeys(vocabulary(t, x, ext.KindTool, fieldDescription)) {
		if i%97 == 0 {
			terms = append(terms, term)
		}
	}
	for _, term := range terms {
		got, err := d.docFreq(term)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, f := range textFields {
			tfr, err := d.snap.TermFieldReader(context.Background(), []byte(term), kindField(ext.KindTool, f), false, false, false)
			if err != nil {
				t.Fatal(err)
			}
			want = max(want, int(tfr.Count()))
			tfr.Close()
		}
		if got != want {
			t.Errorf("%q: got %d documents, want %d", term, got, want)
		}
	}
}
