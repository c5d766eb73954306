package index

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
	"github.com/mcpsearch/mcpsearch/index/catalog"
)

// Dense retrieval. Each item has a vector: the SIF-weighted mean of the
// word vectors (wordvec.go) of its name, title, description and, weighted
// less, its parameters, less the mean item vector of the catalog (which
// otherwise dominates every cosine), at unit length and quantised to int8.
// A query gets its vector the same way. The cosine of the two bridges
// vocabulary: "weather" finds a tool that says "forecast".
//
// Each kind's vectors are grouped into lists around centroids (spherical
// k-means at build time, about rowsPerList items a list); a query scans
// the lists of its nearest centroids until it has seen minScan rows. A kind
// of at most minScan items has one list, so its search is exact.
//
// vectorsFile, all integers little-endian:
//
//	"MCPSIV1\n", uint32 dims, uint32 count
//	dims × float32           the mean item vector
//	per kind (ext.Kinds order):
//	  uint32 lists
//	  lists × dims float32   centroids
//	  lists+1 × uint32       first row of each list (and the end), in the kind's rows
//	count × uint32           the row of each item, in catalog order
//	count rows, by kind then list: uint32 ordinal within the kind,
//	  float32 scale (the cosine is scale × query · vector), dims × int8
//
// Open maps the file and decodes its head (mean, centroids, list bounds);
// rows are paged in as queries touch them, so opening costs little at any
// size.
const (
	vectorsFile  = "vectors.bin"
	vectorsMagic = "MCPSIV1\n"
	rowsPerList  = 256
	minScan      = 512
	kmeansRounds = 8
)

// itemVector is the raw SIF-weighted mean of an item's words at unit
// length, or nil when no word of it has a vector.
func itemVector(it *catalog.Item) []float64 {
	sum := make([]float64, wv.dims)
	n := wv.addText(sum, it.Label, 1)
	n += wv.addText(sum, it.Title, 1)
	n += wv.addText(sum, it.Description, 1)
	n += wv.addText(sum, glossChinese(it.Label+"\n"+it.Title+"\n"+it.Description), 1)
	for _, p := range it.Params {
		n += wv.addText(sum, p.Name+" "+p.Description, paramVectorWeight)
	}
	if n == 0 || !normalise(sum) {
		return nil
	}
	return sum
}

// paramVectorWeight scales the words of parameters in an item's vector
// (measured: 0, 0.3, 0.5, 1).
const paramVectorWeight = 0.3

// writeVectors writes the vectors file of cat's items into dir.
func writeVectors(cat *catalog.Catalog, dir string) error {
	dims := wv.dims
	raw := make([][]float64, len(cat.Items))
	mean := make([]float64, dims)
	n := 0
	for i := range cat.Items {
		if raw[i] = itemVector(&cat.Items[i]); raw[i] != nil {
			n++
			for d, x := range raw[i] {
				mean[d] += x
			}
		}
	}
	for d := range mean {
		mean[d] /= float64(max(1, n))
	}
	unit := make([][]float32, len(raw)) // centred, unit length; nil when none
	for i, v := range raw {
		if v == nil {
			continue
		}
		for d := range v {
			v[d] -= mean[d]
		}
		if normalise(v) {
			unit[i] = make([]float32, dims)
			for d, x := range v {
				unit[i][d] = float32(x)
			}
		}
	}
	head := []byte(vectorsMagic)
	head = binary.LittleEndian.AppendUint32(head, uint32(dims))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(cat.Items)))
	for _, x := range mean {
		head = binary.LittleEndian.AppendUint32(head, math.Float32bits(float32(x)))
	}
	rowOf := make([]uint32, len(cat.Items))
	var rows []byte
	base := 0
	for _, k := range ext.Kinds {
		end := base
		for end < len(cat.Items) && cat.Items[end].Kind == k {
			end++
		}
		centroids, lists := cluster(unit[base:end], dims)
		head = binary.LittleEndian.AppendUint32(head, uint32(len(centroids)))
		for _, c := range centroids {
			for _, x := range c {
				head = binary.LittleEndian.AppendUint32(head, math.Float32bits(x))
			}
		}
		start := 0
		for _, l := range lists {
			head = binary.LittleEndian.AppendUint32(head, uint32(start))
			for _, ord := range l {
				rowOf[base+ord] = uint32(base + start)
				rows = appendRow(rows, ord, unit[base+ord])
				start++
			}
		}
		head = binary.LittleEndian.AppendUint32(head, uint32(start))
		base = end
	}
	for _, r := range rowOf {
		head = binary.LittleEndian.AppendUint32(head, r)
	}
	return os.WriteFile(filepath.Join(dir, vectorsFile), append(head, rows...), 0o644)
}

