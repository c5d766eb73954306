package text

import (
	_ "embed"
	"strings"
	"sync"
)

// toolVocabTable holds what public MCP servers' names say they deal with,
// in two parts. Products: the words of the library's server names (their
// packages' and the names they give themselves) that the tool and prompt
// names of other servers hardly use (trello, stripe; not chart, which
// names tools of many servers). Objects and actions: the words the tool
// and prompt names of several servers use (flight, invoice, deploy). A
// kept page's hint may name a product the best item lacks, or an object
// no item the caller sees is named for, even where some item's text
// mentions it (missing-hints, issue 36): that is what the request is
// about, where an argument value (a place, a month) is not. It is data,
// toolvocab.txt, distilled from the library's names by go run
// ./infra/lab/cmd/mcpsearch-lab toolvocab; no description, request or
// query is read. Its lines are terms of the text analyzer (invoic, not
// invoice), so that reading it costs a search nothing but the map: the
// distiller analyses the words.
//
//go:embed toolvocab.txt
var toolVocabTable string

// toolVocab is the table as the text analyzer reads its words.
type toolVocab struct {
	products, objects map[string]bool
}

var toolVocabulary = sync.OnceValue(func() toolVocab { return loadToolVocab(toolVocabTable) })

// ProductsSource and ObjectsSource open the "source:" lines of the table's
// two parts.
const (
	ProductsSource = "products"
	ObjectsSource  = "objects"
)

// loadToolVocab reads the terms of table's lines under a "source:" line,
// none quarantined: those under a source that begins ProductsSource as
// products, ObjectsSource as objects and actions, others not at all.
func loadToolVocab(table string) toolVocab {
	lines := readTable(table)
	v := toolVocab{map[string]bool{}, make(map[string]bool, len(lines))}
	for _, l := range lines {
		var into map[string]bool
		switch {
		case l.source == "" || l.quarantined:
		case strings.HasPrefix(l.source, ProductsSource):
			into = v.products
		case strings.HasPrefix(l.source, ObjectsSource):
			into = v.objects
		}
		if into != nil {
			into[l.text] = true
		}
	}
	return v
}

// IsProductTerm reports whether term, a term of the text analyzer, names
// a product public MCP servers are named for.
func IsProductTerm(term string) bool { return toolVocabulary().products[term] }

// IsObjectTerm reports whether term, a term of the text analyzer, names an
// object or action the tools of several public MCP servers are named for.
func IsObjectTerm(term string) bool { return toolVocabulary().objects[term] }
