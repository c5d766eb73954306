package vectors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/blevesearch/mmap-go"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

const (
	File         = "vectors.bin"
	vectorsMagic = "MCPSIV1\n"
)

// Vectors reads a bundle's vectors file, mapped into memory: pages are
// read as queries touch them, so opening costs little at any size. It is
// safe for concurrent use.
type Vectors struct {
	words    *text.WordVectors
	f        *os.File
	data     mmap.MMap
	dims     int
	mean     []float32
	kinds    map[ext.Kind]*kindLists
	rowOf    []byte // count × uint32: the row of each item, in catalog order
	rows     []byte // count rows
	rowBytes int
}

// kindLists are the lists of one kind.
type kindLists struct {
	base      int         // first row (and catalog position) of the kind
	centroids [][]float32 // one zero centroid when the kind is one list
	starts    []int       // first row of each list, relative to base, and the end
}

// Open maps the vectors file of the bundle at dir, which holds count
// items, and checks its head.
func Open(dir string, count int) (_ *Vectors, err error) {
	words, err := text.WordTable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, File))
	if err != nil {
		return nil, err
	}
	v := &Vectors{words: words, f: f, dims: text.WordDims, kinds: map[ext.Kind]*kindLists{}, rowBytes: 8 + text.WordDims}
	defer func() {
		if err != nil {
			v.Close()
		}
	}()
	if v.data, err = mmap.Map(f, mmap.RDONLY, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	r := &headReader{b: v.data, ok: true}
	if string(r.bytes(len(vectorsMagic))) != vectorsMagic {
		return nil, errors.New(File + ": not a vectors file")
	}
	if dims, n := int(r.u32()), int(r.u32()); r.ok && (dims != v.dims || n != count) {
		return nil, fmt.Errorf("%s: %d vectors of %d dimensions, want %d of %d", File, n, dims, count, v.dims)
	}
	v.mean = r.f32s(v.dims)
	base := 0
	for _, k := range ext.Kinds {
		lists := int(r.u32())
		if !r.ok || lists <= 0 || lists > max(1, count) {
			return nil, fmt.Errorf("%s: corrupt list count", File)
		}
		kl := &kindLists{base: base, centroids: make([][]float32, lists), starts: make([]int, lists+1)}
		for c := range kl.centroids {
			kl.centroids[c] = r.f32s(v.dims)
		}
		for i := range kl.starts {
			kl.starts[i] = int(r.u32())
		}
		if !r.ok || kl.starts[0] != 0 || !slices.IsSorted(kl.starts) || base+kl.starts[lists] > count {
			return nil, fmt.Errorf("%s: corrupt list bounds", File)
		}
		v.kinds[k] = kl
		base += kl.starts[lists]
	}
	if base != count {
		return nil, fmt.Errorf("%s: lists hold %d rows, want %d", File, base, count)
	}
	v.rowOf = r.bytes(4 * count)
	v.rows = r.bytes(count * v.rowBytes)
	if !r.ok || len(r.b) != 0 {
		return nil, fmt.Errorf("%s: %d bytes, not the size its head gives", File, len(v.data))
	}
	return v, nil
}

// Close unmaps the file.
func (v *Vectors) Close() error {
	var err error
	if v.data != nil {
		err = v.data.Unmap()
	}
	return errors.Join(err, v.f.Close())
}

// headReader reads the head of the vectors file; ok turns false, for
// good, at the first read past its end.
type headReader struct {
	b  []byte
	ok bool
}

func (h *headReader) bytes(n int) []byte {
	if !h.ok || n > len(h.b) {
		h.ok = false
		return nil
	}
	out := h.b[:n:n]
	h.b = h.b[n:]
	return out
}

