package vectors

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// itemVector is the raw SIF-weighted mean of an item's words at unit
// length, or nil when no word of it has a vector.
// ownText, when set, gives an item without written requests its own
// text as requests (requests.OwnRequests) in its vector too; see
// requests.OwnTextKinds.
func itemVector(w *text.WordVectors, it *catalog.Item, ownText bool) []float64 {
	sum := make([]float64, text.WordDims)
	n := addText(w, sum, it.Label, 1)
	n += addText(w, sum, it.Title, 1)
	n += addText(w, sum, it.Description, 1)
	n += addText(w, sum, text.GlossChinese(it.Label+"\n"+it.Title+"\n"+it.Description), 1)
	for _, p := range it.Params {
		n += addText(w, sum, p.Name+" "+p.Description, paramVectorWeight)
	}
	if n == 0 || !normalise(sum) {
		sum = make([]float64, text.WordDims)
	}
	asked := it.Requests
	if len(asked) == 0 && ownText {
		asked = requests.OwnRequests(it)
	}
	if asked := requestsVector(w, asked); asked != nil {
		for d, x := range asked {
			sum[d] += requestVectorWeight * x
		}
	}
	if !normalise(sum) {
		return nil
	}
	return sum
}

// requestsVector is the mean of the vectors of an item's written requests,
// each at unit length, as Tool2Vec represents a tool by the requests made
// of it; nil when none has a vector.
func requestsVector(w *text.WordVectors, requests []string) []float64 {
	mean := make([]float64, text.WordDims)
	n := 0
	for _, r := range requests {
		v := make([]float64, text.WordDims)
		if addText(w, v, r, 1) == 0 || !normalise(v) {
			continue
		}
		for d, x := range v {
			mean[d] += x
		}
		n++
	}
	if n == 0 || !normalise(mean) {
		return nil
	}
	return mean
}

// Write writes the vectors file of items, a catalog's items in catalog
// order, into dir.
func Write(dir string, items []catalog.Item) error {
	w, err := text.WordTable()
	if err != nil {
		return err
	}
	mean, unit := centred(w, items)
	head := []byte(vectorsMagic)
	head = binary.LittleEndian.AppendUint32(head, uint32(text.WordDims))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(items)))
	for _, x := range mean {
		head = binary.LittleEndian.AppendUint32(head, math.Float32bits(float32(x)))
	}
	rowOf := make([]uint32, len(items))
	var rows []byte
	base := 0
	for _, k := range ext.Kinds {
		end := base
		for end < len(items) && items[end].Kind == k {
			end++
		}
		centroids, lists := cluster(unit[base:end], text.WordDims)
		head = binary.LittleEndian.AppendUint32(head, uint32(len(centroids)))
		for _, c := range centroids {
			for _, x := range c {
				head = binary.LittleEndian.AppendUint32(head, math.Float32bits(x))
			}
		}
		start := 0
		var sums []uint32 // each list's checksum
		for _, l := range lists {
			head = binary.LittleEndian.AppendUint32(head, uint32(start))
			from := len(rows)
			for _, ord := range l {
				rowOf[base+ord] = uint32(base + start)
				rows = appendRow(rows, ord, unit[base+ord])
				start++
			}
			sums = append(sums, checksum.Of(rows[from:]))
		}
		head = binary.LittleEndian.AppendUint32(head, uint32(start))
		for _, sum := range sums {
			head = binary.LittleEndian.AppendUint32(head, sum)
		}
		base = end
	}
	head = checksum.Append(head, checksum.Of(head))
	for _, r := range rowOf {
		head = binary.LittleEndian.AppendUint32(head, r)
	}
	return os.WriteFile(filepath.Join(dir, File), append(head, rows...), 0o644)
}

// centred returns the mean of the items' vectors, and each item's vector
// less the mean at unit length (nil when it has none).
func centred(w *text.WordVectors, items []catalog.Item) ([]float64, [][]float32) {
	own := requests.OwnTextKinds(items)
	raw := make([][]float64, len(items))
	mean := make([]float64, text.WordDims)
	n := 0
	for i := range items {
		if raw[i] = itemVector(w, &items[i], own[items[i].Kind]); raw[i] != nil {
			n++
			for d, x := range raw[i] {
				mean[d] += x
			}
		}
	}
	for d := range mean {
		mean[d] /= float64(max(1, n))
	}
	unit := make([][]float32, len(raw))
	for i, v := range raw {
		if v == nil {
			continue
		}
		for d := range v {
			v[d] -= mean[d]
		}
		if normalise(v) {
			unit[i] = make([]float32, text.WordDims)
			for d, x := range v {
				unit[i][d] = float32(x)
			}
		}
	}
	return mean, unit
}

// appendRow appends the row of the item ord: its ordinal, its scale and its
// vector v (nil: zeros, scale 0) quantised so its largest component is ±127.
func appendRow(b []byte, ord int, v []float32) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(ord))
	q := make([]int8, text.WordDims)
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
	if n > MinScan {
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
	for range kMeansRounds {
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
