package index

import (
	"cmp"

	"slices"
	"strings"
	"unicode"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// Ranking happens in two stages. bleve's BM25 (with the true average field
// lengths, see bm25Stats) retrieves and orders candidates; then the first
// rerankWindow of them are re-scored with signals BM25 cannot see:
//
//   - name coverage: the share of the item's own name words that the query
//     holds, so "list container registries" prefers acr_registry_list to
//     acr_registry_repository_list;
//   - the action: the verb of the query (list, get, create, delete, update)
//     against the verb in the item's name, so siblings that differ only in
//     their action are told apart.
//
// The window is fixed, so every page of a query sees the same order.
const rerankWindow = 20

// Weights of the re-ranking signals, added to the BM25 score divided by the
// best BM25 score of the query.
const (
	weightCoverage     = 0.35
	weightActionMatch  = 0.15
	weightActionClash  = 0.2
	weightExactName    = 2.0
	weightNameAllWords = 0.1
	weightPluralObject = 0.3
)

// candidate is one retrieved item being re-ranked.
type candidate struct {
	id     string
	server string
	bm25   float64
	label  string   // the item's own name
	words  []string // its analysed words
	score  float64
	dense  float64 // cosine of the query and item vectors
	clause float64 // the lift of the nearest item to a clause of a long query (clauses.go)
}

// rerank re-scores the first rerankWindow candidates for the query terms
// and sorts them; candidates past the window keep their order after them.
func rerank(q queryInfo, cands []candidate, window int) {
	if len(cands) == 0 {
		return
	}
	top := cands[:min(len(cands), window)]
	best := top[0].bm25
	for i := range top {
		c := &top[i]
		c.score = c.bm25 / best
		if best <= 0 {
			c.score = 0
		}
		c.score += nameSignals(q, c.words) + denseWeight*c.dense + c.clause
		if q.isExactName(*c) {
			c.score += weightExactName
		}
	}
	slices.SortStableFunc(top, func(a, b candidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}

// isExactName reports whether c's own name, or its server and name, is the
// whole query.
func (q queryInfo) isExactName(c candidate) bool {
	return q.exact != "" && (normalizeName(c.label) == q.exact || normalizeName(c.server+c.label) == q.exact)
}

// nameSignals scores how well an item's name fits the query.
func nameSignals(q queryInfo, words []string) float64 {
	if len(words) == 0 {
		return 0
	}
	covered := 0
	for _, w := range words {
		if q.terms[w] {
			covered++
		}
	}
	s := weightCoverage * float64(covered) / float64(len(words))
	for _, w := range words {
		if q.plurals[w] {
			s += weightPluralObject // "list the topics of a subscription": topics are listed
			break
		}
	}
	if covered == len(words) {
		s += weightNameAllWords
	}
	return s + actionSignal(q.actions, words)
}

// queryInfo is what re-ranking needs of the query.
type queryInfo struct {
	terms   map[string]bool
	plurals map[string]bool // analysed plural nouns: what a list is asked of
	actions map[action]bool
	exact   string
}

func newQueryInfo(text string, terms []string) queryInfo {
	q := queryInfo{terms: map[string]bool{}, actions: map[action]bool{}, exact: normalizeName(text)}
	short := len(strings.Fields(text)) <= maxCommandWords
	if short {
		q.plurals = pluralTerms(text)
	}
	for _, t := range terms {
		q.terms[t] = true
		for _, a := range actionsOf[t] {
			q.actions[a] = true
		}
	}
	if short && !q.actions[actCreate] && !q.actions[actDelete] && !q.actions[actUpdate] && asksForMany(text) {
		// "show me my clusters", "get the tables": a plural object asks for a list
		q.actions = map[action]bool{actList: true}
	}
	return q
}

// pluralTerms returns the analysed forms of the query's plural nouns.
func pluralTerms(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if isPluralNoun(w) {
			for _, t := range analyze(w) {
				out[t] = true
			}
		}
	}
	return out
}

// maxCommandWords: queries up to this long are commands ("show me my
// clusters"), where the grammar of the object says what is asked; longer
// ones describe tasks with many objects.
const maxCommandWords = 12

// asksForMany reports whether the query names its object in the plural.
func asksForMany(text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if isPluralNoun(w) {
			return true
		}
	}
	return false
}

// isPluralNoun guesses plural nouns: words of four letters or more ending
// in s, but not in ss, us, is or ous, and not verbs of the action table.
func isPluralNoun(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") || isStopWord(w) {
		return false
	}
	for _, suffix := range []string{"ss", "us", "is", "ous"} {
		if strings.HasSuffix(w, suffix) {
			return false
		}
	}
	_, verb := actionsOf[string(porterstemmer.StemWithoutLowerCasing([]rune(w)))]
	return !verb
}

// action is what a tool does to its object.
type action int

const (
	actList action = iota + 1
	actGet
	actCreate
	actDelete
	actUpdate
)

// actionsOf maps analysed (stemmed) words to the actions they name.
// "show" may ask for one item or many.
var actionsOf = map[string][]action{
	"list": {actList}, "enumer": {actList}, "all": {actList},
	"get": {actGet}, "fetch": {actGet}, "retriev": {actGet}, "read": {actGet}, "describ": {actGet}, "detail": {actGet},
	"show": {actGet, actList}, "view": {actGet, actList},
	"creat": {actCreate}, "add": {actCreate}, "new": {actCreate}, "make": {actCreate}, "insert": {actCreate},
	"delet": {actDelete}, "remov": {actDelete}, "eras": {actDelete}, "destroi": {actDelete}, "drop": {actDelete},
	"updat": {actUpdate}, "modifi": {actUpdate}, "edit": {actUpdate}, "chang": {actUpdate}, "set": {actUpdate}, "renam": {actUpdate},
}

// actionSignal rewards an item whose name names an action the query asks
// for and penalises one whose name names only other actions.
func actionSignal(want map[action]bool, nameWords []string) float64 {
	if len(want) == 0 {
		return 0
	}
	named := false
	for _, w := range nameWords {
		for _, a := range actionsOf[w] {
			if a == actList && w == "all" {
				continue
			}
			named = true
			if want[a] {
				return weightActionMatch
			}
		}
	}
	if named {
		return -weightActionClash
	}
	return 0
}

// normalizeName lower-cases s and drops everything but letters and digits,
// so "Browser_Take-Screenshot" and "browser take screenshot" compare equal.
func normalizeName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
