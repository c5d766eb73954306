// Package rules names every switchable rule of the retrieval pipeline: each
// pass over the query, retrieval signal, re-ranking signal and no-match
// heuristic, with the step it belongs to and the one-line reason it exists.
//
// The contract: a Set holds the rules switched off (the zero Set switches
// none off, which is what the product serves); every place that applies a
// rule asks Set.On first and, when the rule is off, behaves as if the rule
// had never been written. Nothing else changes with the Set, so switching
// one rule off measures exactly that rule (mcpsearch-lab eval --ablate).
package rules

import (
	"fmt"
	"math/bits"
	"strings"
)

// Rule is one switchable rule.
type Rule uint8

// The rules, in the order of the pipeline's steps.
const (
	// query passes
	RequestFrames Rule = iota
	FileWords
	ForeignGlosses
	ChineseGlosses
	Phrases
	QueryExpansions
	GenericWords
	// typo correction
	Typos
	ShortTypos
	WordTableTypos
	SplitWords
	// retrieval
	RelatedField
	GlossField
	ExactNameRetrieval
	NamedServerItems
	WrittenRequests
	OwnText
	DenseCandidates
	Clauses
	// re-ranking
	NameCoverage
	NameAllWords
	PluralObject
	Actions
	QueryActions
	PluralsList
	ExactName
	Similarity
	ServerNamed
	DestroyAsked
	// no-match and hints
	NoMatch
	ErrandModel
	FitModel
	NamedServerFits
	FitWindow
	RequestFit
	NearMissHint
	UnknownWordsHint
	MissingHints
	PassingWords
	FitHints
	UnreadCJK
	TimeWords
	count
)

// info is what the registry says of a rule.
type info struct {
	name, step, reason string
}

