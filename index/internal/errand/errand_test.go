package errand

import (
	"bytes"
	"strings"
	"testing"
)

// TestDecodeRefuses: a file that is not a model, or of another size, is
// refused; the embedded model decodes.
func TestDecodeRefuses(t *testing.T) {
	good := Encode(make([]float64, Dims), 0)
	for name, bad := range map[string][]byte{
		"empty": nil, "magic": append([]byte("MCPSXX1\n"), good[8:]...),
		"short": good[:len(good)-1], "long": append(bytes.Clone(good), 0),
	} {
		if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "errand model") {
			t.Errorf("%s: %v, want an error naming the errand model", name, err)
		}
	}
	if _, err := Default(); err != nil {
		t.Errorf("the embedded model: %v", err)
	}
}

// TestEmbeddedModelReadsErrands: the embedded model reads everyday errands
// as errands and requests for software as software (texts written here,
// in no training or evaluation set).
func TestEmbeddedModelReadsErrands(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"add a label to the github issue", "how many rows are in the customers table", "post the release notes in slack"} {
		if m.Score(s) <= 0 {
			t.Errorf("%q scores %.2f as an errand", s, m.Score(s))
		}
	}
	for _, s := range []string{"how long do I boil an egg", "my knee hurts after running, ice or heat", "where can I buy a cheap sofa"} {
		if m.Score(s) >= 0 {
			t.Errorf("%q scores %.2f as software", s, m.Score(s))
		}
	}
}

// BenchmarkDecode is what the first search that asks the model pays once:
// go test ./index/internal/errand -run - -bench Decode.
func BenchmarkDecode(b *testing.B) {
	for b.Loop() {
		if _, err := Decode(embedded); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScore is what asking the model costs a search.
func BenchmarkScore(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m.Score("my knee hurts after running, should I ice it or use heat tonight")
	}
}
