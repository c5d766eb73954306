package vectors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/blevesearch/mmap-go"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

const (
	File         = "vectors.bin"
	vectorsMagic = "MCPSIV2\n"
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
	checked  *checksum.Checked // the lists found sound, by number over every kind
}

// kindLists are the lists of one kind.
type kindLists struct {
	base      int         // first row (and catalog position) of the kind
	centroids [][]float32 // one zero centroid when the kind is one list
	starts    []int       // first row of each list, relative to base, and the end
	sums      []uint32    // the CRC-32C of each list's rows
	first     int         // the number of its first list over every kind (Vectors.checked)
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
	if err := v.readLists(r, count); err != nil {
		return nil, err
	}
	if head := v.data[:len(v.data)-len(r.b)]; r.ok && checksum.Of(head) != r.u32() {
		return nil, &checksum.Damage{File: File, Part: "the head (mean vector, centroids, list bounds and checksums)"}
	}
	v.rowOf = r.bytes(4 * count)
	v.rows = r.bytes(count * v.rowBytes)
	if !r.ok || len(r.b) != 0 {
		return nil, fmt.Errorf("%s: %d bytes, not the size its head gives", File, len(v.data))
	}
	return v, nil
}

// readLists reads each kind's lists from the head, which hold count rows
// in all.
func (v *Vectors) readLists(r *headReader, count int) error {
	base, lists := 0, 0
	for _, k := range ext.Kinds {
		n := int(r.u32())
		if !r.ok || n <= 0 || n > max(1, count) {
			return fmt.Errorf("%s: corrupt list count", File)
		}
		kl := &kindLists{base: base, centroids: make([][]float32, n), starts: make([]int, n+1), sums: make([]uint32, n), first: lists}
		for c := range kl.centroids {
			kl.centroids[c] = r.f32s(v.dims)
		}
		for i := range kl.starts {
			kl.starts[i] = int(r.u32())
		}
		for i := range kl.sums {
			kl.sums[i] = r.u32()
		}
		if !r.ok || kl.starts[0] != 0 || !slices.IsSorted(kl.starts) || base+kl.starts[n] > count {
			return fmt.Errorf("%s: corrupt list bounds", File)
		}
		v.kinds[k] = kl
		base += kl.starts[n]
		lists += n
	}
	if base != count {
		return fmt.Errorf("%s: lists hold %d rows, want %d", File, base, count)
	}
	v.checked = checksum.NewChecked(lists)
	return nil
}

// list returns the rows of list c of kl, checked by its CRC the first time.
func (v *Vectors) list(kl *kindLists, c int) ([]byte, error) {
	rows := v.rows[(kl.base+kl.starts[c])*v.rowBytes : (kl.base+kl.starts[c+1])*v.rowBytes]
	if n := kl.first + c; !v.checked.Has(n) {
		if err := checksum.Check(File, fmt.Sprintf("list %d", n), kl.sums[c], rows); err != nil {
			return nil, err
		}
		v.checked.Add(n)
	}
	return rows, nil
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
// the lists of the nearest centroids until MinScan rows are seen. When
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
	for seen := 0; seen < MinScan; {
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
		buf, err := v.list(kl, c)
		if err != nil {
			return nil, err
		}
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
		row, err := v.rowOfItem(kl, ord)
		if err != nil {
			return nil, err
		}
		out[i] = v.rowCosine(q, row)
	}
	return out, nil
}

// rowOfItem returns the row of the item ord of kl, checked: rowOf names
// a row among the kind's, whose list is sound and which holds ord.
func (v *Vectors) rowOfItem(kl *kindLists, ord int) ([]byte, error) {
	r := int(binary.LittleEndian.Uint32(v.rowOf[4*(kl.base+ord):])) - kl.base
	if r < 0 || r >= kl.starts[len(kl.starts)-1] {
		return nil, &checksum.Damage{File: File, Part: fmt.Sprintf("the row of item %d (%d, not one of its kind's)", ord, r)}
	}
	c := sort.SearchInts(kl.starts, r+1) - 1 // the list holding r
	rows, err := v.list(kl, c)
	if err != nil {
		return nil, err
	}
	row := rows[(r-kl.starts[c])*v.rowBytes:][:v.rowBytes]
	if int(binary.LittleEndian.Uint32(row)) != ord {
		return nil, &checksum.Damage{File: File, Part: fmt.Sprintf("the row of item %d (row %d holds item %d)", ord, kl.base+r, binary.LittleEndian.Uint32(row))}
	}
	return row, nil
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
