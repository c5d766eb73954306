package text

import (
	"bytes"
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Glosses of other languages than Chinese. People ask in German, Spanish,
// French, Portuguese and Japanese for tools described in English. The
// table foreign.txt, reviewed by hand, gives everyday words of software
// and office work in those languages (verbs in the forms people type them:
// infinitive, imperative, participle; nouns singular and plural) their
// English words, and marks their grammatical words (articles,
// prepositions, pronouns) with none. It holds no word that is also an
// English word (canal, reunion, pasta, est): those are read as English.
// Latin-script words are looked up folded (lower case, accents dropped, ß
// as ss, as people often type them); a German compound of two known words
// (Kalendereintrag) is split where both halves are. Runs of katakana are
// split into the longest headwords of the table from the left, as Chinese
// is (gloss.go). The FreeDict dictionaries Debian ships are GPL: not
// embedded in an MIT binary. A query that holds a word of the table reads
// as another language, and then also loses the grammatical words of
// Snowball's German, Spanish, French and Portuguese stop-word lists
// (stopforeign.go) that the table does not list.
//
// A query's glossed words are replaced by their English words before it
// is analysed (WithForeignGlosses), and the no-match test weighs each as
// one concept in the caller's own word (ForeignWords). The table is
// searched where it is embedded, by bisection, as the Chinese one.

//go:embed foreign.txt
var foreignData []byte

// foreignLines is the table without its comment header.
var foreignLines = sync.OnceValue(func() []byte { return skipComments(foreignData) })

// skipComments returns data past its leading lines that start with '#'.
func skipComments(data []byte) []byte {
	for len(data) > 0 && data[0] == '#' {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	return data
}

// Limits of foreign words.
const (
	maxKanaHead     = 12 // katakana of the longest headword
	minCompoundPart = 4  // letters of each half of a German compound
	maxCompound     = 40 // letters of a word split as a compound
)

// foreignOf returns the English words of a folded headword ("" for a
// grammatical word) and whether the table holds it.
func foreignOf(head string) (string, bool) {
	return lookupSorted(foreignLines(), head)
}

// lookupSorted finds the line of data (sorted "key\tvalue" lines) whose
// key is head, by bisection.
func lookupSorted(data []byte, head string) (string, bool) {
	lo, hi := 0, len(data)
	for lo < hi {
		mid := (lo + hi) / 2
		start := lo + bytes.LastIndexByte(data[lo:mid], '\n') + 1
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i
		}
		key, value, _ := bytes.Cut(data[start:end], []byte{'\t'})
		switch c := compareKey(key, head); {
		case c == 0:
			return string(value), true
		case c < 0:
			lo = end + 1
		default:
			hi = start
		}
	}
	return "", false
}

// compareKey compares key with head as bytes.Compare would, allocating
// nothing.
func compareKey(key []byte, head string) int {
	for i := 0; i < len(key) && i < len(head); i++ {
		if key[i] != head[i] {
			if key[i] < head[i] {
				return -1
			}
			return 1
		}
	}
	return len(key) - len(head)
}

// ForeignWords returns the words of text the foreign table knows, as
// written, each with its English words ("" for a grammatical word), in
// order.
func ForeignWords(text string) []GlossedWord {
	var out []GlossedWord
	forEachForeign(text, func(_, _ int, word, english string) {
		out = append(out, GlossedWord{word, english})
	})
	return out
}

// WithForeignGlosses returns text with each word the foreign table knows
// replaced by its English words (a grammatical word by nothing), or text
// itself when it holds none.
func WithForeignGlosses(text string) string {
	var b strings.Builder
	last := 0
	forEachForeign(text, func(start, end int, _, english string) {
		b.WriteString(text[last:start])
		b.WriteString(english)
		last = end
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// forEachForeign calls f with the byte span of each word of text the
// table knows, the word and its English words.
func forEachForeign(text string, f func(start, end int, word, english string)) {
	foreign := false // whether the query reads as another language
	forEachLatinWord(text, func(_, _ int, word string) {
		_, known := glossLatin(word)
		foreign = foreign || known
	})
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isKatakana(r):
			i = glossKana(text, i, f)
		case unicode.IsLetter(r) && !isHan(r) && !isKana(r):
			j := i
			for j < len(text) {
				r, n := utf8.DecodeRuneInString(text[j:])
				if !unicode.IsLetter(r) || isHan(r) || isKana(r) {
					break
				}
				j += n
			}
			if english, ok := glossLatin(text[i:j]); ok {
				f(i, j, text[i:j], english)
			} else if foreign && isForeignStopWord(foldWord(text[i:j])) {
				f(i, j, text[i:j], "") // a grammatical word of another language
			}
			i = j
		default:
			i += size
		}
	}
}

// forEachLatinWord calls f with the byte span of each run of Latin
// letters of text (letters that are neither Han nor kana).
func forEachLatinWord(text string, f func(start, end int, word string)) {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) || isHan(r) || isKana(r) {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) || isHan(r) || isKana(r) {
				break
			}
			j += n
		}
		f(i, j, text[i:j])
		i = j
	}
}

