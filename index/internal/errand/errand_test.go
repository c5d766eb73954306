package errand

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

var (
	software = []string{"list open pull requests", "create a jira ticket for the login bug", "restart the crashing pod",
		"query the orders table", "send a slack message to the team", "deploy the site to production", "merge the feature branch",
		"show failing CI builds", "rotate the api key", "export the dashboard as csv"}
	errands = []string{"book a table for two tonight", "get red wine out of a silk shirt", "what should I cook for dinner",
		"fix a leaking tap", "walk the dog before work", "buy flowers for mum", "patch the jeans", "pick up the dry cleaning"}
)

// TestTrainSeparates: a model trained on two small sides scores each
// side's texts on its side of 0, and texts it never saw by their words.
func TestTrainSeparates(t *testing.T) {
	w, b := Train(software, errands, 1)
	for _, s := range software {
		if Float(w, b, s) <= 0 {
			t.Errorf("%q scores %.2f, want above 0", s, Float(w, b, s))
		}
	}
	for _, s := range errands {
		if Float(w, b, s) >= 0 {
			t.Errorf("%q scores %.2f, want below 0", s, Float(w, b, s))
		}
	}
	if a, e := Float(w, b, "open a pull request for the branch"), Float(w, b, "cook dinner for the dog"); a <= e {
		t.Errorf("unseen software %.2f not above an unseen errand %.2f", a, e)
	}
}

// TestTrainIsSeeded: the same texts and seed give the same model bytes,
// another seed other bytes.
func TestTrainIsSeeded(t *testing.T) {
	a := Encode(Train(software, errands, 7))
	b := Encode(Train(software, errands, 7))
	c := Encode(Train(software, errands, 8))
	if !bytes.Equal(a, b) {
		t.Error("one seed gave two models")
	}
	if bytes.Equal(a, c) {
		t.Error("two seeds gave one model")
	}
}

// TestQuantisedMatchesFloat: the int8 model scores as the float model it
// was made from, within what rounding a weight to 1/127 of the largest
// costs, and decides alike on every training text (the parity of the
// product's scores with the trainer's).
func TestQuantisedMatchesFloat(t *testing.T) {
	w, b := Train(software, errands, 3)
	m, err := Decode(Encode(w, b))
	if err != nil {
		t.Fatal(err)
	}
	largest := 0.0
	for _, x := range w {
		largest = max(largest, math.Abs(x))
	}
	for _, s := range append(append([]string{}, software...), errands...) {
		got, want := m.Score(s), Float(w, b, s)
		if tolerance := float64(len(Features(s))) * largest / 254; math.Abs(got-want) > tolerance+1e-6 {
			t.Errorf("%q: quantised %.4f, float %.4f (tolerance %.4f)", s, got, want, tolerance)
		}
		if (got > 0) != (want > 0) {
			t.Errorf("%q: quantised %.4f and float %.4f decide apart", s, got, want)
		}
	}
}

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

// TestExp: the training's own e^x agrees with math.Exp to a few ulps.
func TestExp(t *testing.T) {
	for _, x := range []float64{-700, -30, -2.5, -1, -1e-9, 0, 0.3, 1, 2.5, 30, 700} {
		got, want := exp(x), math.Exp(x)
		if math.Abs(got-want) > 1e-13*math.Abs(want) {
			t.Errorf("exp(%g) = %g, math.Exp %g", x, got, want)
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
