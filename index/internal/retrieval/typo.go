package retrieval

import (
	"cmp"
	"fmt"
	"slices"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
)

// Typo tolerance: a word the index does not know, of MinTypoRunes to
// MaxTypoRunes characters, is replaced by the known word nearest to it — at
// most one edit away for words shorter than twoEditRunes, two for longer
// ones — sharing its first letter, found in the name and description
// dictionaries (the nearest has the fewest edits, then the most documents,
// then comes first in alphabetical order).
//
// What correction may cost is bounded whatever the query's words. Each
// dictionary (an FST) is walked with a Levenshtein automaton that accepts
// the terms within the edits of the word. bleve's own automaton
// (IndexReaderFuzzy.FieldDictFuzzy) is a DFA built whole before the walk, a
// kilobyte of transitions per state and about 70 states per character at
// two edits: 1.3 MB for a word of eight letters, 285 MB for one of 4,096.
// typoAutomaton computes its states as the walk reaches them, one row of
// the edit-distance table each (len(word)+1 bytes, of which the 2×edits+1
// cells near the diagonal are computed), and a walk stops after
// typoWalkSteps steps (transitions tried; a walk cut short offers the
// nearest term it found), the walks of one query after TypoQuerySteps in
// all, and its corrections after TypoQueryLookups document frequencies
// read: later words are not corrected. TestTypoAutomatonMatchesBleve proves
// it finds what bleve's finds. On the default catalog a walk takes at most
// about 700 steps; a step costs about 0.1 µs.
//
// Which words are walked does not depend on whether the index knows them:
// every word of a length that may be corrected is walked, its own document
// frequency read or the nearest term's, and the result used only when the
// index does not know the word. So a word held only by items the caller
// may not see costs what a word held by none costs
// (TestHiddenWordCostsWhatAnUnknownWordCosts).

// typoFields are the dictionaries a correction is looked up in.
var typoFields = []string{schema.Name, schema.Description}

// TypoCost counts the work of a query's typo corrections (what bounds it:
// TypoQuerySteps, TypoQueryLookups).
type TypoCost struct {
	Walks   int // dictionaries walked
	Lookups int // document frequencies read
	Steps   int // automaton steps
}

// corrector looks up the corrections of one query's words.
type corrector struct {
	dicts *termDicts
	off   rules.Set       // the rules switched off
	short map[string]bool // short terms that may be corrected
	cost  TypoCost
	a     typoAutomaton
	// wordWalks counts the words compared with the word vectors' table
	// (typowords.go).
	wordWalks int
	found     []typoMatch // the terms a walk found (reused)
}

func newCorrector(d *termDicts, short map[string]bool, off rules.Set) *corrector {
	if !off.On(rules.ShortTypos) {
		short = nil
	}
	return &corrector{dicts: d, short: short, off: off}
}

// canLookUp reports whether the query's corrections may read n more
// document frequencies: TypoQueryLookups in all.
func (c *corrector) canLookUp(n int) bool { return c.cost.Lookups+n <= TypoQueryLookups }

// nearest returns the term nearest to term in the name and description
// dictionaries (term itself when they hold it and nothing when none is
// within its edits) and its document frequency; "" when term is not one a
// query may correct, or the query's steps or lookups are spent.
func (c *corrector) nearest(term string) (string, int, error) {
	word := []rune(term)
	if len(word) < MinTypoRunes && !c.short[term] || len(word) >= MinTypoRunes && !c.off.On(rules.Typos) || len(word) > MaxTypoRunes || c.cost.Steps >= TypoQuerySteps || !c.canLookUp(1) {
		return "", 0, nil
	}
	edits := uint8(1)
	if len(word) >= twoEditRunes {
		edits = 2
	}
	best, err := c.walk(word, edits)
	if err != nil {
		return "", 0, fmt.Errorf("correcting %q: %w", term, err)
	}
	near := cmp.Or(best.term, term)
	c.cost.Lookups++
	df, err := c.dicts.docFreq(near)
	return near, df, err
}

