package train

import (
	"bytes"
	"math"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

var (
	software = []string{"list open pull requests", "create a jira ticket for the login bug", "restart the crashing pod",
		"query the orders table", "send a slack message to the team", "deploy the site to production", "merge the feature branch",
		"show failing CI builds", "rotate the api key", "export the dashboard as csv"}
	errands = []string{"book a table for two tonight", "get red wine out of a silk shirt", "what should I cook for dinner",
		"fix a leaking tap", "walk the dog before work", "buy flowers for mum", "patch the jeans", "pick up the dry cleaning"}
)

// TestErrandSeparates: a model trained on two small sides scores each
// side's texts on its side of 0, and texts it never saw by their words.
func TestErrandSeparates(t *testing.T) {
	w, b := errandWeights(software, errands, 1)
	for _, s := range software {
		if floatScore(w, b, s) <= 0 {
			t.Errorf("%q scores %.2f, want above 0", s, floatScore(w, b, s))
		}
	}
	for _, s := range errands {
		if floatScore(w, b, s) >= 0 {
			t.Errorf("%q scores %.2f, want below 0", s, floatScore(w, b, s))
		}
	}
	if a, e := floatScore(w, b, "open a pull request for the branch"), floatScore(w, b, "cook dinner for the dog"); a <= e {
		t.Errorf("unseen software %.2f not above an unseen errand %.2f", a, e)
	}
}

// TestErrandIsSeeded: the same texts and seed give the same model bytes,
// another seed other bytes.
func TestErrandIsSeeded(t *testing.T) {
	a := index.EncodeErrandModel(errandWeights(software, errands, 7))
	b := index.EncodeErrandModel(errandWeights(software, errands, 7))
	c := index.EncodeErrandModel(errandWeights(software, errands, 8))
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
	w, b := errandWeights(software, errands, 3)
	m, err := index.DecodeErrandModel(index.EncodeErrandModel(w, b))
	if err != nil {
		t.Fatal(err)
	}
	largest := 0.0
	for _, x := range w {
		largest = max(largest, math.Abs(x))
	}
	for _, s := range append(append([]string{}, software...), errands...) {
		got, want := m.Score(s), floatScore(w, b, s)
		if tolerance := float64(len(index.ErrandFeatures(s))) * largest / 254; math.Abs(got-want) > tolerance+1e-6 {
			t.Errorf("%q: quantised %.4f, float %.4f (tolerance %.4f)", s, got, want, tolerance)
		}
		if (got > 0) != (want > 0) {
			t.Errorf("%q: quantised %.4f and float %.4f decide apart", s, got, want)
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
