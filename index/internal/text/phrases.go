package text

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// phraseTable holds the phrasal verbs and idioms of software and office
// work that people type for what tools call by a plain verb or noun ("spin
// up a cluster": create; "tear down the stack": delete; "call off the
// standup": cancel a meeting). It is general knowledge, reviewed for
// ambiguity, not fitted to a catalog: a phrase that could mean something
// else in a request (check out a page, a call of an API) is bound to the
// words that make it unambiguous (check out a branch; a call with someone)
// or left out.
//
// The table is data, phrases.txt, where every phrase is under the line
// that says where it came from: "source:" (general knowledge, or the
// commit that added it and what it measured) or "quarantined:" (fitted to
// the misses of a set's dev half: not loaded until a held-out set confirms
// it; readTable). One line a phrase, "slots => words": a slot is the
// forms a word may take, separated by "/"; "*" stands for up to two words
// of any kind (spin the cluster up). The first word is also matched in its
// regular inflections (kicks, kicked, kicking). The words are added after
// the phrase, to queries only (WithPhraseExpansions): the caller's own
// words stay, and no item is indexed under them. Products are followed by
// the names of the systems they belong to (Feishu is Lark's name in China;
// Outlook, Teams and OneDrive are Microsoft 365), so that a request naming
// one names the
// server.
//
//go:embed phrases.txt
var phraseTable string

// phraseLine is a phrase of the table as written, with the source line it
// is under.
type phraseLine struct {
	text, source string
	quarantined  bool
}

// readTable returns the lines of a table of phrases or synonyms ("#"
// lines and blank ones are none), each with the "source:" or
// "quarantined:" line it is under; a line under neither has no source.
func readTable(table string) []phraseLine {
	var out []phraseLine
	source, quarantined := "", false
	for _, line := range strings.Split(table, "\n") {
		switch line = strings.TrimSpace(line); {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "source:"):
			source, quarantined = strings.TrimSpace(strings.TrimPrefix(line, "source:")), false
		case strings.HasPrefix(line, "quarantined:"):
			source, quarantined = strings.TrimSpace(strings.TrimPrefix(line, "quarantined:")), true
		default:
			out = append(out, phraseLine{line, source, quarantined})
		}
	}
	return out
}

// phrase is one line of the table.
type phrase struct {
	slots [][]string // the forms of each word; nil: a gap
	words string     // what is added after it
}

// phrases are the table's lines by the forms of their first word.
var phrases = sync.OnceValue(func() map[string][]phrase { return loadPhrases(phraseTable) })

// loadPhrases reads the phrases of table that have a source and are not
// quarantined.
func loadPhrases(table string) map[string][]phrase {
	lines := readTable(table)
	out := make(map[string][]phrase, 8*len(lines)) // a first slot has about seven forms (inflected): the map never grows
	for _, l := range lines {
		left, words, ok := strings.Cut(l.text, "=>")
		if !ok || l.source == "" || l.quarantined {
			continue
		}
		p := phrase{words: strings.TrimSpace(words)}
		for _, slot := range strings.Fields(left) {
			if slot == "*" {
				p.slots = append(p.slots, nil)
				continue
			}
			p.slots = append(p.slots, strings.Split(slot, "/"))
		}
		p.slots[0] = inflected(p.slots[0])
		for _, f := range p.slots[0] {
			out[f] = append(out[f], p)
		}
	}
	return out
}

// inflected returns forms with their regular inflections: -s, -es, -ed,
// -ing, a final e dropped before -ing, a final consonant doubled; each
// form once.
func inflected(forms []string) []string {
	out := append([]string(nil), forms...)
	for _, f := range forms {
		out = append(out, f+"s", f+"es", f+"ed", f+"ing")
		if base, ok := strings.CutSuffix(f, "e"); ok {
			out = append(out, base+"ing", f+"d")
		}
		if n := len(f); n >= 3 && !isVowel(f[n-1]) && isVowel(f[n-2]) && !isVowel(f[n-3]) {
			out = append(out, f+f[n-1:]+"ing", f+f[n-1:]+"ed")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// maxGap is the words a gap ("*") of a phrase stands for at most.
const maxGap = 2

// WithPhraseExpansions returns text with the words of each phrase of the
// table it holds added after the phrase, or text itself when it holds
// none.
func WithPhraseExpansions(text string) string {
	var b strings.Builder
	last := 0
	forEachPhrase(text, func(span []word, words string) {
		if end := span[len(span)-1].end; end >= last {
			b.WriteString(text[last:end] + " " + words)
			last = end
		}
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// PhraseWords returns the phrases of the table text holds, each as its
// words written in text one space apart (tear it down), with its own words
// and the words the table adds, in order.
func PhraseWords(text string) []GlossedWord {
	var out []GlossedWord
	forEachPhrase(text, func(span []word, words string) {
		written := make([]string, len(span))
		for i, w := range span {
			written[i] = text[w.start:w.end]
		}
		phrase := strings.Join(written, " ")
		out = append(out, GlossedWord{phrase, phrase + " " + words})
	})
	return out
}

// WithoutPhrases returns text with each phrase of the table replaced by a
// space, or text itself when it holds none.
func WithoutPhrases(text string) string {
	var b strings.Builder
	last := 0
	forEachPhrase(text, func(span []word, _ string) {
		start, end := span[0].start, span[len(span)-1].end
		b.WriteString(text[last:max(last, start)] + " ")
		last = max(last, end)
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// forEachPhrase calls f with the words of each phrase of the table in
// text (gaps included), in order of their first words, and the words the
// table adds.
func forEachPhrase(text string, f func(span []word, words string)) {
	words := lowerWords(text)
	table := phrases()
	for i := range words {
		for _, p := range table[words[i].w] {
			if end, ok := p.match(words, i+1, 1); ok {
				f(words[i:end], p.words)
			}
		}
	}
}

// match reports whether the slots of p from slot s on match words from i
// on, and the index past the last word matched.
func (p phrase) match(words []word, i, s int) (int, bool) {
	if s == len(p.slots) {
		return i, true
	}
	if p.slots[s] == nil {
		for skip := 0; skip <= maxGap && i+skip <= len(words); skip++ {
			if end, ok := p.match(words, i+skip, s+1); ok {
				return end, true
			}
		}
		return 0, false
	}
	if i >= len(words) {
		return 0, false
	}
	for _, f := range p.slots[s] {
		if words[i].w == f {
			return p.match(words, i+1, s+1)
		}
	}
	return 0, false
}

// word is a run of letters and digits of a text, lower-cased, and where
// it starts and ends.
type word struct {
	w          string
	start, end int
}

// lowerWords splits text into runs of letters and digits; a hyphen
// between letters joins (stand-up, to-do).
func lowerWords(text string) []word {
	var out []word
	start := -1
	for i, r := range text + " " {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '-' && start >= 0 && i+1 < len(text) && isLetterByte(text[i+1]))
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, word{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	return out
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
