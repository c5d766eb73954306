package retrieval

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle/bundletest"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/typotest"
)

// TestTypoAutomatonMatchesBleve: walking a dictionary with typoAutomaton
// finds the terms, distances and counts that bleve's Levenshtein automaton
// finds, for words of the default catalog changed by every kind of edit.
func TestTypoAutomatonMatchesBleve(t *testing.T) {
	t.Parallel()
	x := defaultSearcher(t)
	d := mustTermDicts(t, x)
	fuzzy := bleveReader(t, "../../../functions/search/catalog")
	rnd := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for _, field := range typoFields {
		vocab := slices.Sorted(maps.Keys(vocabulary(t, x, ext.KindTool, field)))
		for range 100 {
			word := []rune(vocab[rnd.IntN(len(vocab))])
			for _, w := range []string{string(word), typotest.Mutate(rnd, word, 1), typotest.Mutate(rnd, word, 2), typotest.Mutate(rnd, word, 3), "ü" + string(word), string(word) + "é"} {
				rs := []rune(w)
				if len(rs) < 2 {
					continue
				}
				for _, edits := range []uint8{1, 2} {
					got := ownWalk(t, d, field, rs, edits)
					want := bleveWalk(t, fuzzy, schema.KindField(ext.KindTool, field), rs, edits)
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

// bleveReader is a reader of bleve's own index of the catalog at dir (the
// default catalog, which defaultSearcher's bundle is built of), closed
// when the test ends.
func bleveReader(t *testing.T, dir string) bindex.IndexReader {
	t.Helper()
	adv, err := bundletest.Bleve(t, dir).Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
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

// TestDocFreqMatchesBleve: document frequencies read from the
// dictionaries are those bleve's term readers count.
func TestDocFreqMatchesBleve(t *testing.T) {
	t.Parallel()
	x := defaultSearcher(t)
	d := mustTermDicts(t, x)
	terms := []string{"nosuchtermanywhere"}
	for i, term := range slices.Sorted(maps.Keys(vocabulary(t, x, ext.KindTool, schema.Description))) {
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
		for _, f := range schema.TextFields {
			tfr, err := d.snap.TermFieldReader(context.Background(), []byte(term), schema.KindField(ext.KindTool, f), false, false, false)
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
