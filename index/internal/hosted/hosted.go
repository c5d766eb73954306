package hosted

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/blevesearch/mmap-go"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

const (
	File  = "hosted.bin"
	magic = "MCPSHV2\n"
	// MaxDims bounds the dimensions a file may hold.
	MaxDims = 8192
	// maxHead bounds the JSON head read.
	maxHead = 64 << 10
	// chunkRows is how many rows one checksum covers (checked once, the
	// first time a search reads one of them).
	chunkRows = 256
)

// Model is what embedded the items: a bundle records it, never a key.
type Model struct {
	Backend  string `json:"backend"`
	Name     string `json:"model"`
	Endpoint string `json:"endpoint,omitempty"`
	Region   string `json:"region,omitempty"`
	Dims     int    `json:"dims"`
}

// head is the JSON head of the file.
type head struct {
	Model
	Counts []int `json:"counts"`
}

// Vectors reads a bundle's hosted vectors, mapped into memory. It is safe
// for concurrent use.
type Vectors struct {
	model    Model
	f        *os.File
	data     mmap.MMap
	mean     []float32
	base     map[ext.Kind]int // first row of each kind
	count    map[ext.Kind]int
	rows     []byte
	rowBytes int
	sums     []byte            // the CRC-32C of each chunk of chunkRows rows, little-endian
	checked  *checksum.Checked // the chunks found sound
}

// Open maps the hosted vectors of the bundle at dir, whose kinds hold
// counts items; it returns nil and no error when the bundle has none.
func Open(dir string, counts map[ext.Kind]int) (_ *Vectors, err error) {
	f, err := os.Open(filepath.Join(dir, File))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v := &Vectors{f: f, base: map[ext.Kind]int{}, count: map[ext.Kind]int{}}
	defer func() {
		if err != nil {
			v.Close()
		}
	}()
	if v.data, err = mmap.Map(f, mmap.RDONLY, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	rest, h, err := readHead(v.data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	v.model, v.rowBytes = h.Model, 4+h.Dims
	total := 0
	for i, k := range ext.Kinds {
		if h.Counts[i] != counts[k] {
			return nil, fmt.Errorf("%s: %d %ss, the manifest counts %d", File, h.Counts[i], k, counts[k])
		}
		v.base[k], v.count[k] = total, counts[k]
		total += counts[k]
	}
	chunks := (total + chunkRows - 1) / chunkRows
	if want := 4*h.Dims + 4*chunks + 4 + total*v.rowBytes; len(rest) != want {
		return nil, fmt.Errorf("%s: %d bytes after its head, want %d", File, len(rest), want)
	}
	v.mean = make([]float32, h.Dims)
	for d := range v.mean {
		v.mean[d] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*d:]))
	}
	v.sums = rest[4*h.Dims : 4*h.Dims+4*chunks]
	headEnd := len(v.data) - len(rest) + 4*h.Dims + 4*chunks + 4
	if head, crc, _ := checksum.Split(v.data[:headEnd]); checksum.Of(head) != crc {
		return nil, &checksum.Damage{File: File, Part: "the head (model, counts, mean vector and checksums)"}
	}
	v.rows, v.checked = v.data[headEnd:], checksum.NewChecked(chunks)
	return v, nil
}

// chunk checks the rows of chunk c by its CRC, the first time.
func (v *Vectors) chunk(c int) error {
	if v.checked.Has(c) {
		return nil
	}
	rows := v.rows[c*chunkRows*v.rowBytes : min(len(v.rows), (c+1)*chunkRows*v.rowBytes)]
	if err := checksum.Check(File, fmt.Sprintf("rows %d to %d", c*chunkRows, c*chunkRows+len(rows)/v.rowBytes-1), binary.LittleEndian.Uint32(v.sums[4*c:]), rows); err != nil {
		return err
	}
	v.checked.Add(c)
	return nil
}

// checkRows checks, by their chunks, the n rows from row first.
func (v *Vectors) checkRows(first, n int) error {
	for c := first / chunkRows; n > 0 && c <= (first+n-1)/chunkRows; c++ {
		if err := v.chunk(c); err != nil {
			return err
		}
	}
	return nil
}

// readHead checks the magic and reads the JSON head.
func readHead(b []byte) ([]byte, head, error) {
	var h head
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return nil, h, errors.New("not a hosted vectors file")
	}
	n := int(binary.LittleEndian.Uint32(b[len(magic):]))
	b = b[len(magic)+4:]
	if n > maxHead || n > len(b) {
		return nil, h, errors.New("corrupt head")
	}
	if err := json.Unmarshal(b[:n], &h); err != nil {
		return nil, h, fmt.Errorf("corrupt head: %w", err)
	}
	if h.Dims <= 0 || h.Dims > MaxDims || len(h.Counts) != len(ext.Kinds) || h.Backend == "" || h.Name == "" {
		return nil, h, errors.New("corrupt head: no model, dimensions or counts")
	}
	return b[n:], h, nil
}