// glossLatin returns the English words of a Latin-script word: its own,
// or those of the two halves of a compound.
func glossLatin(word string) (string, bool) {
	folded := foldWord(word)
	if english, ok := foreignOf(folded); ok {
		return english, true
	}
	n := utf8.RuneCountInString(folded)
	if n < 2*minCompoundPart || n > maxCompound {
		return "", false
	}
	for k := len(folded) - minCompoundPart; k >= minCompoundPart; k-- {
		head, ok := foreignOf(folded[:k])
		if !ok || head == "" {
			continue
		}
		if tail, ok := foreignOf(folded[k:]); ok && tail != "" {
			return head + " " + tail, true
		}
	}
	return "", false
}

// glossKana splits the katakana run of text at i into the longest
// headwords of the table, calls f with each, and returns where it ends.
func glossKana(text string, i int, f func(start, end int, word, english string)) int {
	end := i
	for end < len(text) {
		r, n := utf8.DecodeRuneInString(text[end:])
		if !isKatakana(r) {
			break
		}
		end += n
	}
	for i < end {
		j, english := longestKana(text[i:end])
		if j == 0 {
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		f(i, i+j, text[i:i+j], english)
		i += j
	}
	return end
}

// longestKana returns the byte length of the longest headword at the
// start of run, and its English words; 0 when none.
func longestKana(run string) (int, string) {
	ends := []int{}
	for j := range run {
		if j > 0 {
			ends = append(ends, j)
		}
		if len(ends) >= maxKanaHead {
			break
		}
	}
	if len(ends) < maxKanaHead {
		ends = append(ends, len(run))
	}
	for k := len(ends) - 1; k >= 0; k-- {
		if english, ok := foreignOf(run[:ends[k]]); ok {
			return ends[k], english
		}
	}
	return 0, ""
}

// isKatakana reports whether r is a katakana letter or the prolonged
// sound mark.
func isKatakana(r rune) bool { return r >= 0x30A1 && r <= 0x30FC }

func isKana(r rune) bool { return r >= 0x3041 && r <= 0x30FF }

// foldWord lowers a word and drops its accents (ß as ss).
func foldWord(word string) string {
	var b strings.Builder
	for _, r := range word {
		r = unicode.ToLower(r)
		if r == 'ß' {
			b.WriteString("ss")
			continue
		}
		b.WriteRune(baseLetter(r))
	}
	return b.String()
}

// accented maps the accented Latin letters of the table's languages to
// their base letters.
var accented = map[rune]rune{
	'á': 'a', 'à': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a',
	'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'ì': 'i', 'î': 'i', 'ï': 'i',
	'ó': 'o', 'ò': 'o', 'ô': 'o', 'õ': 'o', 'ö': 'o',
	'ú': 'u', 'ù': 'u', 'û': 'u', 'ü': 'u',
	'ç': 'c', 'ñ': 'n',
}

func baseLetter(r rune) rune {
	if b, ok := accented[r]; ok {
		return b
	}
	return r
}

// WithoutForeignWords returns text with each word the foreign table knows
// replaced by a space, or text itself when it holds none.
func WithoutForeignWords(text string) string {
	var b strings.Builder
	last := 0
	forEachForeign(text, func(start, end int, _, _ string) {
		b.WriteString(text[last:start] + " ")
		last = end
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