func (h *headReader) u32() uint32 {
	b := h.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (h *headReader) f32s(n int) []float32 {
	b := h.bytes(4 * n)
	out := make([]float32, n)
	for i := range out {
		if b != nil {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return out
}

// Query is a query vector, quantised to int8 for the scan.
type Query struct {
	f     []float32 // unit length
	q     []int32   // f quantised: largest component ±127
	scale float32   // f ≈ scale × q
}

// Query is the vector of a query's text, or nil when no word of it has a
// vector.
func (v *Vectors) Query(s string) *Query {
	sum := make([]float64, v.dims)
	if addText(v.words, sum, s, 1) == 0 || !normalise(sum) {
		return nil
	}
	for d := range sum {
		sum[d] -= float64(v.mean[d])
	}
	if !normalise(sum) {
		return nil
	}
	dq := &Query{f: make([]float32, v.dims), q: make([]int32, v.dims)}
	most := 0.0
	for d, x := range sum {
		dq.f[d] = float32(x)
		most = max(most, math.Abs(x))
	}
	for d, x := range sum {
		dq.q[d] = int32(math.Round(x / most * 127))
	}
	dq.scale = float32(most / 127)
	return dq
}

// Hit is an item (Ord: its ordinal within its kind) and its cosine.
type Hit struct {
	Ord    int
	Cosine float32
}

// Nearest returns the k items of kind nearest to q, best first, scanning
// the lists of the nearest centroids until rank.MinScan rows are seen. When
// keep is not nil, only the items it keeps (by ordinal) are seen, and
// count.
func (v *Vectors) Nearest(kind ext.Kind, q *Query, k int, keep func(ord int) bool) ([]Hit, error) {
	kl := v.kinds[kind]
	score := make([]float32, len(kl.centroids))
	if len(score) > 1 {
		for c, cv := range kl.centroids {
			score[c] = dotF32(cv, q.f)
		}
	}
	top := make([]Hit, 0, k+1)
	for seen := 0; seen < rank.MinScan; {
		c := -1 // the nearest list not scanned yet
		for i, s := range score {
			if !math.IsInf(float64(s), -1) && (c < 0 || s > score[c]) {
				c = i
			}
		}
		if c < 0 {
			break
		}
		score[c] = float32(math.Inf(-1))
		from, to := kl.starts[c], kl.starts[c+1]
		if to == from {
			continue
		}
		buf := v.rows[(kl.base+from)*v.rowBytes : (kl.base+to)*v.rowBytes]
		for r := 0; r < len(buf); r += v.rowBytes {
			ord := int(binary.LittleEndian.Uint32(buf[r:]))
			if keep != nil && !keep(ord) {
				continue
			}
			seen++
			cos := v.rowCosine(q, buf[r:r+v.rowBytes])
			if len(top) == k && cos <= top[k-1].Cosine {
				continue
			}
			h := Hit{Ord: ord, Cosine: cos}
			j := len(top)
			if j < k {
				top = append(top, h)
			} else {
				j--
			}
			for j > 0 && (top[j-1].Cosine < cos || top[j-1].Cosine == cos && top[j-1].Ord > h.Ord) {
				top[j] = top[j-1]
				j--
			}
			top[j] = h
		}
	}
	return top, nil
}

// Cosines returns the cosine of q with each item of kind by ordinal.
func (v *Vectors) Cosines(kind ext.Kind, q *Query, ords []int) ([]float32, error) {
	kl := v.kinds[kind]
	out := make([]float32, len(ords))
	for i, ord := range ords {
		r := int(binary.LittleEndian.Uint32(v.rowOf[4*(kl.base+ord):]))
		if r >= len(v.rows)/v.rowBytes {
			return nil, fmt.Errorf("%s: corrupt row index", File)
		}
		row := v.rows[r*v.rowBytes : (r+1)*v.rowBytes]
		if int(binary.LittleEndian.Uint32(row)) != ord {
			return nil, fmt.Errorf("%s: row %d is not item %d", File, r, ord)
		}
		out[i] = v.rowCosine(q, row)
	}
	return out, nil
}

// rowCosine is the cosine of q with the vector of a row.
func (v *Vectors) rowCosine(q *Query, row []byte) float32 {
	scale := math.Float32frombits(binary.LittleEndian.Uint32(row[4:]))
	return float32(dotInt8((*[text.WordDims]int32)(q.q), (*[text.WordDims]byte)(row[8:]))) * q.scale * scale
}

// dotInt8 is the dot product of a quantised query and an int8 vector.
func dotInt8(q *[text.WordDims]int32, vec *[text.WordDims]byte) int32 {
	var s0, s1, s2, s3 int32
	for i := 0; i < text.WordDims; i += 4 {
		s0 += q[i] * int32(int8(vec[i]))
		s1 += q[i+1] * int32(int8(vec[i+1]))
		s2 += q[i+2] * int32(int8(vec[i+2]))
		s3 += q[i+3] * int32(int8(vec[i+3]))
	}
	return s0 + s1 + s2 + s3
}
