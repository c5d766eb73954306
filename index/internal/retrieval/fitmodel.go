package retrieval

import (
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/errand"
	fitmodel "github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// The fit model (fit-model, package fit): on a kind whose items mostly
// carry written requests, whether any item fits a query is decided by a
// logistic model over four signals of its search rather than by the
// errand model and the coverage cut alone. A query the model reads as
// fitting keeps its items, with the near-miss hint, or, where its best
// item holds less than rank.MinCoverage of its weight (the coverage cut's
// bar), a hint naming what that item lacks, and so does a short one that
// names a server the caller sees (keptForNamedServer); one it does not
// gets no items and the errand hint, where the errand model reads it as an
// errand, else what the best item lacks.

// modelJudgement is the fit model's word on a query: whether it was
// asked, and what it says.
type modelJudgement struct {
	asked bool
	fit   fit
}

// judgeByModel asks the fit model about r's best candidates, where it
// applies: fit-model on, the kind's items mostly asked (mostlyAsked).
func (x searcher) judgeByModel(r *Request, cands []rank.Candidate, asked RequestMatches, held map[string]bool, w window, written string) (modelJudgement, error) {
	if !r.Off.On(rules.FitModel) || !x.mostlyAsked(r.Query.Kind) {
		return modelJudgement{}, nil
	}
	m, err := fitmodel.Default()
	if err != nil {
		return modelJudgement{}, err
	}
	s, err := x.fitSignals(r, m, cands, asked, held, w)
	if err != nil {
		return modelJudgement{}, err
	}
	cov, missing := coverage(r.Concepts, held, w.docs)
	lacking := writtenOnly(missing, written)
	if m.Fits(s) || keptForNamedServer(r, s, cands) {
		f := nearMiss(r, held, w.docs, written)
		if f.hint == "" && cov < rank.MinCoverage && len(lacking) > 0 {
			f.hint = "the best match lacks " + strings.Join(lacking, ", ")
		}
		f.signals = &s
		return modelJudgement{asked: true, fit: f}, nil
	}
	hint := lacksHint(lacking)
	if r.Off.On(rules.ErrandModel) && s.Errand < rank.ErrandThreshold {
		hint = errandHint(lacking)
	}
	return modelJudgement{asked: true, fit: fit{empty: true, hint: hint, signals: &s}}, nil
}

// keptForNamedServer reports whether named-server-fits keeps r's items
// whatever the fit model says: r names the server of one of the first
// rank.FitWindow candidates (server-named lifted it), a system the caller
// sees and the ranking holds among its best, so it is neither an errand
// nor a near miss ("wie viel Geld liegt gerade auf Stripe",
// TestNamedServerKeepsItems). Three guards keep
// an everyday request that uses a server's word in passing from keeping
// items: r has at most maxWindowConcepts concepts (a longer message may
// say "I saw it on Slack"), the errand model reads it as software (its
// score s.Errand at least rank.ErrandThreshold: "help with my linear
// algebra homework" is an errand), and a server named by a day ("monday")
// names nothing here, a day being when a request is done (time-words).
// With server-named off no server is named, and the rule keeps nothing.
func keptForNamedServer(r *Request, s fitmodel.Signals, cands []rank.Candidate) bool {
	if !r.Off.On(rules.NamedServerFits) || len(r.Concepts) > maxWindowConcepts || s.Errand < rank.ErrandThreshold {
		return false
	}
	for _, c := range cands[:min(len(cands), rank.FitWindow)] {
		if c.Signals != nil && c.Signals.ServerScore > 0 && !text.IsTimeWord(c.Server) {
			return true
		}
	}
	return false
}

// fitSignals measures the fit model's signals of r's search:
//   - the errand model's score (with errand-model off, the mean m was
//     trained around: neutral);
//   - the best coverage of the first item and, with fit-window, of the
//     first rank.FitWindow for a query of at most maxWindowConcepts
//     concepts, each with its request's words where request-fit lets them
//     count: the window, for which item comes first is where the ranking
//     of a caller who sees part of a catalog and of that part alone may
//     differ;
//   - the best written request's share of the query's weight;
//   - the query's concepts.
func (x searcher) fitSignals(r *Request, m *fitmodel.Model, cands []rank.Candidate, asked RequestMatches, held map[string]bool, w window) (fitmodel.Signals, error) {
	s := fitmodel.Signals{Concepts: len(r.Concepts)}
	s.Coverage, _ = coverage(r.Concepts, held, w.docs)
	if r.Off.On(rules.FitWindow) && len(r.Concepts) <= maxWindowConcepts {
		best, err := x.bestCoverage(r.Query.Kind, r.Concepts, w.alternatives, cands, w.docs, asked, w.rterms)
		if err != nil {
			return s, err
		}
		s.Coverage = max(s.Coverage, best)
	}
	for _, m := range asked.list {
		s.Share = max(s.Share, m.Share)
	}
	if !r.Off.On(rules.ErrandModel) {
		s.Errand = m.Mean[0]
		return s, nil
	}
	em, err := errand.Default()
	if err != nil {
		return s, err
	}
	s.Errand = em.Score(r.Query.Text)
	return s, nil
}

// mostlyAsked reports whether at least rank.MinAskedShare of the items of
// kind that the caller sees carry written requests: the errand and fit
// models know what people ask of software through them, and on catalogs
// without requests the errand model emptied answerable tasks. Items the
// caller may not see count neither way, so that a hidden server's
// requests never switch the caller's no-match test (TestHiddenRequestsSwitchNothing).
func (x searcher) mostlyAsked(kind ext.Kind) bool {
	idx := x.Requests()
	if idx == nil {
		return false
	}
	items, asked := idx.ItemCount(kind), idx.ItemsWithRequests(kind)
	if v := x.RequestView(kind); v != nil {
		items, asked = v.Items(), v.Asked()
	}
	return items > 0 && float64(asked) >= rank.MinAskedShare*float64(items)
}

// maxWindowConcepts bounds the queries whose window coverage the fit
// model weighs: a longer one (a chat message, or the worst allowed query
// of 128 words) weighs its first item's alone, so that reading what each
// of the window's items holds of its concepts costs a search no more
// than the longest short query does (TestWorstQueryAllocs).
const maxWindowConcepts = 8

// window is what the no-match test has read of a search to weigh the
// coverage of its candidates: the items' count, the alternatives of the
// query's concepts and the terms of the written requests.
type window struct {
	docs         int
	alternatives []Term
	rterms       []requests.Term
}