// appendRow appends the row of the item ord: its ordinal, its scale and its
// vector v (nil: zeros, scale 0) quantised so its largest component is ±127.
func appendRow(b []byte, ord int, v []float32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(ord))
	q := make([]int8, wv.dims)
	scale := 0.0
	if v != nil {
		most := float32(0)
		for _, x := range v {
			most = max(most, float32(math.Abs(float64(x))))
		}
		norm := 0.0
		for d, x := range v {
			q[d] = int8(math.Round(float64(x / most * 127)))
			norm += float64(q[d]) * float64(q[d])
		}
		if norm > 0 {
			scale = 1 / math.Sqrt(norm)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(scale)))
	for _, x := range q {
		b = append(b, byte(x))
	}
	return b
}

// cluster groups vecs (some nil) into lists of about rowsPerList around
// centroids found by spherical k-means on a sample; a small set is one
// list with no centroid to compare (a zero centroid). It returns the
// centroids and each list's members (indices of vecs), in order.
func cluster(vecs [][]float32, dims int) ([][]float32, [][]int) {
	n := len(vecs)
	k := 1
	if n > minScan {
		k = (n + rowsPerList - 1) / rowsPerList
	}
	var have []int // the items that have a vector
	for i, v := range vecs {
		if v != nil {
			have = append(have, i)
		}
	}
	if k == 1 || len(have) == 0 {
		members := make([]int, n)
		for i := range members {
			members[i] = i
		}
		return [][]float32{make([]float32, dims)}, [][]int{members}
	}
	sample := have
	if step := len(have) / (64 * k); step > 1 {
		sample = nil
		for i := 0; i < len(have); i += step {
			sample = append(sample, have[i])
		}
	}
	centroids := make([][]float32, k)
	for c := range centroids { // spread over the sample, deterministic
		centroids[c] = slices.Clone(vecs[sample[c*len(sample)/k]])
	}
	assign := make([]int, n)
	for range kmeansRounds {
		sums := make([][]float64, k)
		for c := range sums {
			sums[c] = make([]float64, dims)
		}
		for _, i := range sample {
			c := nearest(centroids, vecs[i])
			for d, x := range vecs[i] {
				sums[c][d] += float64(x)
			}
		}
		for c, s := range sums {
			if normalise(s) { // an empty list keeps its centroid
				for d, x := range s {
					centroids[c][d] = float32(x)
				}
			}
		}
	}
	lists := make([][]int, k)
	for i, v := range vecs {
		if v != nil {
			assign[i] = nearest(centroids, v)
		}
		lists[assign[i]] = append(lists[assign[i]], i)
	}
	return centroids, lists
}

func nearest(centroids [][]float32, v []float32) int {
	best, bestDot := 0, float32(math.Inf(-1))
	for c, cv := range centroids {
		if s := dotF32(cv, v); s > bestDot {
			best, bestDot = c, s
		}
	}
	return best
}