// walk walks the typo fields for the nearest term within edits of word. A
// bundle is one segment (bleve.NewBuilder); were it more, a term's count
// would be that of one segment.
func (c *corrector) walk(word []rune, edits uint8) (typoMatch, error) {
	start := []byte(string(word[:1]))
	end := prefixEnd(start)
	var best typoMatch
	for _, field := range typoFields {
		dicts, err := c.dicts.field(field)
		if err != nil {
			return typoMatch{}, err
		}
		for _, dict := range dicts {
			c.a.reset(word, edits, min(typoWalkSteps, TypoQuerySteps-c.cost.Steps))
			c.cost.Walks++
			c.found = c.found[:0]
			err := walkDict(dict, &c.a, start, end, func(m typoMatch) { c.found = append(c.found, m) })
			c.cost.Steps += c.a.used
			if err != nil {
				return typoMatch{}, fmt.Errorf("%s: %w", field, err)
			}
			if best, err = c.nearestFound(field, best); err != nil {
				return typoMatch{}, err
			}
		}
	}
	return best, nil
}

// nearestFound returns the nearer of best and the terms of field the last
// walk found, counting the documents the caller sees: a term that only
// hidden items hold is none. For such a caller the terms are counted
// nearest first, and none farther than the best is.
func (c *corrector) nearestFound(field string, best typoMatch) (typoMatch, error) {
	if c.dicts.visible != nil {
		slices.SortStableFunc(c.found, func(a, b typoMatch) int { return a.distance - b.distance })
	}
	for _, m := range c.found {
		if c.dicts.visible != nil {
			if best.term != "" && m.distance > best.distance {
				break
			}
			var err error
			if m.count, err = c.dicts.fieldFreq(field, m.term); err != nil {
				return typoMatch{}, err
			}
			if m.count == 0 {
				continue
			}
		}
		if best.term == "" || m.nearerThan(best) {
			best = m
		}
	}
	return best, nil
}

// typoAutomaton accepts the terms within edits of word: insertions,
// deletions, substitutions of one character and transpositions of two
// adjacent ones count one edit each (optimal string alignment, as bleve's
// Levenshtein automata with transpositions), and the term's first
// character must be the word's. It reads UTF-8 bytes and counts
// characters. It implements segment.Automaton and vellum's FuzzyAutomaton;
// state 0 is dead.
type typoAutomaton struct {
	word   []rune
	edits  uint8
	states []typoState
	rows   []uint8 // the rows of the states, len(word)+1 bytes each
	far    []uint8 // a row of edits+1: what a cell more than edits off the diagonal holds
	steps  int     // steps (transitions tried) allowed; then every step is dead
	used   int     // steps taken
}

// typoState is the table row after the characters read so far.
type typoState struct {
	row, prev int32 // offsets in rows of this row and the one before (-1: none)
	depth     int32 // characters read
	last      rune  // the last character read
	pending   [utf8.UTFMax]byte
	npending  uint8 // bytes of a character not yet complete
}

// deadState is the state no term through which is within the edits.
const deadState = 0

// reset makes a the automaton of word within edits, allowed steps steps,
// reusing its memory.
func (a *typoAutomaton) reset(word []rune, edits uint8, steps int) {
	a.word, a.edits, a.steps, a.used = word, edits, steps, 0
	a.states = append(a.states[:0], typoState{}, typoState{row: 0, prev: -1})
	a.rows, a.far = a.rows[:0], a.far[:0]
	for j := range len(word) + 1 {
		a.rows = append(a.rows, uint8(min(j, int(edits)+1)))
		a.far = append(a.far, edits+1)
	}
}

func (a *typoAutomaton) Start() int { return 1 }

func (a *typoAutomaton) IsMatch(s int) bool {
	return s != deadState && a.states[s].npending == 0 && a.distance(s) <= a.edits
}

