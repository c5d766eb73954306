package hosted

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
)

// ItemText is the text of an item a hosted model embeds: what the word
// vectors read of it (package vectors) — its name, title, description
// and its parameters' names and descriptions, a line each.
func ItemText(it *catalog.Item) string {
	var b strings.Builder
	for _, s := range []string{it.Label, it.Title, it.Description} {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	for _, p := range it.Params {
		b.WriteString(strings.TrimSpace(p.Name + ": " + p.Description))
		b.WriteByte('\n')
	}
	return strings.TrimSpace(b.String())
}

// Write writes the hosted vectors file of items (a catalog's items in
// catalog order) into dir: vecs are their vectors from model m, in the
// same order. It refuses vectors of other dimensions than m's (or the
// first's, when m has none), or not finite.
func Write(dir string, m Model, items []catalog.Item, vecs [][]float32) error {
	if len(vecs) != len(items) {
		return fmt.Errorf("%d vectors for %d items", len(vecs), len(items))
	}
	if m.Dims == 0 && len(vecs) > 0 {
		m.Dims = len(vecs[0])
	}
	if m.Dims <= 0 || m.Dims > MaxDims {
		return fmt.Errorf("vectors of %d dimensions: want 1 to %d", m.Dims, MaxDims)
	}
	for i, v := range vecs {
		if err := checkVector(v, m.Dims); err != nil {
			return fmt.Errorf("the vector of %s %q: %w", items[i].Kind, items[i].Name, err)
		}
	}
	h := head{Model: m, Counts: make([]int, len(ext.Kinds))}
	for _, it := range items {
		for i, k := range ext.Kinds {
			if it.Kind == k {
				h.Counts[i]++
			}
		}
	}
	js, err := json.Marshal(h)
	if err != nil {
		return err
	}
	out := binary.LittleEndian.AppendUint32([]byte(magic), uint32(len(js)))
	out = append(out, js...)
	mean := meanOf(vecs, m.Dims)
	for _, x := range mean {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(x)))
	}
	var rows []byte
	for _, v := range vecs {
		rows = appendRow(rows, v, mean)
	}
	chunk := chunkRows * (4 + m.Dims)
	for from := 0; from < len(rows); from += chunk {
		out = binary.LittleEndian.AppendUint32(out, checksum.Of(rows[from:min(len(rows), from+chunk)]))
	}
	out = checksum.Append(out, checksum.Of(out))
	return os.WriteFile(filepath.Join(dir, File), append(out, rows...), 0o644)
}

func checkVector(v []float32, dims int) error {
	if len(v) != dims {
		return fmt.Errorf("%d dimensions, want %d", len(v), dims)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("holds %v", x)
		}
	}
	return nil
}

// meanOf is the mean of the vectors, each at unit length.
func meanOf(vecs [][]float32, dims int) []float64 {
	mean := make([]float64, dims)
	for _, v := range vecs {
		unit := unitOf(v)
		for d, x := range unit {
			mean[d] += x / float64(len(vecs))
		}
	}
	return mean
}

// unitOf is v at unit length (zero stays zero).
func unitOf(v []float32) []float64 {
	out := make([]float64, len(v))
	norm := 0.0
	for d, x := range v {
		out[d] = float64(x)
		norm += out[d] * out[d]
	}
	if norm > 0 {
		for d := range out {
			out[d] /= math.Sqrt(norm)
		}
	}
	return out
}

// appendRow appends the row of v: at unit length, less mean, quantised
// (a vector equal to the mean is zeros of scale 0: cosine 0 with all).
func appendRow(b []byte, v []float32, mean []float64) []byte {
	c := unitOf(v)
	for d := range c {
		c[d] -= mean[d]
	}
	q, scale := quantise(c)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(scale)))
	if q == nil {
		return append(b, make([]byte, len(v))...)
	}
	for _, x := range q {
		b = append(b, byte(x))
	}
	return b
}
