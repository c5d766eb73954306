// Package fit is the fit model of the no-match test: a logistic model
// over four signals of a search that tells a request some item fits from
// one no item fits, where the items carry written requests.
//
// The signals (Signals) are what the pipeline has measured by then: the
// errand model's score of the request (package errand), the share of the
// query's weight the best item holds (with its request's words where they
// fit it: request-fit), the best written request's share of it, and how
// many concepts the query holds. Each alone separates answerable from
// off-catalog requests less well than the errand model; weighed together
// they did better on requests written before any tuning (the technique
// log of index/README.md). Each is the same for a caller who sees part of
// a catalog as over a catalog of that part alone (idf and shares count
// only what the caller sees), so the model's word tells a caller nothing
// of the items it may not see; the best item's BM25 score and the best
// cosine of the re-ranking window, which weighed as much on the dev
// halves, are not (TestHiddenServersRanking), and are left out.
//
// The model is trained at development time (go run ./infra/lab/cmd/mcpsearch-lab
// fitmodel) on the signals of the dev halves of the everyday and fresh
// sets (requests some item fits) and of the off-catalog set (requests none
// fits), and embedded (model.json): its threshold is where the dev halves'
// answerable requests lose 1% of them, no more. It has a second threshold
// (OwnThreshold) for the searches whose first items compete by their own
// text rather than by written requests (Signals.OwnWindow), set the same
// way over the shipped catalog and mixed ones: one threshold per kind of
// evidence, so that the items nobody wrote requests for are not emptied
// for reading as one line rather than a dozen. Training (package
// infra/lab/train, outside the serving tree) is deterministic, full-batch
// gradient descent in a fixed order with its own exponential, the figures
// written to six significant digits, so every machine trains the same
// bytes (TestFitModelIsTheTrainedOne).
package fit

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
)

// NumSignals is the number of signals.
const NumSignals = 4

// Signals are what the no-match test weighs of a search.
type Signals struct {
	Errand   float64 // the errand model's score of the request (log-odds of software)
	Coverage float64 // the share of the query's weight the best item holds
	Share    float64 // the best written request's share of the query's weight
	Concepts int     // the concepts of the query
	// OwnWindow is set when most of the first OwnWindowItems items of the
	// search compete by their own text (own-text), not by requests
	// written for them: the model reads such a search against its own
	// threshold (Model.OwnThreshold). It is not weighed.
	OwnWindow bool
}

// OwnWindowItems is how many of a search's first items OwnWindow counts.
const OwnWindowItems = 5

// Vector is the signals as the model reads them: the concepts counted to
// 8 and scaled to 1.
func (s Signals) Vector() [NumSignals]float64 {
	return [NumSignals]float64{s.Errand, s.Coverage, s.Share, float64(min(s.Concepts, 8)) / 8}
}

// Model is a trained fit model: Score(s) below Threshold reads as "no item
// fits".
type Model struct {
	// Mean and Scale standardise each signal (x-Mean)/Scale before it is
	// weighed.
	Mean, Scale [NumSignals]float64
	Weights     [NumSignals]float64
	Bias        float64
	Threshold   float64
	// OwnThreshold is the threshold of the searches whose first items
	// mostly compete by their own text (Signals.OwnWindow): a fit by an
	// item's own text holds less of the request than a fit by written
	// requests, and in a mixed catalog the model's one threshold emptied
	// their fits twice as often as a catalog without requests does.
	OwnThreshold float64
}

// Score is the model's log-odds that some item fits.
func (m *Model) Score(s Signals) float64 {
	z := m.Bias
	for i, x := range s.Vector() {
		z += m.Weights[i] * (x - m.Mean[i]) / m.Scale[i]
	}
	return z
}

// Margin is how far Score(s) lies past the threshold that applies to s.
func (m *Model) Margin(s Signals) float64 {
	if s.OwnWindow {
		return m.Score(s) - m.OwnThreshold
	}
	return m.Score(s) - m.Threshold
}

// Fits reports whether the model reads s as a request some item fits.
func (m *Model) Fits(s Signals) bool {
	if s.OwnWindow {
		return m.Score(s) >= m.OwnThreshold
	}
	return m.Score(s) >= m.Threshold
}

//go:embed model.json
var embedded []byte

// Default is the embedded model.
var Default = sync.OnceValues(func() (*Model, error) { return Decode(embedded) })

// Decode reads a model file, refusing one with a field it does not know,
// a list that is not NumSignals long, a scale that is not positive or a
// figure that is not finite.
func Decode(data []byte) (*Model, error) {
	var f struct {
		Mean, Scale, Weights []float64
		Bias, Threshold      float64
		OwnThreshold         *float64
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("fit model: %w", err)
	}
	var m Model
	for name, list := range map[string][]float64{"Mean": f.Mean, "Scale": f.Scale, "Weights": f.Weights} {
		if len(list) != NumSignals {
			return nil, fmt.Errorf("fit model: %s holds %d figures, want %d", name, len(list), NumSignals)
		}
	}
	copy(m.Mean[:], f.Mean)
	copy(m.Scale[:], f.Scale)
	copy(m.Weights[:], f.Weights)
	if f.OwnThreshold == nil {
		return nil, errors.New("fit model: no OwnThreshold")
	}
	m.Bias, m.Threshold, m.OwnThreshold = f.Bias, f.Threshold, *f.OwnThreshold
	figures := append(append(append(m.Mean[:], m.Scale[:]...), m.Weights[:]...), m.Bias, m.Threshold, m.OwnThreshold)
	for _, f := range figures {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errors.New("fit model: a figure is not finite")
		}
	}
	for _, s := range m.Scale {
		if s <= 0 {
			return nil, errors.New("fit model: a scale is not positive")
		}
	}
	return &m, nil
}

// Encode writes the model as indented JSON, each figure to six
// significant digits.
func (m Model) Encode() []byte {
	round := func(xs []float64) {
		for i, x := range xs {
			xs[i] = roundFigure(x)
		}
	}
	round(m.Mean[:])
	round(m.Scale[:])
	round(m.Weights[:])
	m.Bias, m.Threshold, m.OwnThreshold = roundFigure(m.Bias), roundFigure(m.Threshold), roundFigure(m.OwnThreshold)
	data, _ := json.MarshalIndent(m, "", "  ")
	return append(data, '\n')
}

func roundFigure(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return r
}
