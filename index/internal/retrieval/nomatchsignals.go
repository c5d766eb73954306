package retrieval

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/errand"
	fitmodel "github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/wordkind"
)

// The no-match test: noMatchSignals measures what package nomatch weighs
// of a search, each signal once, and nomatch.Decide decides from them
// alone (its List, in order, is the README's table).

// signalMeasured, when set (by tests), is told each no-match signal as
// it is measured, by name: the test that counts them holds each search
// to one measure of each (TestNoMatchSignalsMeasuredOnce).
var signalMeasured func(name string)

// measured tells signalMeasured, if set, that the signal name was
// measured.
func measured(name string) {
	if signalMeasured != nil {
		signalMeasured(name)
	}
}

// decideFit measures the no-match signals of r's search over cands, the
// items the caller sees ranked (asked: their best written requests), and
// decides.
func (x searcher) decideFit(r *Request, cands []rank.Candidate, asked RequestMatches) (nomatch.Decision, nomatch.Signals, error) {
	s, err := x.noMatchSignals(r, cands, asked)
	if err != nil {
		return nomatch.Decision{}, s, err
	}
	return nomatch.Decide(s, r.Off), s, nil
}

// noMatchSignals measures the signals of nomatch.Signals of r's search:
// the coverage of the first item, weighing the concepts of r
// (Request.Concepts) over the items the caller sees, with its best
// request's words where request-fit lets them count; the window's, the
// errand model's score and the fit model's word where a line of
// nomatch.List weighs them with r's rules; the named server; what the
// first item lacks.
func (x searcher) noMatchSignals(r *Request, cands []rank.Candidate, asked RequestMatches) (nomatch.Signals, error) {
	if len(cands) == 0 {
		return nomatch.Signals{}, nil
	}
	kind, off, concepts := r.Query.Kind, r.Off, r.Concepts
	s := nomatch.Signals{Candidates: true, Concepts: len(concepts)}
	if !off.On(rules.RequestFit) {
		asked = RequestMatches{}
	}
	var alternatives []Term
	for _, c := range concepts {
		alternatives = append(alternatives, c.Alternatives...)
	}
	held, err := x.heldTerms(kind, cands[0].ID, alternatives)
	if err != nil {
		return s, err
	}
	rterms := requestTerms(r)
	x.addRequestTerms(kind, rterms, held, asked, cands[0].ID, alternatives)
	docs := x.Count(kind)
	written := cmp.Or(r.Written, r.Query.Text)
	s.UnreadCJK = off.On(rules.UnreadCJK) && r.ChineseOrJapanese && weighsNothing(concepts, docs)
	var missing []string
	s.Coverage, missing = coverage(concepts, held, docs)
	s.Lacking = writtenOnly(missing, written)
	if off.On(rules.NearMissHint) {
		s.NearMiss = writtenOnly(lackedSubjects(concepts, held, docs, written), written)
		measured("near-miss")
	}
	s.Missing = s.Lacking
	if off.On(rules.MissingHints) && len(s.Lacking)+len(s.NearMiss) > 0 {
		unnamed, err := x.unnamedObjects(kind, concepts, append(slices.Clip(s.Lacking), s.NearMiss...))
		if err != nil {
			return s, err
		}
		passing, err := passingWords(off)
		if err != nil {
			return s, err
		}
		judge := hintJudge{unnamed: unnamed, passing: passing, addresses: addressesOf(written)}
		s.Missing, s.NearMiss = judge.missingOnly(s.Lacking, concepts), judge.missingOnly(s.NearMiss, concepts)
	}
	s.NamedServer = namesServer(cands)
	s.Asked = x.mostlyAsked(kind, r.Off)
	w := window{docs, alternatives, rterms}
	if err := x.measureModels(r, &s, cands, asked, w); err != nil {
		return s, err
	}
	if off.On(rules.MissingHints) && off.On(rules.FitHints) && s.Fits && s.FitMargin >= nomatch.FitHintMargin {
		foreign := text.ReadsAsForeign(r.Query.Text)
		s.Missing, s.NearMiss = missingOnTheirOwn(s.Missing, concepts, foreign), missingOnTheirOwn(s.NearMiss, concepts, foreign)
	}
	return s, nil
}

