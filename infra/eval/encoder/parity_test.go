package encoder

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"
)

// fixture is one text of testdata/parity.json, written by
// infra/data/encoder/fixtures.mjs from the JavaScript reference.
type fixture struct {
	Text   string  `json:"text"`
	Tokens int     `json:"tokens"` // the reference's token count
	IDs    []int32 `json:"ids"`    // its first MaxTokens ids
	Vector string  `json:"vector"` // base64 little-endian int16, units of 1/32767
}

func (f fixture) vector() []float32 {
	raw, err := base64.StdEncoding.DecodeString(f.Vector)
	if err != nil || len(raw) != 2*Dims {
		panic("testdata/parity.json: bad vector for " + f.Text)
	}
	v := make([]float32, Dims)
	for i := range v {
		v[i] = float32(int16(binary.LittleEndian.Uint16(raw[2*i:]))) / 32767
	}
	return v
}

func mustReadFixtures(tb testing.TB) []fixture {
	tb.Helper()
	data, err := os.ReadFile("testdata/parity.json")
	if err != nil {
		tb.Fatal(err)
	}
	var file struct{ Texts []fixture }
	if err := json.Unmarshal(data, &file); err != nil {
		tb.Fatalf("testdata/parity.json: %v", err)
	}
	if len(file.Texts) < 40 {
		tb.Fatalf("testdata/parity.json has %d texts, want at least 40", len(file.Texts))
	}
	return file.Texts
}

func mustLoad(tb testing.TB) *Encoder {
	tb.Helper()
	e, err := Load()
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

func TestTokensMatchJS(t *testing.T) {
	e := mustLoad(t)
	for _, f := range mustReadFixtures(t) {
		if got := e.Tokens(f.Text); !slices.Equal(got, f.IDs) {
			t.Errorf("Tokens(%.40q):\n got %v\nwant %v", f.Text, got, f.IDs)
		}
	}
}

// TestEncodeMatchesJS checks the int8 model against the reference's
// embeddings; with float32 weights (TestFloatReferenceMatchesJS) the
// worst cosine is above 0.9999.
func TestEncodeMatchesJS(t *testing.T) {
	e := mustLoad(t)
	worst, sum, worstText := 1.0, 0.0, ""
	fixtures := mustReadFixtures(t)
	for _, f := range fixtures {
		got := e.Encode(f.Text)
		c := cosine(got, f.vector())
		if c < worst {
			worst, worstText = c, f.Text
		}
		sum += c
		if c < 0.99 {
			t.Errorf("%.40q: cosine %.4f with the reference, want ≥ 0.99", f.Text, c)
		}
		if n := math.Sqrt(cosineNorm(got)); math.Abs(n-1) > 1e-4 {
			t.Errorf("%.40q: length %.6f, want 1", f.Text, n)
		}
	}
	t.Logf("int8 weights: worst cosine with the reference %.5f (%.20q), mean %.5f over %d texts", worst, worstText, sum/float64(len(fixtures)), len(fixtures))
}

func cosineNorm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return s
}