func dotF32(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a) && i+4 <= len(b); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a) && i < len(b); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// itemVectors reads a bundle's vectors file, mapped into memory: pages
// are read as queries touch them, so opening costs little at any size.
type itemVectors struct {
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

func openVectors(dir string, count int) (_ *itemVectors, err error) {
	f, err := os.Open(filepath.Join(dir, vectorsFile))
	if err != nil {
		return nil, err
	}
	v := &itemVectors{f: f, dims: wv.dims, kinds: map[ext.Kind]*kindLists{}, rowBytes: 8 + wv.dims}
	defer func() {
		if err != nil {
			v.close()
		}
	}()
	if v.data, err = mmap.Map(f, mmap.RDONLY, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", vectorsFile, err)
	}
	r := &headReader{b: v.data, ok: true}
	if string(r.bytes(len(vectorsMagic))) != vectorsMagic {
		return nil, errors.New(vectorsFile + ": not a vectors file")
	}
	if dims, n := int(r.u32()), int(r.u32()); r.ok && (dims != v.dims || n != count) {
		return nil, fmt.Errorf("%s: %d vectors of %d dimensions, want %d of %d", vectorsFile, n, dims, count, v.dims)
	}
	v.mean = r.f32s(v.dims)
	base := 0
	for _, k := range ext.Kinds {
		lists := int(r.u32())
		if !r.ok || lists <= 0 || lists > max(1, count) {
			return nil, fmt.Errorf("%s: corrupt list count", vectorsFile)
		}
		kl := &kindLists{base: base, centroids: make([][]float32, lists), starts: make([]int, lists+1)}
		for c := range kl.centroids {
			kl.centroids[c] = r.f32s(v.dims)
		}
		for i := range kl.starts {
			kl.starts[i] = int(r.u32())
		}
		if !r.ok || kl.starts[0] != 0 || !slices.IsSorted(kl.starts) || base+kl.starts[lists] > count {
			return nil, fmt.Errorf("%s: corrupt list bounds", vectorsFile)
		}
		v.kinds[k] = kl
		base += kl.starts[lists]
	}
	if base != count {
		return nil, fmt.Errorf("%s: lists hold %d rows, want %d", vectorsFile, base, count)
	}
	v.rowOf = r.bytes(4 * count)
	v.rows = r.bytes(count * v.rowBytes)
	if !r.ok || len(r.b) != 0 {
		return nil, fmt.Errorf("%s: %d bytes, not the size its head gives", vectorsFile, len(v.data))
	}
	return v, nil
}

func (v *itemVectors) close() error {
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

// denseQuery is a query vector, quantised to int8 for the scan.
type denseQuery struct {
	f     []float32 // unit length
	q     []int32   // f quantised: largest component ±127
	scale float32   // f ≈ scale × q
}

// queryVector is the dense vector of a query text, or nil when no word of
// it has a vector.
func (v *itemVectors) queryVector(text string) *denseQuery {
	sum := make([]float64, v.dims)
	if wv.addText(sum, text, 1) == 0 || !normalise(sum) {
		return nil
	}
	for d := range sum {
		sum[d] -= float64(v.mean[d])
	}
	if !normalise(sum) {
		return nil
	}
	dq := &denseQuery{f: make([]float32, v.dims), q: make([]int32, v.dims)}
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

// denseHit is an item (ordinal within its kind) and its cosine.
type denseHit struct {
	ord    int
	cosine float32
}

// nearest returns the k items of kind nearest to q, best first, scanning
// the lists of the nearest centroids until minScan rows are seen.
func (v *itemVectors) nearest(kind ext.Kind, q *denseQuery, k int) ([]denseHit, error) {
	kl := v.kinds[kind]
	score := make([]float32, len(kl.centroids))
	if len(score) > 1 {
		for c, cv := range kl.centroids {
			score[c] = dotF32(cv, q.f)
		}
	}
	top := make([]denseHit, 0, k+1)
	for seen := 0; seen < minScan; {
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
		seen += to - from
		buf := v.rows[(kl.base+from)*v.rowBytes : (kl.base+to)*v.rowBytes]
		for r := 0; r < len(buf); r += v.rowBytes {
			cos := v.rowCosine(q, buf[r:r+v.rowBytes])
			if len(top) == k && cos <= top[k-1].cosine {
				continue
			}
			h := denseHit{ord: int(binary.LittleEndian.Uint32(buf[r:])), cosine: cos}
			j := len(top)
			if j < k {
				top = append(top, h)
			} else {
				j--
			}
			for j > 0 && (top[j-1].cosine < cos || top[j-1].cosine == cos && top[j-1].ord > h.ord) {
				top[j] = top[j-1]
				j--
			}
			top[j] = h
		}
	}
	return top, nil
}

// cosines returns the cosine of q with each item of kind by ordinal.
func (v *itemVectors) cosines(kind ext.Kind, q *denseQuery, ords []int) ([]float32, error) {
	kl := v.kinds[kind]
	out := make([]float32, len(ords))
	for i, ord := range ords {
		r := int(binary.LittleEndian.Uint32(v.rowOf[4*(kl.base+ord):]))
		if r >= len(v.rows)/v.rowBytes {
			return nil, fmt.Errorf("%s: corrupt row index", vectorsFile)
		}
		row := v.rows[r*v.rowBytes : (r+1)*v.rowBytes]
		if int(binary.LittleEndian.Uint32(row)) != ord {
			return nil, fmt.Errorf("%s: row %d is not item %d", vectorsFile, r, ord)
		}
		out[i] = v.rowCosine(q, row)
	}
	return out, nil
}

// rowCosine is the cosine of q with the vector of a row.
func (v *itemVectors) rowCosine(q *denseQuery, row []byte) float32 {
	scale := math.Float32frombits(binary.LittleEndian.Uint32(row[4:]))
	return float32(dotInt8((*[wordDims]int32)(q.q), (*[wordDims]byte)(row[8:]))) * q.scale * scale
}

// dotInt8 is the dot product of a quantised query and an int8 vector.
func dotInt8(q *[wordDims]int32, vec *[wordDims]byte) int32 {
	var s0, s1, s2, s3 int32
	for i := 0; i < wordDims; i += 4 {
		s0 += q[i] * int32(int8(vec[i]))
		s1 += q[i+1] * int32(int8(vec[i+1]))
		s2 += q[i+2] * int32(int8(vec[i+2]))
		s3 += q[i+3] * int32(int8(vec[i+3]))
	}
	return s0 + s1 + s2 + s3
}