// missingOnTheirOwn keeps the labels (of a hint missingOnly judged) whose
// concept is missing whatever the items fit (fit-hints): a product public
// servers are named for or a product code, or a word, as the caller wrote
// it, that no item the caller sees holds — in a request that reads as
// another language (foreign), only where it is capitalised. What it
// drops is an object that only the names of the caller's tools lack while
// some item's text holds it, and a lower-case word of another language
// the foreign table does not gloss: where the fit model reads the request
// as a clear fit, the item that holds it is what was asked for ("roadmap"
// of a list of projects), not a near miss, and the word is one of the
// request's own, not a product.
func missingOnTheirOwn(labels []string, concepts []Concept, foreign bool) []string {
	var out []string
	for _, l := range labels {
		untranslated := foreign && strings.ToLower(l) == l
		if slices.ContainsFunc(concepts, func(c Concept) bool { return c.Label == l && missingWhateverFits(c, untranslated) }) {
			out = append(out, l)
		}
	}
	return out
}

// missingWhateverFits reports whether c names a product or a product code,
// or is a word no item the caller sees holds (typed so, or corrected),
// unless it is an untranslated word of another language.
func missingWhateverFits(c Concept, untranslated bool) bool {
	return slices.ContainsFunc(c.Alternatives, func(t Term) bool {
		if text.IsProductTerm(t.Term) || isProductCode(t.Term) || t.Corrected != "" {
			return true
		}
		return t.Origin == Typed && t.DocFreq == 0 && !untranslated
	})
}

// measureModels measures the signals of the errand and fit models where
// s.Asked, and the window's coverage where a line weighs it.
func (x searcher) measureModels(r *Request, s *nomatch.Signals, cands []rank.Candidate, asked RequestMatches, w window) error {
	off := r.Off
	fitAsked := s.Asked && off.On(rules.FitModel)
	if off.On(rules.FitWindow) && s.Concepts <= nomatch.MaxWindowConcepts &&
		(fitAsked || off.On(rules.NoMatch) && s.Concepts <= nomatch.ShortQueryTerms && s.Coverage < nomatch.MinCoverage) {
		best, err := x.bestCoverage(r.Query.Kind, r.Concepts, w.alternatives, cands, w.docs, asked, w.rterms)
		if err != nil {
			return err
		}
		s.Window, s.WindowRead = best, true
	}
	if !s.Asked {
		return nil
	}
	m, err := fitmodel.Default()
	if err != nil {
		return err
	}
	s.Errand = m.Mean[0] // neutral, with errand-model off
	if off.On(rules.ErrandModel) {
		em, err := errand.Default()
		if err != nil {
			return err
		}
		s.Errand, s.ErrandRead = em.Score(r.Query.Text), true
		measured("errand")
	}
	if !fitAsked {
		return nil
	}
	fs := fitmodel.Signals{Errand: s.Errand, Coverage: s.Coverage, Concepts: s.Concepts}
	if s.WindowRead {
		fs.Coverage = max(fs.Coverage, s.Window)
	}
	for _, m := range asked.list {
		fs.Share = max(fs.Share, m.Share)
	}
	fs.OwnWindow = x.ownWindow(r.Query.Kind, cands)
	s.Fit, s.Fits, s.FitMargin = &fs, m.Fits(fs), m.Margin(fs)
	measured("fit")
	return nil
}

// ownWindow reports whether most of the first fitmodel.OwnWindowItems of
// cands compete by their own text (own-text), not by requests written
// for them.
func (x searcher) ownWindow(k ext.Kind, cands []rank.Candidate) bool {
	idx := x.Requests()
	if idx == nil {
		return false
	}
	first, _ := idx.Items(k)
	window := cands[:min(len(cands), fitmodel.OwnWindowItems)]
	own := 0
	for _, c := range window {
		if _, ord, ok := schema.ParseDocID(c.ID); ok && idx.Own(first+ord) {
			own++
		}
	}
	return 2*own > len(window)
}