func (a *typoAutomaton) CanMatch(s int) bool { return s != deadState }

func (a *typoAutomaton) WillAlwaysMatch(int) bool { return false }

// EditDistance is the distance of the term read to s from the word (capped
// at edits+1).
func (a *typoAutomaton) EditDistance(s int) uint8 { return a.distance(s) }

func (a *typoAutomaton) distance(s int) uint8 {
	return a.rows[int(a.states[s].row)+len(a.word)]
}

// MatchAndDistance reads term from the start.
func (a *typoAutomaton) MatchAndDistance(term string) (bool, uint8) {
	s := a.Start()
	for i := 0; i < len(term) && s != deadState; i++ {
		s = a.Accept(s, term[i])
	}
	if s == deadState {
		return false, a.edits + 1
	}
	return a.IsMatch(s), a.distance(s)
}

// Accept reads byte b in state s.
func (a *typoAutomaton) Accept(s int, b byte) int {
	if s == deadState || a.used >= a.steps {
		return deadState
	}
	a.used++
	st := a.states[s]
	st.pending[st.npending] = b
	st.npending++
	if !utf8.FullRune(st.pending[:st.npending]) && int(st.npending) < utf8.UTFMax {
		a.states = append(a.states, st) // the same row, one more byte of the character
		return len(a.states) - 1
	}
	r, _ := utf8.DecodeRune(st.pending[:st.npending])
	return a.read(st, r)
}

// read appends the state after reading character r in st, or returns
// deadState when no term through it can be within the edits. Only the
// cells at most edits off the diagonal are computed: the others are more.
func (a *typoAutomaton) read(st typoState, r rune) int {
	n, k, limit := len(a.word), int(a.edits), a.edits+1
	if st.prev < 0 && (n == 0 || r != a.word[0]) {
		return deadState // the first character is never corrected
	}
	at := len(a.rows)
	a.rows = append(a.rows, a.far...)
	cur, next := a.rows[st.row:int(st.row)+n+1], a.rows[at:at+n+1]
	i := int(st.depth) + 1
	best := limit
	if i <= k {
		next[0], best = uint8(i), uint8(i)
	}
	for j := max(1, i-k); j <= min(n, i+k); j++ {
		sub := cur[j-1]
		if a.word[j-1] != r {
			sub++
		}
		v := min(cur[j]+1, next[j-1]+1, sub)
		if j > 1 && st.prev >= 0 && r == a.word[j-2] && st.last == a.word[j-1] {
			v = min(v, a.rows[int(st.prev)+j-2]+1)
		}
		next[j] = min(v, limit)
		best = min(best, next[j])
	}
	if best >= limit {
		a.rows = a.rows[:at]
		return deadState
	}
	a.states = append(a.states, typoState{row: int32(at), prev: st.row, depth: int32(i), last: r})
	return len(a.states) - 1
}

// typoMatch is a term of the dictionary within the edits of a word.
type typoMatch struct {
	term     string
	distance int
	count    int // documents holding it in the field walked
}

// nearerThan orders matches: fewest edits, then most documents, then
// alphabetical order.
func (m typoMatch) nearerThan(o typoMatch) bool {
	if m.distance != o.distance {
		return m.distance < o.distance
	}
	if m.count != o.count {
		return m.count > o.count
	}
	return m.term < o.term
}

// walkDict calls f with each term of dict between start and end that a
// accepts, with its count of documents (segmentfile.EachTerm, which reads
// it from the postings: zap's own count is wrong after a term of one
// posting; TestTypoAutomatonMatchesBleve found it).
func walkDict(dict segment.TermDictionary, a *typoAutomaton, start, end []byte, f func(typoMatch)) error {
	return segmentfile.EachTerm(dict, a, start, end, func(e *bindex.DictEntry) {
		f(typoMatch{term: e.Term, distance: int(e.EditDistance), count: int(e.Count)})
	})
}

// prefixEnd is the first key after every key that starts with prefix (nil:
// none).
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
