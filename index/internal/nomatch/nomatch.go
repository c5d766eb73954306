// Package nomatch decides whether a search answers that nothing fits, and
// what its hint says ("When nothing fits", functions/search/README.md).
//
// The contract: package retrieval measures the Signals of a search once
// (each signal by one computation, none read twice), and Decide walks
// List, an explicit ordered list of decisions, over them: the first line
// whose rule is on (package rules) and whose condition holds is the
// search's Decision, named by its rule. Switching a rule off removes its
// line and nothing else from the list, so that an ablation of the rule
// measures that line alone; the few rules that shape a signal as well (a
// line's rule that is also read by a signal: errand-model, fit-window,
// request-fit, time-words, unknown-words-hint) say so in Signals.
// Decide reads nothing but its arguments: the same signals give the same
// decision.
package nomatch

import (
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// The hints of an emptied page, and of a near miss.
const (
	// NoWordMatches is the hint of a query none of whose words an item
	// holds (the filter may be to blame: package index says so).
	NoWordMatches = "no item matches any word of the query"
	// ErrandHint opens the hint of a request the errand model reads as an
	// everyday errand (errand-model); what the best item lacks follows, in
	// the caller's words.
	ErrandHint = "no item fits this query well: it reads as an everyday errand, not a request for these tools"
	// NoWordRead is the hint of a Chinese or Japanese query none of whose
	// words the gloss tables know: its items hold pairs of its characters,
	// which tell nothing of what it asks.
	NoWordRead = "no item fits this query well: none of its words is known"
	// NoFit is the hint of a query no item fits, when none of the words its
	// best match lacks can be named as the caller wrote them.
	NoFit = "no item fits this query well"
	// lacksPrefix opens the hint of a page that keeps its items but whose
	// best item lacks words of the query.
	lacksPrefix = "the best match lacks "
)

// MaxWindowConcepts bounds the queries whose window coverage the fit
// model weighs and named-server-fits reads: a longer one (a chat message,
// or the worst allowed query of 128 words) weighs its first item's alone,
// so that reading what each of the window's items holds of its concepts
// costs a search no more than the longest short query does
// (TestWorstQueryAllocs).
const MaxWindowConcepts = 8

// Signals are what the decision reads of one search, each measured once
// by package retrieval (retrieval.noMatchSignals). A signal that no line
// can weigh given the rules switched off is not measured, and says so
// (the …Read fields).
type Signals struct {
	// Candidates is set when some item the caller sees holds a word of the
	// query.
	Candidates bool
	// UnreadCJK is set when the caller's text is Chinese or Japanese and
	// none of its concepts weighs anything (unread-cjk on).
	UnreadCJK bool
	// Concepts is how many concepts the query has (retrieval.Concept).
	Concepts int
	// Asked is set when at least MinAskedShare of the items of the
	// kind the caller sees carry written requests: the errand and fit
	// models apply there only.
	Asked bool
	// Errand is the errand model's score of the request (log-odds of
	// software), measured where Asked and errand-model is on (ErrandRead);
	// elsewhere where Asked, the fit model's mean (neutral).
	Errand     float64
	ErrandRead bool
	// Coverage is the share of the query's weight the first item holds
	// (with its written request's words where request-fit lets them count;
	// a day or a time of day weighs nothing where time-words is on).
	Coverage float64
	// Window is the best coverage of the other items of the first
	// FitWindow, measured (WindowRead) where fit-window is on, the
	// query has at most MaxWindowConcepts concepts and a line weighs it:
	// the fit model's, or fit-window's for a short query below
	// MinCoverage.
	Window     float64
	WindowRead bool
	// Fit is what the fit model weighed, nil where it was not asked
	// (fit-model off, or not Asked); Fits is its word on it.
	Fit  *fit.Signals
	Fits bool
	// FitMargin is how far the fit model's score lies past its threshold,
	// where Fit is measured (fit.Model.Margin).
	FitMargin float64
	// NamedServer is set when one of the first FitWindow candidates
	// is of a server the query names (server-named lifted it), not by a
	// day or a time of day, and reached the window on its own score, not
	// because its server was named (named-server-items).
	NamedServer bool
	// Lacking are the labels of the weighty concepts the first item lacks,
	// heaviest first, in the caller's words.
	Lacking []string
	// Missing are the Lacking a kept page's hint may name: with
	// missing-hints on, those no item the caller sees holds, or that name
	// a product; all of them with it off.
	Missing []string
	// NearMiss are the labels a near-miss hint names (near-miss-hint on;
	// unknown-words-hint adds the words no item holds): the concepts the
	// first item lacks that weigh at least rank.LackWeightRatio times the
	// heaviest it holds, in the caller's words; with missing-hints on, only
	// those of them that are Missing; with fit-hints, where the model
	// reads a fit by FitHintMargin, only those no item holds (in a request
	// of another language, capitalised) or that name a product.
	NearMiss []string
}

// Decision is the line of List a search reached.
type Decision struct {
	// Rule names the line: its rule's name, or a built-in line's
	// (NoCandidates, Kept).
	Rule string
	// Empty is set when the page gets no items.
	Empty bool
	// Hint is the page's hint, if any.
	Hint string
	// WeighedFit is set when the line reached is one of the fit model's
	// (named-server-fits, fit-model): Signals.Fit are the signals of a
	// search the model judged (index.FitSignalsOfSearch, its training).
	WeighedFit bool

	line int // its place in List
}

// Explanation is what a search page says of its no-match decision
// (ext.Page.Explain): the decision reached, as Decision.Name says it.
type Explanation struct {
	Decision string `json:"decision"`
}

// explanations are the Explanation of each line of List, made once: a
// page points at its line's, and explaining costs a search nothing.
var explanations = func() []Explanation {
	out := make([]Explanation, len(List))
	for i, l := range List {
		out[i].Decision = Decision{Rule: l.Name, Empty: l.Empty}.Name()
	}
	return out
}()

// Explanation is d's, shared by every page that reached its line; nil for
// the zero Decision (no search decided).
func (d Decision) Explanation() *Explanation {
	if d.Rule == "" {
		return nil
	}
	return &explanations[d.line]
}

// Name is the decision as the ablation counts it: its line's name and
// outcome ("fit-model empty"), a built-in line's name alone ("kept").
func (d Decision) Name() string {
	switch {
	case d.Rule == NoCandidates || d.Rule == Kept:
		return d.Rule
	case d.Empty:
		return d.Rule + " empty"
	}
	return d.Rule + " keep"
}

// The built-in lines, which no rule switches off.
const (
	NoCandidates = "no-candidates"
	Kept         = "kept"
)

// Line is one decision of List.
type Line struct {
	// Name is the line's rule's name, or a built-in line's.
	Name string
	// Condition says, in one line, when the line decides.
	Condition string
	// Empty is the outcome: no items, or the items kept.
	Empty bool
	// Hint says, in one line, what the page's hint is.
	Hint string

	rule    rules.Rule
	builtin bool
	fit     bool
	holds   func(Signals) bool
	hint    func(Signals) string
}

// On reports whether the line applies with the rules off switched off.
func (l Line) On(off rules.Set) bool { return l.builtin || off.On(l.rule) }

// Outcome is "empty" or "keep".
func (l Line) Outcome() string {
	if l.Empty {
		return "empty"
	}
	return "keep"
}

// List is the no-match decision, in order: the first line that is on and
// whose condition holds decides.
var List = []Line{
	{
		Name: NoCandidates, builtin: true, Empty: true,
		Condition: "no item the caller sees holds a word of the query",
		Hint:      "no item matches any word of the query",
		holds:     func(s Signals) bool { return !s.Candidates },
		hint:      func(Signals) string { return NoWordMatches },
	},
	{
		Name: rules.UnreadCJK.Name(), rule: rules.UnreadCJK, Empty: true,
		Condition: "a Chinese or Japanese query none of whose concepts weighs anything (no known word, no product code)",
		Hint:      "none of its words is known",
		holds:     func(s Signals) bool { return s.UnreadCJK },
		hint:      func(Signals) string { return NoWordRead },
	},
	{
		Name: rules.FitModel.Name(), rule: rules.FitModel, fit: true,
		Condition: "items mostly asked; the fit model reads a fit",
		Hint:      "the near-miss hint, or what the best item lacks below the coverage bar (with missing-hints, only what no item holds, or a product)",
		holds:     func(s Signals) bool { return s.Fit != nil && s.Fits },
		hint:      keptHint,
	},
	{
		Name: rules.NamedServerFits.Name(), rule: rules.NamedServerFits, fit: true,
		Condition: fmt.Sprintf("items mostly asked; at most %d concepts; the errand model reads software; a server the query names among the first %d on its own score, not for being named", MaxWindowConcepts, FitWindow),
		Hint:      "the near-miss hint, or what the best item lacks below the coverage bar (with missing-hints, only what no item holds, or a product)",
		holds:     namedServerFits,
		hint:      keptHint,
	},
	{
		Name: rules.FitModel.Name(), rule: rules.FitModel, fit: true, Empty: true,
		Condition: "items mostly asked; the fit model reads no fit",
		Hint:      "the errand hint where the errand model reads an errand, else what the best item lacks",
		holds:     func(s Signals) bool { return s.Fit != nil && !s.Fits },
		hint: func(s Signals) string {
			if s.ErrandRead && s.Errand < ErrandThreshold {
				return errandHint(s.Lacking)
			}
			return lacksHint(s.Lacking)
		},
	},
	{
		Name: rules.ErrandModel.Name(), rule: rules.ErrandModel, Empty: true,
		Condition: "items mostly asked; the errand model reads an everyday errand",
		Hint:      "the errand hint and what the best item lacks",
		holds:     readsAsErrand,
		hint:      func(s Signals) string { return errandHint(s.Lacking) },
	},
	{
		Name: rules.FitWindow.Name(), rule: rules.FitWindow,
		Condition: fmt.Sprintf("a short query (at most %d words) whose first item holds less than %.2f of its weight, another of the first %d at least %.2f", ShortQueryTerms, MinCoverage, FitWindow, FitCoverage),
		Hint:      "the near-miss hint",
		holds: func(s Signals) bool {
			return belowCoverage(s) && s.WindowRead && s.Window >= FitCoverage
		},
		hint: nearMissHint,
	},
	{
		Name: rules.NoMatch.Name(), rule: rules.NoMatch, Empty: true,
		Condition: fmt.Sprintf("a short query (at most %d words) whose first item holds less than %.2f of its weight", ShortQueryTerms, MinCoverage),
		Hint:      "what the best item lacks",
		holds:     belowCoverage,
		hint:      func(s Signals) string { return lacksHint(s.Lacking) },
	},
	{
		Name: rules.NearMissHint.Name(), rule: rules.NearMissHint,
		Condition: "the best item lacks a heavy word of the query, or one no item holds",
		Hint:      "the best match lacks … (with missing-hints, only what no item holds, or a product)",
		holds:     func(s Signals) bool { return len(s.NearMiss) > 0 },
		hint:      nearMissHint,
	},
	{
		Name: Kept, builtin: true,
		Condition: "any other search",
		Hint:      "none",
		holds:     func(Signals) bool { return true },
		hint:      func(Signals) string { return "" },
	},
}

// Decide walks List over s with the rules off switched off, and returns
// the first line that decides.
func Decide(s Signals, off rules.Set) Decision {
	for i, l := range List {
		if l.On(off) && l.holds(s) {
			return Decision{Rule: l.Name, Empty: l.Empty, Hint: l.hint(s), WeighedFit: l.fit, line: i}
		}
	}
	panic("nomatch: the last line of List always decides")
}

// namedServerFits is named-server-fits' condition: a request that names
// the server of one of the first FitWindow candidates (server-named
// lifted it), a system the caller sees and the ranking holds among its
// best, is neither an errand nor a near miss ("wie viel Geld liegt gerade
// auf Stripe", TestNamedServerKeepsItems). Three guards keep an everyday
// request that uses a server's word in passing from keeping items: it has
// at most MaxWindowConcepts concepts (a longer message may say "I saw it
// on Slack"), the errand model reads it as software ("help with my linear
// algebra homework" is an errand), and a server named by a day ("monday")
// names nothing here (Signals.NamedServer). With server-named off no
// server is named, and the line keeps nothing.
func namedServerFits(s Signals) bool {
	return s.Asked && s.Concepts <= MaxWindowConcepts && s.Errand >= ErrandThreshold && s.NamedServer
}

// belowCoverage reports whether s is of a short query whose first item
// holds less than MinCoverage of its weight.
func belowCoverage(s Signals) bool {
	return s.Concepts <= ShortQueryTerms && s.Coverage < MinCoverage
}

// readsAsErrand reports whether the errand model reads the request as an
// everyday errand, on a kind whose items mostly carry written requests:
// the model knows what people ask of software through them, and on
// catalogs without requests it emptied answerable tasks.
func readsAsErrand(s Signals) bool {
	return s.Asked && s.ErrandRead && s.Errand < ErrandThreshold
}

// keptHint is the hint of a page the fit model's lines keep: the near-miss
// hint, or, where the best item holds less than MinCoverage of the
// query's weight (the coverage cut's bar), what it lacks.
func keptHint(s Signals) string {
	if h := nearMissHint(s); h != "" {
		return h
	}
	if s.Coverage < MinCoverage && len(s.Missing) > 0 {
		return lacksPrefix + strings.Join(s.Missing, ", ")
	}
	return ""
}

// nearMissHint names the heavy words the best item lacks, if any.
func nearMissHint(s Signals) string {
	if len(s.NearMiss) == 0 {
		return ""
	}
	return lacksPrefix + strings.Join(s.NearMiss, ", ")
}

// errandHint is the hint of a request read as an errand: ErrandHint, and
// the words its best item lacks, in the caller's words, if any.
func errandHint(lacking []string) string {
	if len(lacking) == 0 {
		return ErrandHint
	}
	return ErrandHint + "; " + lacksPrefix + strings.Join(lacking, ", ")
}

// lacksHint is the hint of an emptied page: what the best match lacks,
// in the caller's words.
func lacksHint(missing []string) string {
	if len(missing) == 0 {
		return NoFit
	}
	return NoFit + ": " + lacksPrefix + strings.Join(missing, ", ")
}

// Table renders List as the Markdown table of the retrieval README (its
// section on the decision list): one row a line, in order, with its rule,
// condition, outcome and hint.
func Table() string {
	var b strings.Builder
	b.WriteString("| order | rule | condition | outcome | hint |\n|---|---|---|---|---|\n")
	for i, l := range List {
		name := "`" + l.Name + "`"
		if l.builtin {
			name = "(" + l.Name + ")"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", i+1, name, l.Condition, l.Outcome(), l.Hint)
	}
	return b.String()
}
