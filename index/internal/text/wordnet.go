package text

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// wordnetTable is the synonym table distilled from WordNet by
// `mcpsearch wordnet`: each line is a word and the synonyms of its most
// frequent sense, all words the bundled catalogs use.
//
//go:embed wordnet.txt
var wordnetTable string

// related maps an analysed word to the plain synonyms of the word it came
// from, read on first use.
var related = sync.OnceValue(func() map[string][]string { return loadRelated(wordnetTable) })

func loadRelated(table string) map[string][]string {
	out := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		words := strings.Fields(line)
		if len(words) < 2 || strings.HasPrefix(line, "#") {
			continue
		}
		for _, stem := range Analyze(words[0]) {
			out[stem] = append(out[stem], words[1:]...)
		}
	}
	for k, v := range out {
		slices.Sort(v)
		out[k] = slices.Compact(v)
	}
	return out
}

// Expansion returns the WordNet synonyms of the words of text that text
// does not hold already: indexed in a field of their own, they let a query
// in other words find the item ("purchase" finds a tool that says "buy").
func Expansion(text string) string {
	have := map[string]bool{}
	words := Analyze(text)
	for _, w := range words {
		have[w] = true
	}
	var out []string
	seen, rel := map[string]bool{}, related()
	for _, w := range words {
		if IsGeneric(w) {
			continue // "get" is "find" and "take" and "have": too many senses
		}
		for _, syn := range rel[w] {
			stems := Analyze(syn)
			if len(stems) == 1 && !have[stems[0]] && !seen[stems[0]] && !IsGeneric(stems[0]) {
				seen[stems[0]] = true
				out = append(out, syn)
			}
		}
	}
	return strings.Join(out, " ")
}
