package text

import (
	"bytes"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
)

// Grammatical words of German, Spanish, French, Portuguese, Italian and
// Dutch that the reviewed table (foreign.txt) does not list: the Snowball
// stop-word lists bleve ships (BSD), folded as the table's headwords are. They are dropped
// only from a query that reads as one of those languages, one that holds a
// word of the table, so that an English query keeps its words ("will",
// "so", "bin", "come" are words of both).
var foreignStopWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, list := range [][]byte{de.GermanStopWords, es.SpanishStopWords, fr.FrenchStopWords, pt.PortugueseStopWords, it.ItalianStopWords, nl.DutchStopWords} {
		for _, line := range bytes.Split(list, []byte{'\n'}) {
			if i := bytes.IndexByte(line, '|'); i >= 0 {
				line = line[:i]
			}
			for _, w := range bytes.Fields(line) {
				out[foldWord(string(w))] = true
			}
		}
	}
	return out
})

// isForeignStopWord reports whether the folded word is a grammatical word
// of German, Spanish, French, Portuguese, Italian or Dutch and no English
// stop word.
func isForeignStopWord(folded string) bool {
	return foreignStopWords()[folded] && !IsStopWord(folded)
}