var registry = [count]info{
	RequestFrames:      {"request-frames", "query", "the words a task is wrapped in (can you …, please, I need to …, find …, bitte …) are not read: only the task is"},
	FileWords:          {"file-words", "query", "a file path's name is read as words (report.pdf: report, pdf)"},
	ForeignGlosses:     {"foreign-glosses", "query", "words of other languages in the hand-written table are followed by their English"},
	ChineseGlosses:     {"chinese-glosses", "query", "Chinese words are followed by their English glosses (CC-CEDICT)"},
	Phrases:            {"phrases", "query", "everyday phrases are followed by the words tools use (out of office: autoreply)"},
	QueryExpansions:    {"query-expansions", "query", "everyday words are followed by the words tools use (meeting: event)"},
	GenericWords:       {"generic-words", "query", "words that say little of which tool is meant (show, list, please) weigh 0.3"},
	Typos:              {"typos", "typo", "a word the index does not know is corrected to the nearest known word"},
	ShortTypos:         {"short-typos", "typo", "short unknown words (3-4 letters) are corrected to frequent words"},
	WordTableTypos:     {"word-table-typos", "typo", "an unknown word is compared, as written, with the English words of the word vectors"},
	SplitWords:         {"split-words", "typo", "a word typed without its space is read as its two halves"},
	RelatedField:       {"related-field", "retrieval", "WordNet's related words of an item are searched, weight 0.3"},
	GlossField:         {"gloss-field", "retrieval", "the English glosses of an item's Chinese words are searched"},
	ExactNameRetrieval: {"exact-name-retrieval", "retrieval", "an item whose name is the whole query enters the re-ranking window"},
	NamedServerItems:   {"named-server-items", "retrieval", "the best items of a server the query names join the re-ranking window, however others' requests repeat its words"},
	WrittenRequests:    {"written-requests", "retrieval", "an item's best-matching written request adds to its score"},
	OwnText:            {"own-text", "retrieval", "where the caller sees items with written requests, an item without them has its own text (name, title, first sentence) as its requests"},
	DenseCandidates:    {"dense-candidates", "retrieval", "the items nearest the query's word vector join the window"},
	Clauses:            {"clauses", "retrieval", "each clause of a long task has a vector; its nearest items join the window and are lifted"},
	NameCoverage:       {"name-coverage", "rerank", "the share of an item's name words the query holds"},
	NameAllWords:       {"name-all-words", "rerank", "a bonus when the query holds every word of the name"},
	PluralObject:       {"plural-object", "rerank", "a name holding the plural object of a short command is lifted"},
	Actions:            {"actions", "rerank", "the name's verb against the query's action: match lifts, clash lowers"},
	QueryActions:       {"query-actions", "rerank", "schedule, book, arrange and put ask to create"},
	PluralsList:        {"plurals-list", "rerank", "a short command with a plural object asks for a list"},
	ExactName:          {"exact-name", "rerank", "an item whose name is the whole query goes first"},
	Similarity:         {"similarity", "rerank", "the cosine of the query's and the item's word vectors"},
	ServerNamed:        {"server-named", "rerank", "the items of a server the query names are lifted"},
	DestroyAsked:       {"destroy-asked", "rerank", "a tool whose name destroys (delete, kill, purge, revoke…) is never first for a request that asks nothing destructive"},
	NoMatch:            {"no-match", "no-match", "a short query whose best items hold little of its weight gets no items"},
	ErrandModel:        {"errand-model", "no-match", "a request the errand model reads as an everyday errand gets no items, where items carry written requests"},
	FitModel:           {"fit-model", "no-match", "where items carry written requests, a model weighing four signals of the search (errand score, coverage, request share, concepts) decides whether any item fits"},
	NamedServerFits:    {"named-server-fits", "no-match", "a request of at most 8 concepts, software to the errand model, that names a server the caller sees (not by a day), one of whose items is among its first 10, is not emptied by the fit model"},
	FitWindow:          {"fit-window", "no-match", "a fitting item among the first 10 keeps a short query's items"},
	RequestFit:         {"request-fit", "no-match", "an item whose best written request and a short query hold most of each other's weight fits it"},
	NearMissHint:       {"near-miss-hint", "no-match", "a hint names the heavy words the best item lacks"},
	UnknownWordsHint:   {"unknown-words-hint", "no-match", "a word no item the caller sees holds, nor its requests, is named in the hint"},
	MissingHints:       {"missing-hints", "no-match", "a kept page's hint names only what the catalog lacks: a word no item the caller sees holds, a product public servers are named for, an object no visible tool is named for; not an argument value or modifier the right item need not hold"},
	PassingWords:       {"passing-words", "no-match", "with missing-hints, a kept page's hint does not name a word of the caller's, in lower case and not a product, that the word-kind model reads as said in passing (a person, a place, an occasion: hanna, lisbon, celebrate)"},
	FitHints:           {"fit-hints", "no-match", "with missing-hints, where the fit model reads a fit by 1 or more past its threshold (log-odds), a kept page's hint does not name an object that only the names of the caller's tools lack (roadmap, held by a list of projects): that item fits; nor, in a request that reads as another language, a lower-case word no item holds (kaputten): one of the request's own, not a product; a product, a product code, a corrected word, and any other word no item holds are still named"},
	UnreadCJK:          {"unread-cjk", "no-match", "a Chinese or Japanese query of no known word gets no items"},
	TimeWords:          {"time-words", "no-match", "a day or a time of day weighs nothing in the no-match test"},
}

// All returns every rule, in pipeline order.
func All() []Rule {
	out := make([]Rule, count)
	for i := range out {
		out[i] = Rule(i)
	}
	return out
}

// Name is the rule's name, as --ablate and the README list it.
func (r Rule) Name() string { return registry[r].name }

// Step is the pipeline step the rule belongs to.
func (r Rule) Step() string { return registry[r].step }

// Reason is the one line that says why the rule exists.
func (r Rule) Reason() string { return registry[r].reason }

func (r Rule) String() string { return r.Name() }

// ByName returns the rule named name.
func ByName(name string) (Rule, error) {
	for i, in := range registry {
		if in.name == name {
			return Rule(i), nil
		}
	}
	return 0, fmt.Errorf("no retrieval rule is named %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names returns the names of every rule, in pipeline order.
func Names() []string {
	out := make([]string, count)
	for i, in := range registry {
		out[i] = in.name
	}
	return out
}

// Set is a set of rules switched off; the zero Set switches none off.
type Set uint64

// Off returns the set of the rules named.
func Off(names ...string) (Set, error) {
	var s Set
	for _, n := range names {
		r, err := ByName(n)
		if err != nil {
			return 0, err
		}
		s = s.Without(r)
	}
	return s, nil
}

// On reports whether r is applied.
func (s Set) On(r Rule) bool { return s&(1<<r) == 0 }

// Without returns s with r switched off too.
func (s Set) Without(r Rule) Set { return s | 1<<r }

// Len is the number of rules switched off.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// Names returns the names of the rules switched off, in pipeline order.
func (s Set) Names() []string {
	var out []string
	for _, r := range All() {
		if !s.On(r) {
			out = append(out, r.Name())
		}
	}
	return out
}
