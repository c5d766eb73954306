package train

import (
	"bytes"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

// signals makes n signals whose errand score and coverage rise with
// level, the rest fixed.
func signals(n int, level float64) []index.FitSignals {
	out := make([]index.FitSignals, n)
	for i := range out {
		d := float64(i%7) / 7
		out[i] = index.FitSignals{Errand: level*4 - 2 + d, Coverage: level*0.6 + d/10, Share: 0.5, Concepts: 2 + i%3}
	}
	return out
}

// TestFitSeparates: a model trained on fits whose signals are high and
// misfits whose signals are low reads the fits as fitting and most
// misfits not, and its threshold empties EmptiedShare of the fits, no
// more.
func TestFitSeparates(t *testing.T) {
	fits, misfits := signals(200, 1), signals(60, 0)
	m := fitModel(fits, misfits)
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

// TestFitWithoutOneSide: with no fits or no misfits there is nothing to
// learn, and the model reads everything as fitting.
func TestFitWithoutOneSide(t *testing.T) {
	for _, m := range []index.FitModel{fitModel(nil, signals(5, 0)), fitModel(signals(5, 1), nil)} {
		if !m.Fits(index.FitSignals{Errand: -100}) {
			t.Errorf("%+v empties a query", m)
		}
	}
}

// TestFitIsDeterministic: the same signals give the same model file.
func TestFitIsDeterministic(t *testing.T) {
	a, b := fitModel(signals(100, 1), signals(30, 0)).Encode(), fitModel(signals(100, 1), signals(30, 0)).Encode()
	if !bytes.Equal(a, b) {
		t.Fatal("two trainings on the same signals wrote different files")
	}
}

// TestOwnThresholdEmptiesTheShare: fits whose first items compete by
// their own text, scoring lower than the others, get a threshold of
// their own that empties EmptiedShare of them, no more, where the
// model's one threshold would empty far more; without such fits it is
// the model's threshold.
func TestOwnThresholdEmptiesTheShare(t *testing.T) {
	fits, misfits := signals(200, 1), signals(60, 0)
	m := fitModel(fits, misfits)
	if got := withOwnThreshold(m, nil); got.OwnThreshold != m.Threshold {
		t.Errorf("without own-text fits: OwnThreshold %v, want the threshold %v", got.OwnThreshold, m.Threshold)
	}
	own := signals(200, 0.4)
	for i := range own {
		own[i].OwnWindow = true
	}
	emptied := func(m index.FitModel) int {
		n := 0
		for _, s := range own {
			if !m.Fits(s) {
				n++
			}
		}
		return n
	}
	want := int(EmptiedShare * float64(len(own)))
	if n := emptied(m); n <= want {
		t.Fatalf("the model's one threshold empties %d of %d own-text fits: the test shows nothing", n, len(own))
	}
	if n := emptied(withOwnThreshold(m, own)); n > want {
		t.Errorf("with OwnThreshold: %d of %d own-text fits emptied, want at most %d", n, len(own), want)
	}
}
