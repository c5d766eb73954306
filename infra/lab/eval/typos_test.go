package eval

import (
	"slices"
	"strings"
	"testing"
)

func typoQueries() []Query {
	test := "test"
	var qs []Query
	for i, text := range []string{
		"create a calendar event tomorrow",
		"list my open pull requests, please",
		"send an email to the whole team",
		"wetter vorhersage für morgen",
		"get me the kubernetes pods",
		"a b c",
		"天气预报",
		"(translate) this paragraph into French!",
	} {
		qs = append(qs, Query{QID: "q" + string(rune('a'+i)), Query: text, Relevant: []string{"x"}, Split: &test, Lang: "en", Typo: i == 2})
	}
	return qs
}

// TestTypoVariantIsSeeded: the same seed gives the same variant, another
// seed another, and each query's variant does not depend on the others.
func TestTypoVariantIsSeeded(t *testing.T) {
	qs := typoQueries()
	a, b := TypoVariant(qs, 1, 0), TypoVariant(qs, 1, 0)
	if !slices.EqualFunc(a, b, func(x, y Query) bool { return x.Query == y.Query }) {
		t.Fatalf("seed 1 twice: got %v and %v", texts(a), texts(b))
	}
	if c := TypoVariant(qs, 2, 0); slices.EqualFunc(a, c, func(x, y Query) bool { return x.Query == y.Query }) {
		t.Errorf("seeds 1 and 2 give the same variant %v", texts(a))
	}
	alone := TypoVariant(qs[4:5], 1, 0)
	if len(alone) != 1 || alone[0].Query != variantOf(a, qs[4].QID).Query {
		t.Errorf("a query's variant alone %v, in the set %q", texts(alone), variantOf(a, qs[4].QID).Query)
	}
}

// TestTypoVariantSlips: every query with a long word changes, by at most
// one slip a long word (a swap, a drop or a missing space), its other
// fields kept; the others have no variant.
func TestTypoVariantSlips(t *testing.T) {
	qs := typoQueries()
	for seed := uint64(1); seed <= 50; seed++ {
		got := TypoVariant(qs, seed, 0)
		if ids := qids(got); !slices.Equal(ids, []string{"qa", "qb", "qc", "qd", "qe", "qh"}) {
			t.Fatalf("seed %d: variants of %v, want every query with a word of 5 letters", seed, ids)
		}
		for _, v := range got {
			q := *variantOf(qs, v.QID)
			if v.Query == q.Query {
				t.Errorf("seed %d: %q unchanged", seed, q.Query)
			}
			if v.Typo != q.Typo || v.Lang != q.Lang || *v.Split != *q.Split || !slices.Equal(v.Relevant, q.Relevant) {
				t.Errorf("seed %d: %q: fields changed: %+v", seed, q.Query, v)
			}
			if !oneSlipAWord(q.Query, v.Query) {
				t.Errorf("seed %d: %q -> %q: more than one slip a word", seed, q.Query, v.Query)
			}
		}
	}
}

// TestTypoVariantShortWords: asked for words of 3 letters, the variant
// gives slips to short words too, and to the queries that had none.
func TestTypoVariantShortWords(t *testing.T) {
	qs := typoQueries()
	short := 0
	for seed := uint64(1); seed <= 50; seed++ {
		got := TypoVariant(qs, seed, 3)
		if ids := qids(got); !slices.Equal(ids, []string{"qa", "qb", "qc", "qd", "qe", "qh"}) {
			t.Fatalf("seed %d: variants of %v, want every query with a word of 3 letters", seed, ids)
		}
		for _, v := range got {
			q := *variantOf(qs, v.QID)
			if !oneSlipAWord(q.Query, v.Query) {
				t.Errorf("seed %d: %q -> %q: more than one slip a word", seed, q.Query, v.Query)
			}
			for i, w := range strings.Fields(q.Query) {
				if len(w) < TypoMinLetters && i < len(strings.Fields(v.Query)) && len(strings.Fields(q.Query)) == len(strings.Fields(v.Query)) && strings.Fields(v.Query)[i] != w {
					short++
				}
			}
		}
	}
	if short == 0 {
		t.Error("no word shorter than TypoMinLetters got a slip")
	}
}

// oneSlipAWord reports whether b is a with at most one slip a word: words
// joined, and each word equal or one swap or one drop away.
func oneSlipAWord(a, b string) bool {
	aw, bw := strings.Fields(a), strings.Fields(b)
	j := 0
	for i := 0; i < len(aw); i++ {
		if j >= len(bw) {
			return false
		}
		w := bw[j]
		// a missing space: the next word of a holds the rest of w
		if i+1 < len(aw) && len(w) > len(aw[i]) && !oneAway(aw[i], w) {
			rest := ""
			for k := len(w) - 1; k > 0; k-- {
				if oneAway(aw[i], w[:k]) && oneAway(aw[i+1], w[k:]) {
					rest = w[k:]
					break
				}
			}
			if rest == "" {
				return false
			}
			i++
		} else if !oneAway(aw[i], w) {
			return false
		}
		j++
	}
	return j == len(bw)
}

// oneAway reports whether b is a, a with two neighbours swapped, or a
// with one letter dropped.
func oneAway(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) == len(b) {
		for i := 0; i+1 < len(a); i++ {
			if a[i] != b[i] {
				return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
			}
		}
		return false
	}
	if len(a) != len(b)+1 {
		return false
	}
	for i := range a {
		if a[:i]+a[i+1:] == b {
			return true
		}
	}
	return false
}

func texts(qs []Query) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.Query)
	}
	return out
}

func qids(qs []Query) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.QID)
	}
	return out
}

func variantOf(qs []Query, qid string) *Query {
	for i := range qs {
		if qs[i].QID == qid {
			return &qs[i]
		}
	}
	return &Query{}
}
