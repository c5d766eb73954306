package fit

import (
	"math"
	"strings"
	"testing"
)

// TestEncodeDecode: a model survives its file, to six significant digits.
func TestEncodeDecode(t *testing.T) {
	m := Model{Mean: [NumSignals]float64{0.5, 0.3, 0.2, 0.25}, Scale: [NumSignals]float64{2.25, 0.2, 0.15, 0.1},
		Weights: [NumSignals]float64{1.1234567, 2.5, -0.75, 0.3333333}, Bias: -0.1234567, Threshold: -1.5, OwnThreshold: -2.5}
	back, err := Decode(m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Signals{{Errand: 3, Coverage: 0.9, Share: 0.5, Concepts: 2}, {Errand: -4, Coverage: 0.1, Concepts: 9}} {
		if d := math.Abs(back.Score(s) - m.Score(s)); d > 1e-4 {
			t.Errorf("score %v after the file, %v before", back.Score(s), m.Score(s))
		}
	}
	if back.Threshold != m.Threshold || back.OwnThreshold != m.OwnThreshold {
		t.Errorf("thresholds %v, %v after the file, %v, %v before", back.Threshold, back.OwnThreshold, m.Threshold, m.OwnThreshold)
	}
}

// TestDecodeRefuses: a file that is not a model, or whose figures could
// not score, is refused with what is wrong.
func TestDecodeRefuses(t *testing.T) {
	for data, want := range map[string]string{
		`not json`: "fit model",
		`{"Mean":[0,0,0,0],"Scale":[1,0,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0,"OwnThreshold":0}`:       "scale is not positive",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":1e999,"Threshold":0,"OwnThreshold":0}`:   "fit model",
		`{"Mean":[0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0,"OwnThreshold":0}`:         "Mean holds 3 figures, want 4",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0,0],"Bias":0,"Threshold":0,"OwnThreshold":0}`:     "Weights holds 5 figures, want 4",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0,"OwnThreshold":0,"X":1}`: "unknown field",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0}`:                        "no OwnThreshold",
	} {
		_, err := Decode([]byte(data))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", data, err, want)
		}
	}
}

// TestDefault: the embedded model decodes and reads a request that the
// errand model scores as software, and that its best item covers, as
// fitting, and an errand its best item barely covers as not.
func TestDefault(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if !m.Fits(Signals{Errand: 8, Coverage: 0.9, Share: 0.8, Concepts: 3}) {
		t.Error("a software request its best item covers does not fit")
	}
	if m.Fits(Signals{Errand: -4, Coverage: 0.2, Share: 0.2, Concepts: 3}) {
		t.Error("an errand its best item barely covers fits")
	}
}

// TestOwnWindowReadsItsThreshold: a search whose first items compete by
// their own text is read against OwnThreshold, any other against
// Threshold, and its margin is its score past the one that applies.
func TestOwnWindowReadsItsThreshold(t *testing.T) {
	m := Model{Scale: [NumSignals]float64{1, 1, 1, 1}, Weights: [NumSignals]float64{0, 1, 0, 0}, Threshold: 0.5, OwnThreshold: 0.2}
	s := Signals{Coverage: 0.3}
	if m.Fits(s) {
		t.Error("a search scoring 0.3 fits under the threshold 0.5")
	}
	if got := m.Margin(s); math.Abs(got-(-0.2)) > 1e-9 {
		t.Errorf("margin %v of a search scoring 0.3 against 0.5, want -0.2", got)
	}
	s.OwnWindow = true
	if !m.Fits(s) {
		t.Error("an own-text window scoring 0.3 does not fit under its threshold 0.2")
	}
	if got := m.Margin(s); math.Abs(got-0.1) > 1e-9 {
		t.Errorf("margin %v of an own-text window scoring 0.3 against 0.2, want 0.1", got)
	}
}
