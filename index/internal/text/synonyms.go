package text

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// synonymGroups is the reviewed synonym table of the language of tools,
// synonyms.txt. Each line is one group; every phrase of a group is
// replaced, at index and at query time alike, by the group's first phrase,
// so "remove a file" and "delete_file" meet on the same words without
// widening the query. Words are written plainly; the table is stemmed when
// loaded. Abbreviations expand to what they stand for. Like the phrase
// table, every group is under a "source:" or "quarantined:" line
// (readTable); a quarantined group, or one under neither, is not loaded.
//
//go:embed synonyms.txt
var synonymGroups string

// synonymTable maps a stemmed phrase (words joined by spaces) to the
// stemmed words that replace it.
type synonymTable struct {
	replace map[string][]string
	longest int // words in the longest phrase
}

// synonyms is the table, stemmed on first use.
var synonyms = sync.OnceValue(func() *synonymTable { return loadSynonyms(synonymGroups) })

func loadSynonyms(groups string) *synonymTable {
	t := &synonymTable{replace: map[string][]string{}}
	for _, l := range readTable(groups) {
		if l.source == "" || l.quarantined {
			continue
		}
		phrases := strings.Split(l.text, "|")
		if len(phrases) < 2 {
			continue
		}
		canonical := stemWords(phrases[0])
		for _, p := range phrases[1:] {
			words := stemWords(p)
			t.replace[strings.Join(words, " ")] = canonical
			t.longest = max(t.longest, len(words))
		}
	}
	return t
}

// stemWords splits a phrase as the analyzer does (identifiers, stop words
// dropped) and stems it.
func stemWords(phrase string) []string {
	var out []string
	for _, w := range SplitName(strings.TrimSpace(phrase)) {
		if IsStopWord(w) {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

// synonymFilter replaces each phrase of the table, longest first, by its
// group's canonical words.
type synonymFilter struct{ t *synonymTable }

func (f synonymFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, len(input))
	for i := 0; i < len(input); {
		n, words := f.match(input[i:])
		if n == 0 {
			out = append(out, input[i])
			i++
			continue
		}
		for _, w := range words {
			tok := *input[i]
			tok.Term = []byte(w)
			out = append(out, &tok)
		}
		i += n
	}
	return out
}

// match returns how many tokens at the start of toks form a phrase of the
// table, and its replacement.
func (f synonymFilter) match(toks analysis.TokenStream) (int, []string) {
	for n := min(f.t.longest, len(toks)); n >= 1; n-- {
		parts := make([]string, n)
		for j := range n {
			parts[j] = string(toks[j].Term)
		}
		if words, ok := f.t.replace[strings.Join(parts, " ")]; ok {
			return n, words
		}
	}
	return 0, nil
}

// stopWords are bleve's English stop words, loaded on first use.
var stopWords = sync.OnceValues(func() (analysis.TokenMap, error) {
	tm := analysis.NewTokenMap()
	return tm, tm.LoadBytes(en.EnglishStopWords)
})

// IsStopWord reports whether w is an English stop word, dropped by the
// analyzer.
func IsStopWord(w string) bool {
	tm, _ := stopWords() // the error is register's, which Analyzer returns
	_, ok := tm[w]
	return ok
}
