package vectors

import (
	"math"
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// SIF weights (Arora et al., "A simple but tough-to-beat baseline for
// sentence embeddings"): a word of probability p counts a/(a+p), so
// frequent words count little (a: sifA). p is estimated from the
// word's frequency rank in the source by Zipf's law, p = 1/(rank·H), H the
// harmonic number of the source's 341,479 words: ln(341479) + 0.5772 (γ),
// as float64 (TestZipfH checks it).
const zipfH = 13.318241462690764

// weight is the SIF weight of row i of the word table.
func weight(w *text.WordVectors, i int) float64 {
	p := 1 / (float64(w.FrequencyRank(i)+1) * zipfH)
	return sifA / (sifA + p)
}

// addText adds the weighted unit vectors of text's words to sum, each
// weight times scale, and returns how many words had a vector. Words are
// split as identifiers, stop words dropped, and a plural without a vector
// read as its singular.
func addText(w *text.WordVectors, sum []float64, s string, scale float64) int {
	n := 0
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, word := range text.SplitName(tok) {
			if text.IsStopWord(word) {
				continue
			}
			i := w.Find(word)
			if i < 0 && strings.HasSuffix(word, "s") {
				i = w.Find(strings.TrimSuffix(word, "s"))
			}
			if i < 0 {
				continue
			}
			n++
			addUnit(sum, w, i, scale*weight(w, i))
		}
	}
	return n
}

// addUnit adds the vector of row i, at length wt, to sum.
func addUnit(sum []float64, w *text.WordVectors, i int, wt float64) {
	var vec [text.WordDims]float64
	w.Vector(i, &vec)
	norm := 0.0
	for _, x := range vec {
		norm += x * x
	}
	if norm == 0 {
		return
	}
	f := wt / math.Sqrt(norm)
	for d, x := range vec {
		sum[d] += f * x
	}
}

// normalise scales v to unit length; it reports false for a zero vector.
func normalise(v []float64) bool {
	n := 0.0
	for _, x := range v {
		n += x * x
	}
	if n == 0 {
		return false
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] /= n
	}
	return true
}