// namesServer reports whether one of the first nomatch.FitWindow of cands
// is of a server the query names (server-named lifted it), not by a day
// or a time of day: a day is when a request is done (time-words). An item
// that joined the window for being named (rank.Candidate.Named) is not
// counted: it is there whether or not its server fits the request.
func namesServer(cands []rank.Candidate) bool {
	for _, c := range cands[:min(len(cands), nomatch.FitWindow)] {
		if c.Signals != nil && c.Signals.ServerScore > 0 && !c.Named && !text.IsTimeWord(c.Server) {
			return true
		}
	}
	return false
}

// bestCoverage is the largest coverage of the query's weight by one of the
// first nomatch.FitWindow candidates after the first.
func (x searcher) bestCoverage(kind ext.Kind, concepts []Concept, alternatives []Term, cands []rank.Candidate, docs int, asked RequestMatches, rterms []requests.Term) (float64, error) {
	best := 0.0
	for _, c := range cands[1:min(len(cands), nomatch.FitWindow)] {
		held, err := x.heldTerms(kind, c.ID, alternatives)
		if err != nil {
			return 0, err
		}
		x.addRequestTerms(kind, rterms, held, asked, c.ID, alternatives)
		cov, _ := coverage(concepts, held, docs)
		best = max(best, cov)
	}
	return best, nil
}

// mostlyAsked reports whether at least nomatch.MinAskedShare of the items of
// kind that the caller sees carry written requests: the errand and fit
// models know what people ask of software through them, and on catalogs
// without requests the errand model emptied answerable tasks. Items the
// caller may not see count neither way, so that a hidden server's
// requests never switch the caller's no-match test (TestHiddenRequestsSwitchNothing).
func (x searcher) mostlyAsked(kind ext.Kind, off rules.Set) bool {
	idx := x.Requests()
	if idx == nil {
		return false
	}
	items, asked, own := idx.ItemCount(kind), idx.ItemsWithRequests(kind), idx.ItemsWithOwnText(kind)
	if v := x.RequestView(kind); v != nil {
		items, asked, own = v.Items(), v.Asked(), v.Own()
	}
	if asked > 0 && off.On(rules.OwnText) {
		asked += own
	}
	return items > 0 && float64(asked) >= nomatch.MinAskedShare*float64(items)
}

// window is what the no-match test has read of a search to weigh the
// coverage of its candidates: the items' count, the alternatives of the
// query's concepts and the terms of the written requests.
type window struct {
	docs         int
	alternatives []Term
	rterms       []requests.Term
}

// missingOnly keeps, with missing-hints on, the labels of the concepts a
// kept page's hint may say the best item lacks: those whose word, as the
// caller wrote it, no item the caller sees holds (a word that was
// corrected was held by none); those that name a product public servers
// are named for (text.IsProductTerm) or a product code (s3, ec2); and
// those that name an object public servers' tools are named for that no
// item the caller sees is named for (unnamed: a flight). That is what a
// request is about even where some item's text mentions it. A word some
// item holds that the right item need not (an argument value, a modifier:
// revenue, monthly) is not what the catalog lacks (issue 36), nor is a
// word shaped like a value (isValueShaped), nor, with passing-words, a word
// that is not a product and that requests say in passing (passing: a
// person, a place, an occasion).
func (j hintJudge) missingOnly(labels []string, concepts []Concept) []string {
	var out []string
	for _, l := range labels {
		if slices.ContainsFunc(concepts, func(c Concept) bool { return c.Label == l && j.missing(c) }) {
			out = append(out, l)
		}
	}
	return out
}

// missing reports whether c's word, as the caller wrote it, names a
// product, or, unless j.passing reads it as said in passing, is held by no
// item the caller sees or names an object of j.unnamed; a value-shaped
// word is never missing.
func (j hintJudge) missing(c Concept) bool {
	if isValueShaped(c.Label, j.addresses) {
		return false
	}
	if slices.ContainsFunc(c.Alternatives, func(t Term) bool { return text.IsProductTerm(t.Term) || isProductCode(t.Term) }) {
		return true
	}
	return !j.passing(c) && slices.ContainsFunc(c.Alternatives, func(t Term) bool {
		return t.Corrected != "" || t.Origin == Typed && t.DocFreq == 0 || j.unnamed[t.Term]
	})
}

