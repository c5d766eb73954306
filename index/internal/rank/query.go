package rank

import (
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Query is what re-ranking reads of a query.
type Query struct {
	Terms   map[string]bool // its analysed words (after typo correction)
	Plurals map[string]bool // analysed plural nouns of a short command: what a list is asked of
	Actions map[Action]bool // the actions it asks for
	Exact   string          // its text as a name (text.NormalizeName)
	Off     rules.Set       // the rules switched off (package rules)
	// Destroy is set when it asks for something destructive (destroy.go):
	// only then may a tool that destroys be first.
	Destroy bool
}

// Reading is what re-ranking reads of the caller's text, read once
// (Read): its words of letters, in lower case, how many words it has, and
// the text as a name.
type Reading struct {
	Letters []string // runs of letters, in lower case
	Words   int      // words (runs of non-space)
	Exact   string   // the text as a name (text.NormalizeName)
}

// Read reads the caller's text for re-ranking.
func Read(query string) Reading {
	return Reading{Letters: letterWords(query), Words: len(strings.Fields(query)), Exact: text.NormalizeName(query)}
}

// Command reports whether the text is a command (at most MaxCommandWords
// words), whose grammar is read, rather than a task.
func (r Reading) Command() bool { return r.Words <= MaxCommandWords }

// NewQuery reads the query whose text the caller wrote (as read) and
// which searched terms, with the rules off switched off.
func NewQuery(read Reading, terms []string, off rules.Set) Query {
	q := Query{Terms: map[string]bool{}, Actions: map[Action]bool{}, Exact: read.Exact, Off: off}
	short := read.Command()
	if short && off.On(rules.PluralObject) {
		q.Plurals = pluralTerms(read.Letters)
	}
	for _, t := range terms {
		q.Terms[t] = true
		for _, a := range actionsOf[t] {
			q.Actions[a] = true
		}
		if off.On(rules.QueryActions) {
			for _, a := range queryActionsOf[t] {
				q.Actions[a] = true
			}
		}
	}
	q.Destroy = asksToDestroy(read.Letters, terms)
	if short && off.On(rules.PluralsList) && !q.Actions[actCreate] && !q.Actions[actDelete] && !q.Actions[actUpdate] && asksForMany(read.Letters) {
		// "show me my clusters", "get the tables": a plural object asks for a list
		q.Actions = map[Action]bool{actList: true}
	}
	return q
}

// TermWeight is the weight of an analysed word of a query: GenericWeight
// for words that say little about which tool is meant, 1 for others (and
// for every word when rules.GenericWords is off).
func TermWeight(term string, off rules.Set) float64 {
	if off.On(rules.GenericWords) && text.IsGeneric(term) {
		return GenericWeight
	}
	return 1
}

// pluralTerms returns the analysed forms of the plural nouns of a query's
// words.
func pluralTerms(words []string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words {
		if isPluralNoun(w) {
			for _, t := range text.Analyze(w) {
				out[t] = true
			}
		}
	}
	return out
}

// asksForMany reports whether a query of words names its object in the
// plural.
func asksForMany(words []string) bool {
	for _, w := range words {
		if isPluralNoun(w) {
			return true
		}
	}
	return false
}

// letterWords are the runs of letters of s, in lower case.
func letterWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// isPluralNoun guesses plural nouns: words of four letters or more ending
// in s, but not in ss, us, is or ous, and not verbs of the action table.
func isPluralNoun(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") || text.IsStopWord(w) {
		return false
	}
	for _, suffix := range []string{"ss", "us", "is", "ous"} {
		if strings.HasSuffix(w, suffix) {
			return false
		}
	}
	_, verb := actionsOf[text.Stem(w)]
	return !verb
}
