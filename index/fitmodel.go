package index

import (
	"context"
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

// FitModelFile is where the embedded fit model lives in the repository.
const FitModelFile = "index/internal/fit/model.json"

// TrainFitModel trains the fit model of the no-match test (package
// index/internal/fit) on the signals of x's searches, as a caller who sees
// every item: of fits, requests some item fits, and of misfits, requests
// none fits. Requests whose search the model is not asked about (no word
// found, an unread Chinese or Japanese query, a bundle whose items carry
// no requests) are left out. It returns the model file and how many of
// each were used.
func TrainFitModel(ctx context.Context, x *Index, fits, misfits []string) ([]byte, int, int, error) {
	fs, err := x.fitSignals(ctx, fits)
	if err != nil {
		return nil, 0, 0, err
	}
	ms, err := x.fitSignals(ctx, misfits)
	if err != nil {
		return nil, 0, 0, err
	}
	if len(fs) == 0 || len(ms) == 0 {
		return nil, 0, 0, fmt.Errorf("index %s: the fit model is asked about %d of the fitting and %d of the other requests; want some of each (do the items carry written requests?)", x.dir, len(fs), len(ms))
	}
	return fit.Train(fs, ms).Encode(), len(fs), len(ms), nil
}

// fitSignals are the fit model's signals of the tool searches of texts
// that it is asked about.
func (x *Index) fitSignals(ctx context.Context, texts []string) ([]fit.Signals, error) {
	var out []fit.Signals
	for _, text := range texts {
		s, err := x.fitSignalsOf(ctx, text)
		if err != nil {
			return nil, err
		}
		if s != nil {
			out = append(out, *s)
		}
	}
	return out, nil
}

// fitSignalsOf ranks text as a tool search by a caller who sees every
// item, and returns the fit model's signals, nil where it is not asked.
func (x *Index) fitSignalsOf(ctx context.Context, text string) (*fit.Signals, error) {
	src, q, req, err := x.read(ext.Query{Kind: ext.KindTool, Text: text, Limit: 10}, ext.Access{})
	if err != nil || len(req.Terms) == 0 {
		return nil, err
	}
	filters, err := filterClauses(q, src.w.all(), ext.Access{})
	if err != nil {
		return nil, err
	}
	res, err := retrieval.Rank(ctx, src, req, filters)
	if err != nil {
		return nil, err
	}
	return res.Signals, nil
}
