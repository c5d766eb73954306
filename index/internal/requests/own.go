package requests

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// An item that carries no written request gets its own text as requests
// (own-text): the words of its name, its title and the first sentence of
// its description. Where some items carry written requests and others do
// not, the written ones gave their items a second chance to match that
// the others lacked, and items with requests won against items that fit
// a request better (issue 35). Read as requests, an item's own text is
// matched, weighed and shared as written requests are, so that both
// compete on the same terms. The file marks these items (Own): they do
// not count as asked (View.Asked), and retrieval reads them only where
// the caller sees some item with written requests. A kind no item of
// which carries written requests gets no own text at all (OwnTextKinds):
// nothing would read it, and its file and its check at open would grow
// for nothing (the synthetic catalogs of the cold-start bench carry no
// requests).

// Bounds of the requests an item's own text gives.
const (
	// ownSentenceWords: the words of the description's first sentence
	// kept.
	ownSentenceWords = 30
	// ownRequestBytes: the bytes of one own-text request kept, cut at a
	// word (a written request is at most catalog.MaxRequestBytes).
	ownRequestBytes = 300
)

// OwnRequests are the requests an item's own text gives: its name's
// words, its title when it has one, and its description's first
// sentence, each once.
func OwnRequests(it *catalog.Item) []string {
	var out []string
	add := func(s string) {
		s = cutAtWord(strings.Join(strings.Fields(s), " "), ownRequestBytes)
		for _, o := range out {
			if strings.EqualFold(o, s) {
				return
			}
		}
		if s != "" {
			out = append(out, s)
		}
	}
	add(strings.ToLower(strings.Join(text.SplitName(it.Label), " ")))
	add(it.Title)
	words := strings.Fields(catalog.FirstSentence(it.Description))
	add(strings.Join(words[:min(len(words), ownSentenceWords)], " "))
	return out
}

// cutAtWord cuts s to at most n bytes, at the last space within them
// (at n bytes, backed off to a rune's start, when there is none).
func cutAtWord(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		return cut[:i]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// OwnTextKinds are the kinds some item of which carries written requests:
// there, an item without them has its own text as requests, in the
// requests index and in its vector (package vectors), so that its vector
// leans toward its name and first sentence as the others' lean toward what
// people ask of them. Where no item of a kind has requests, both are as
// before: the own text read for every item of a public set lowered it
// (azure_mcp R@1 .827 → .810 from the vectors alone, livemcpbench nDCG@10
// .463 → .448). This is a property of the whole catalog, hidden items
// included; what a caller's search reads of it is decided over what it
// sees (retrieval's writtenAsked), and the vectors are among what is not
// hidden (functions/search README).
func OwnTextKinds(items []catalog.Item) map[ext.Kind]bool {
	out := map[ext.Kind]bool{}
	for i := range items {
		if len(items[i].Requests) > 0 {
			out[items[i].Kind] = true
		}
	}
	return out
}