// Close unmaps the file.
func (v *Vectors) Close() error {
	var err error
	if v.data != nil {
		err = v.data.Unmap()
	}
	return errors.Join(err, v.f.Close())
}

// Model is what embedded the items.
func (v *Vectors) Model() Model { return v.model }

// Query is a query vector in the space of the items: centred on their
// mean, at unit length, quantised to int32 for the scan.
type Query struct {
	q     []int32
	scale float32
}

// Query is the query vector of vec, a vector from the model that embedded
// the items; an error when its dimensions are not theirs or it is zero
// once centred.
func (v *Vectors) Query(vec []float32) (*Query, error) {
	if len(vec) != v.model.Dims {
		return nil, fmt.Errorf("a query vector of %d dimensions, the items' have %d", len(vec), v.model.Dims)
	}
	c := unitOf(vec)
	for d := range c {
		c[d] -= float64(v.mean[d])
	}
	q, scale := quantise(c)
	if q == nil {
		return nil, errors.New("the query vector is the items' mean")
	}
	out := &Query{q: make([]int32, len(q)), scale: float32(scale)}
	for d, x := range q {
		out.q[d] = int32(x)
	}
	return out, nil
}

// Nearest returns the k items of kind nearest to q, best first (ties by
// ordinal), comparing every item that keep keeps (nil: all).
func (v *Vectors) Nearest(kind ext.Kind, q *Query, k int, keep func(ord int) bool) ([]vectors.Hit, error) {
	if err := v.checkRows(v.base[kind], v.count[kind]); err != nil {
		return nil, err
	}
	top := make([]vectors.Hit, 0, k+1)
	for ord := range v.count[kind] {
		if keep != nil && !keep(ord) {
			continue
		}
		cos := v.cosine(q, v.base[kind]+ord)
		if len(top) == k && cos <= top[k-1].Cosine {
			continue
		}
		j := len(top)
		if j < k {
			top = append(top, vectors.Hit{})
		} else {
			j--
		}
		for j > 0 && top[j-1].Cosine < cos {
			top[j] = top[j-1]
			j--
		}
		top[j] = vectors.Hit{Ord: ord, Cosine: cos}
	}
	return top, nil
}

// Cosines returns the cosine of q with each item of kind by ordinal.
func (v *Vectors) Cosines(kind ext.Kind, q *Query, ords []int) ([]float32, error) {
	out := make([]float32, len(ords))
	for i, ord := range ords {
		if ord < 0 || ord >= v.count[kind] {
			return nil, fmt.Errorf("%s: no %s %d", File, kind, ord)
		}
		if err := v.checkRows(v.base[kind]+ord, 1); err != nil {
			return nil, err
		}
		out[i] = v.cosine(q, v.base[kind]+ord)
	}
	return out, nil
}

// cosine is the cosine of q with the vector of row r.
func (v *Vectors) cosine(q *Query, r int) float32 {
	row := v.rows[r*v.rowBytes : (r+1)*v.rowBytes]
	scale := math.Float32frombits(binary.LittleEndian.Uint32(row))
	return float32(dotInt8(q.q, row[4:])) * q.scale * scale
}

// dotInt8 is the dot product of a quantised query and an int8 row of the
// same length.
func dotInt8(q []int32, row []byte) int32 {
	row = row[:len(q)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(q); i += 4 {
		qq, rr := q[i:i+4:i+4], row[i:i+4:i+4]
		s0 += qq[0] * int32(int8(rr[0]))
		s1 += qq[1] * int32(int8(rr[1]))
		s2 += qq[2] * int32(int8(rr[2]))
		s3 += qq[3] * int32(int8(rr[3]))
	}
	for ; i < len(q); i++ {
		s0 += q[i] * int32(int8(row[i]))
	}
	return s0 + s1 + s2 + s3
}

// quantise brings v to int8 with its largest component ±127 and returns
// the scale that makes the quantised vector unit length (nil when v is
// zero).
func quantise(v []float64) ([]int8, float64) {
	most := 0.0
	for _, x := range v {
		most = max(most, math.Abs(x))
	}
	if most == 0 || math.IsNaN(most) || math.IsInf(most, 0) {
		return nil, 0
	}
	q := make([]int8, len(v))
	norm := 0.0
	for d, x := range v {
		q[d] = int8(math.Round(x / most * 127))
		norm += float64(q[d]) * float64(q[d])
	}
	if norm == 0 {
		return nil, 0
	}
	return q, 1 / math.Sqrt(norm)
}

// String names the model in a line (explanations, logs).
func (m Model) String() string {
	return fmt.Sprintf("%s %s (%d dimensions)", m.Backend, m.Name, m.Dims)
}
