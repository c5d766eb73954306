package index

import (
	"context"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/errand"
	"github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/wordkind"
)

// What the no-match test's two models read and how their files are
// written, for the lab that trains them (infra/lab/train): the index
// only reads the embedded models; nothing here trains one.

// ErrandModel is the model that tells a request for software from an
// everyday errand: Score(text) > 0 reads as software.
type ErrandModel = errand.Model

// ErrandFeatureDims is the number of hashed features the errand model
// weighs.
const ErrandFeatureDims = errand.Dims

// ErrandFeatures returns the hashed features (each below
// ErrandFeatureDims) the errand model reads of text.
func ErrandFeatures(text string) []uint32 { return errand.Features(text) }

// EncodeErrandModel writes the errand model of weights w
// (ErrandFeatureDims of them) and bias b in its file's form: int8
// weights, quantised to 1/127 of the largest.
func EncodeErrandModel(w []float64, b float64) []byte { return errand.Encode(w, b) }

// DecodeErrandModel reads an errand model file.
func DecodeErrandModel(data []byte) (*ErrandModel, error) { return errand.Decode(data) }

// FitSignals are what the fit model of the no-match test weighs of a
// search; Vector is how the model reads them.
type FitSignals = fit.Signals

// FitSignalCount is the number of signals the fit model weighs (the
// length of FitSignals.Vector).
const FitSignalCount = fit.NumSignals

// FitModel is the fit model: Score(signals) below Threshold reads as "no
// item fits"; Encode writes its file.
type FitModel = fit.Model

// FitSignalsOfSearch ranks text as a tool search by a caller who sees
// every item, and returns the fit model's signals of it; false where the
// model is not asked about it (no word found, an unread Chinese or
// Japanese query, a bundle whose items carry no requests).
func (x *Index) FitSignalsOfSearch(ctx context.Context, text string) (FitSignals, bool, error) {
	src, q, req, err := x.read(ext.Query{Kind: ext.KindTool, Text: text, Limit: 10}, ext.Access{})
	if err != nil || len(req.Terms) == 0 {
		return FitSignals{}, false, err
	}
	filters, err := retrieval.FilterClauses(q, src.SeesAll(), ext.Access{})
	if err != nil {
		return FitSignals{}, false, err
	}
	res, err := retrieval.Rank(ctx, src, req, filters)
	if err != nil || res.Signals == nil {
		return FitSignals{}, false, err
	}
	return *res.Signals, true, nil
}

// WordKindModel is the model that tells a word naming what tools deal
// with (Score > 0) from one requests say in passing; Encode writes its
// file.
type WordKindModel = wordkind.Model

// WordKindFeatureCount is the number of features the word-kind model
// weighs.
const WordKindFeatureCount = wordkind.NumFeatures

// WordKindFeatures returns the features the word-kind model reads of
// word, and false where the word vectors do not hold it.
func WordKindFeatures(word string) ([WordKindFeatureCount]float64, bool) {
	return wordkind.Features(word)
}
