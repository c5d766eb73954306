package eval

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"
)

// A typo variant is a set's queries rewritten by code with the slips
// people make when they type: no query is read to write it, so a rule
// that corrects typos can be measured on every query of a set rather
// than on the few written with typos (eval --typo-variant).
//
// Each query's variant is drawn from its own generator, seeded by the
// seed and the query's id, so that it does not depend on the other
// queries or their order. A long word (at least TypoMinLetters ASCII
// letters, or the letters asked for; punctuation around it kept) gets at most one slip, each with
// probability one half, and every query with a long word gets at least
// one: two neighbouring letters swapped (not the first, which people
// rarely miss), a letter dropped (not the first), or the space after it
// left out when the next word is of letters too (never two spaces in a
// row). A query with no long word has no variant.

// TypoMinLetters is the length from which a word is long enough to get
// a slip, unless TypoVariant is asked for another.
const TypoMinLetters = 5

// TypoVariant returns the typo variant of each query that has one, in
// order, with the fields other than the query's text unchanged: the
// words of at least minLetters letters get slips (TypoMinLetters when
// minLetters is below 3, the fewest a swap or a drop past the first
// letter leaves a word's first letter and one more).
func TypoVariant(queries []Query, seed uint64, minLetters int) []Query {
	if minLetters < 3 {
		minLetters = TypoMinLetters
	}
	var out []Query
	for _, q := range queries {
		text, ok := typoText(q.Query, minLetters, typoRand(seed, q.QID))
		if !ok {
			continue
		}
		q.Query = text
		out = append(out, q)
	}
	return out
}

// typoRand is the generator of one query's variant.
func typoRand(seed uint64, qid string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(qid))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// slip is what happens to one word.
type slip uint8

const (
	noSlip slip = iota
	swapLetters
	dropLetter
	dropSpace
)

// typoText rewrites text with its slips; ok is false when it has no long
// word.
func typoText(text string, minLetters int, rng *rand.Rand) (string, bool) {
	words := strings.Fields(text)
	slips := make([]slip, len(words))
	var long []int
	for i, w := range words {
		if _, core, _ := splitCore(w); len(core) >= minLetters {
			long = append(long, i)
		}
	}
	if len(long) == 0 {
		return text, false
	}
	for _, i := range long {
		if rng.IntN(2) == 0 {
			slips[i] = pickSlip(words, i, rng)
		}
	}
	if !anySlip(slips) {
		i := long[rng.IntN(len(long))]
		slips[i] = pickSlip(words, i, rng)
	}
	for i := 1; i < len(slips); i++ {
		if slips[i-1] == dropSpace && slips[i] == dropSpace { // two words joined, not three
			slips[i] = swapLetters
		}
	}
	return applySlips(words, slips, rng), true
}

// pickSlip draws a word's slip: a swap or a drop two times in five each,
// the space after it one time in five when the next word is of letters.
func pickSlip(words []string, i int, rng *rand.Rand) slip {
	switch n := rng.IntN(5); {
	case n < 2:
		return swapLetters
	case n < 4:
		return dropLetter
	case i+1 < len(words) && isLetters(words[i]) && isLetters(words[i+1]):
		return dropSpace
	default:
		return swapLetters
	}
}

func anySlip(slips []slip) bool {
	for _, s := range slips {
		if s != noSlip {
			return true
		}
	}
	return false
}

// applySlips joins the words again with their slips made.
func applySlips(words []string, slips []slip, rng *rand.Rand) string {
	var b strings.Builder
	for i, w := range words {
		pre, core, post := splitCore(w)
		switch slips[i] {
		case swapLetters:
			core = swapIn(core, rng)
		case dropLetter:
			at := 1 + rng.IntN(len(core)-1)
			core = core[:at] + core[at+1:]
		}
		b.WriteString(pre + core + post)
		if i+1 < len(words) && slips[i] != dropSpace {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// swapIn swaps two neighbouring letters of word after its first that
// differ, so that the word changes; a word with no such pair loses a
// letter instead.
func swapIn(word string, rng *rand.Rand) string {
	var at []int
	for i := 1; i+1 < len(word); i++ {
		if word[i] != word[i+1] {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return word[:1] + word[2:]
	}
	i := at[rng.IntN(len(at))]
	b := []byte(word)
	b[i], b[i+1] = b[i+1], b[i]
	return string(b)
}

// splitCore splits a word into the punctuation before it, its letters and
// what follows; core is empty unless every byte between is an ASCII
// letter.
func splitCore(w string) (pre, core, post string) {
	start := strings.IndexFunc(w, isASCIILetter)
	if start < 0 {
		return w, "", ""
	}
	end := strings.LastIndexFunc(w, isASCIILetter) + 1
	if !isLetters(w[start:end]) {
		return w, "", ""
	}
	return w[:start], w[start:end], w[end:]
}

func isLetters(w string) bool {
	for _, r := range w {
		if !isASCIILetter(r) {
			return false
		}
	}
	return w != ""
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
