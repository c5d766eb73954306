package fit

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// signals makes n signals whose errand score and coverage rise with
// level, the rest fixed.
func signals(n int, level float64) []Signals {
	out := make([]Signals, n)
	for i := range out {
		d := float64(i%7) / 7
		out[i] = Signals{Errand: level*4 - 2 + d, Coverage: level*0.6 + d/10, Share: 0.5, Concepts: 2 + i%3}
	}
	return out
}

// TestTrainSeparates: a model trained on fits whose signals are high and
// misfits whose signals are low reads the fits as fitting and most
// misfits not, and its threshold empties EmptiedShare of the fits, no
// more.
func TestTrainSeparates(t *testing.T) {
	fits, misfits := signals(200, 1), signals(60, 0)
	m := Train(fits, misfits)
	emptied := 0
	for _, s := range fits {
		if !m.Fits(s) {
			emptied++
		}
	}
	if want := int(EmptiedShare * float64(len(fits))); emptied > want {
		t.Errorf("the model empties %d of %d fits, want at most %d", emptied, len(fits), want)
	}
	caught := 0
	for _, s := range misfits {
		if !m.Fits(s) {
			caught++
		}
	}
	if caught < len(misfits)*9/10 {
		t.Errorf("the model reads %d of %d misfits as not fitting, want at least 90%%", caught, len(misfits))
	}
	if m.Weights[0] <= 0 || m.Weights[1] <= 0 {
		t.Errorf("weights %v: want the errand score and the coverage to count for fitting", m.Weights)
	}
}

// TestTrainWithoutOneSide: with no fits or no misfits there is nothing to
// learn, and the model reads everything as fitting.
func TestTrainWithoutOneSide(t *testing.T) {
	for _, m := range []Model{Train(nil, signals(5, 0)), Train(signals(5, 1), nil)} {
		if !m.Fits(Signals{Errand: -100}) {
			t.Errorf("%+v empties a query", m)
		}
	}
}

// TestEncodeDecode: a model survives its file, to six significant
// digits, and training is deterministic: the same signals give the same
// bytes.
func TestEncodeDecode(t *testing.T) {
	m := Train(signals(100, 1), signals(30, 0))
	data := m.Encode()
	if !bytes.Equal(data, Train(signals(100, 1), signals(30, 0)).Encode()) {
		t.Fatal("two trainings on the same signals wrote different files")
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(signals(100, 1), signals(30, 0)...) {
		if d := math.Abs(back.Score(s) - m.Score(s)); d > 1e-3 {
			t.Fatalf("score %v after the file, %v before", back.Score(s), m.Score(s))
		}
	}
}

// TestDecodeRefuses: a file that is not a model, or whose figures could
// not score, is refused with what is wrong.
func TestDecodeRefuses(t *testing.T) {
	for data, want := range map[string]string{
		`not json`: "fit model",
		`{"Mean":[0,0,0,0],"Scale":[1,0,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0}`:       "scale is not positive",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":1e999,"Threshold":0}`:   "fit model",
		`{"Mean":[0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0}`:         "Mean holds 3 figures, want 4",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0,0],"Bias":0,"Threshold":0}`:     "Weights holds 5 figures, want 4",
		`{"Mean":[0,0,0,0],"Scale":[1,1,1,1],"Weights":[0,0,0,0],"Bias":0,"Threshold":0,"X":1}`: "unknown field",
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
