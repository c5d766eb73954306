package rank

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Candidate is one retrieved item being re-ranked.
type Candidate struct {
	ID     string   // its document id in the index
	Server string   // its server
	Label  string   // its own name
	Words  []string // the analysed words of its own name
	BM25   float64  // its retrieval score; 0 for an item the vectors added
	Dense  float64  // cosine of the query's and the item's vectors
	Clause float64  // the lift of the nearest item to a clause of a long query
	// Named is set on an item that joined the window because the query
	// names its server (retrieval's named-server-items), not by its
	// score: whether an item fits is not read from it.
	Named bool
	// Signals are what re-ranking added to its score; nil past the window.
	Signals *Signals
	// Score is the score it is ranked by: Signals.Score() in the window,
	// BM25 past it.
	Score float64
}

// Signals are the terms of a re-ranked score, computed once by Rerank:
// summed (Score) they rank the candidate, and an explanation shows them.
type Signals struct {
	// BM25Share is the candidate's BM25 score divided by the best of the
	// window.
	BM25Share float64
	// NameWords and NameWordsMatched: the item's own name words
	// (analysed), and those of them the query holds (name coverage).
	NameWords        []string
	NameWordsMatched []string
	// Name is what the name coverage, with the plural-object and
	// all-words bonuses, adds.
	Name float64
	// Action is "match" when the item's name names an action the query
	// asks for, "clash" when it names only other actions, "" otherwise;
	// ActionScore is what it adds.
	Action      string
	ActionScore float64
	// ExactName is set when the item's name is the whole query;
	// ExactNameScore is what it adds.
	ExactName      bool
	ExactNameScore float64
	// Similarity is the cosine of the query's and the item's word vectors;
	// SimilarityScore is what it adds (DenseWeight × Similarity).
	Similarity      float64
	SimilarityScore float64
	// ClauseScore is what being the nearest item to clauses of a long
	// query adds.
	ClauseScore float64
	// ServerScore is what the evidence of the item's server adds
	// when the query names it (serverEvidence).
	ServerScore float64
}

// Score is the sum of the signals, the re-ranked score.
func (s *Signals) Score() float64 {
	return s.BM25Share + (s.Name + s.ActionScore + s.SimilarityScore + s.ClauseScore) + s.ExactNameScore + s.ServerScore
}

// Rerank scores the first window candidates (BM25's best, then the items
// the vectors added) for the query and sorts them, best first, ties by
// id; candidates past the window keep their BM25 order after them. The
// window is fixed, so every page of a query sees the same order.
func Rerank(q Query, cands []Candidate, window int) {
	if len(cands) == 0 {
		return
	}
	top := cands[:min(len(cands), window)]
	best := top[0].BM25
	signals := make([]Signals, len(top))
	matched := make([]string, 0, nameWords(top)) // every NameWordsMatched, one after another
	for i := range top {
		c := &top[i]
		signals[i], matched = newSignals(q, c, best, matched)
		c.Signals = &signals[i]
		c.Score = c.Signals.Score()
	}
	if q.Off.On(rules.ServerNamed) {
		serverEvidence(q, top)
	}
	slices.SortStableFunc(top, func(a, b Candidate) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if q.Off.On(rules.DestroyAsked) && !q.Destroy {
		keepDestroyersBack(top)
	}
}

func nameWords(cands []Candidate) int {
	n := 0
	for _, c := range cands {
		n += len(c.Words)
	}
	return n
}

// newSignals computes the signals of c, best being the best BM25 score of
// the window; the name words the query holds are appended to matched.
func newSignals(q Query, c *Candidate, best float64, matched []string) (Signals, []string) {
	s := Signals{NameWords: c.Words, Similarity: c.Dense, ClauseScore: c.Clause}
	if q.Off.On(rules.Similarity) {
		s.SimilarityScore = DenseWeight * c.Dense
	}
	if best > 0 {
		s.BM25Share = c.BM25 / best
	}
	start := len(matched)
	for _, w := range c.Words {
		if q.Terms[w] {
			matched = append(matched, w)
		}
	}
	s.NameWordsMatched = matched[start:len(matched):len(matched)]
	s.Name = nameScore(q, c.Words, len(s.NameWordsMatched))
	if q.Off.On(rules.Actions) {
		s.ActionScore = actionSignal(q.Actions, c.Words)
	}
	switch {
	case s.ActionScore > 0:
		s.Action = "match"
	case s.ActionScore < 0:
		s.Action = "clash"
	}
	if q.Off.On(rules.ExactName) && q.isExactName(c) {
		s.ExactName, s.ExactNameScore = true, weightExactName
	}
	return s, matched
}

// nameScore scores how well an item's name words fit the query, covered
// of them being the query's.
func nameScore(q Query, words []string, covered int) float64 {
	if len(words) == 0 {
		return 0
	}
	n := len(words)
	if joined := joinedWord(words); joined != "" && !q.Terms[joined] {
		n-- // the whole identifier says nothing its words do not
	}
	s := 0.0
	if q.Off.On(rules.NameCoverage) {
		s = weightCoverage * float64(covered) / float64(n)
	}
	for _, w := range words {
		if q.Plurals[w] {
			s += weightPluralObject // "list the topics of a subscription": topics are listed
			break
		}
	}
	if covered >= n && q.Off.On(rules.NameAllWords) {
		s += weightNameAllWords
	}
	return min(s, weightCoverage+weightPluralObject+weightNameAllWords)
}

// joinedWord returns the word of an identifier's words that is the others
// joined (create_pull_request: createpullrequest, which text.SplitName
// keeps), or "".
func joinedWord(words []string) string {
	if len(words) < 3 {
		return ""
	}
	last := words[len(words)-1]
	rest := last
	for _, w := range words[:len(words)-1] {
		i := strings.Index(rest, w)
		if i < 0 {
			return ""
		}
		rest = rest[i+len(w):]
	}
	return last
}

// isExactName reports whether c's own name, or its server and name, is the
// whole query.
func (q Query) isExactName(c *Candidate) bool {
	return q.Exact != "" && (text.NormalizeName(c.Label) == q.Exact || text.NormalizeName(c.Server+c.Label) == q.Exact)
}