// hintJudge is what missingOnly reads: the objects no visible tool is
// named for (unnamedObjects), what reads a word as said in passing
// (passingWords), and the addresses, URLs and paths of the text as the
// caller wrote it (addressesOf).
type hintJudge struct {
	unnamed   map[string]bool
	passing   func(Concept) bool
	addresses []string
}

// passingWords returns what reports whether a concept is a word of the
// caller's, written in lower case (a capitalised word may be a product:
// Bamboo, Kafka), that the word-kind model reads as said in passing
// (package wordkind: celebrate, fancy, sixty); with passing-words off,
// none is.
func passingWords(off rules.Set) (func(Concept) bool, error) {
	if !off.On(rules.PassingWords) {
		return func(Concept) bool { return false }, nil
	}
	m, err := wordkind.Default()
	if err != nil {
		return nil, err
	}
	return func(c Concept) bool {
		r, _ := utf8.DecodeRuneInString(c.Label)
		return c.Origin == Typed && !unicode.IsUpper(r) && m.SaidInPassing(c.Label)
	}, nil
}

// unnamedObjects are the terms of the concepts labelled labels that name
// an object or action public servers' tools are named for
// (text.IsObjectTerm) that no item the caller sees is named for: a flight
// where no tool's name says flight. Only the labels a hint might name are
// looked up, so a long query costs a few dictionary reads, not one a word.
func (x searcher) unnamedObjects(kind ext.Kind, concepts []Concept, labels []string) (map[string]bool, error) {
	var terms []string
	for _, c := range concepts {
		if !slices.Contains(labels, c.Label) {
			continue
		}
		for _, t := range c.Alternatives {
			if t.DocFreq > 0 && text.IsObjectTerm(t.Term) {
				terms = append(terms, t.Term)
			}
		}
	}
	if len(terms) == 0 {
		return nil, nil
	}
	d, done, err := x.callerDicts(kind)
	if err != nil {
		return nil, err
	}
	defer done()
	out := map[string]bool{}
	for _, t := range terms {
		n, err := d.fieldFreq(schema.Name, t)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			out[t] = true
		}
	}
	return out, nil
}

// isValueShaped reports whether a label has the shape of an argument
// value rather than of a thing a catalog could lack: a part of an address,
// a URL or a path as the caller wrote it (kasa.io of ana@kasa.io,
// example.com of https://example.com: a domain alone may be a product,
// monday.com), a file name (app.ts, report.md; text.IsFileName), an
// identifier in capitals joined by underscores (STRIPE_KEY), or a code,
// more than five letters and digits, at least three of them digits, in
// capitals or mostly digits (B0936FGLQS, INV-2041; not s3, ec2 or
// office365). Such a value is what a tool is called with, not what it is
// for, and the words of it (stripe of STRIPE_KEY) were not asked for.
func isValueShaped(label string, addresses []string) bool {
	if strings.ContainsAny(strings.Trim(label, ".:/@"), ":/@") || text.IsFileName(label) || inAddress(label, addresses) {
		return true
	}
	if strings.Contains(label, "_") && strings.ToUpper(label) == label {
		return true
	}
	letters, digits, lower := 0, 0, false
	for _, r := range label {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
			lower = lower || unicode.IsLower(r)
		}
	}
	return digits >= 3 && letters > 0 && letters+digits > 5 && (!lower || digits >= letters)
}

// addressesOf returns the words of written, in lower case, that are an
// email address, a URL or a path: those that hold an at sign or "://",
// or that text.IsFileName reads as a file. Most requests have none.
func addressesOf(written string) []string {
	var out []string
	for tok := range strings.FieldsSeq(written) {
		if strings.Contains(tok, "@") || strings.Contains(tok, "://") || text.IsFileName(tok) {
			out = append(out, strings.ToLower(tok))
		}
	}
	return out
}

// inAddress reports whether label is a part of one of addresses (the
// lower-case addresses, URLs and paths of a request), not all of it.
func inAddress(label string, addresses []string) bool {
	if label == "" || len(addresses) == 0 {
		return false
	}
	l := strings.ToLower(label)
	for _, a := range addresses {
		if a != l && strings.Contains(a, l) {
			return true
		}
	}
	return false
}
