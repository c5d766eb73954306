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
// French, Portuguese, Italian, Dutch and Japanese for tools described in
// English. The
// table foreign.txt, reviewed by hand, gives everyday words of software
// and office work in those languages (verbs in the forms people type them:
// infinitive, imperative, participle; nouns singular and plural) their
// English words, and marks their grammatical words (articles,
// prepositions, pronouns) with none. A word that is also an English word
// (den, est, leg) is marked with contextMark and glossed only where the
// text is another language's (minContextWords); the everyday ones that are
// common in English requests (canal, reunion, pasta) are left out.
// Latin-script words are looked up folded (lower case, accents dropped, ß
// as ss, as people often type them); a German compound of two known words
// (Kalendereintrag) is split where both halves are (compoundOf). Japanese is read by
// japanese.go. French elided words (l', d', qu') are dropped. A query
// that holds a word of the table reads as another language, and then also
// loses the grammatical words of Snowball's German, Spanish, French,
// Portuguese, Italian and Dutch stop-word lists (stopforeign.go) that the
// table does not list. The FreeDict dictionaries Debian ships are GPL: not embedded in an
// MIT binary.
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
// table knows, the word and its English words. A text with kana is
// Japanese: its runs of kana and kanji are read by japanese.go.
func forEachForeign(text string, f func(start, end int, word, english string)) {
	japanese := hasKana(text)
	known := foreignWordCount(text)
	foreign, inContext := known >= 1, known >= minContextWords
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case japanese && (isKana(r) || isHan(r)):
			i = glossJapanese(text, i, f)
		case isWordRune(r):
			j, letters := wordEnd(text, i)
			if !letters {
				i = j // a word with digits (Datei2, s3): no word of the table
				continue
			}
			if end, ok := elision(text, i, j); ok {
				f(i, end, text[i:end], "")
				i = end
				continue
			}
			if english, ok := glossLatin(text[i:j], inContext); ok {
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

// isLatinLetter reports whether r is a letter of a script written with
// spaces between words: any letter but Chinese characters and kana.
func isLatinLetter(r rune) bool { return unicode.IsLetter(r) && !isHan(r) && !isKana(r) }

// isWordRune reports whether r is part of a word as the analyser reads
// one: a letter (isLatinLetter), a digit, or a combining mark (an accent
// typed apart from its letter).
func isWordRune(r rune) bool {
	return isLatinLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// wordEnd returns where the word of text at i (its run of isWordRune)
// ends, and whether it has no digit: only such a word may be one of the
// table's, so that no part of Datei2 or Buc0et is glossed apart from the
// token the analyser makes of it.
func wordEnd(text string, i int) (int, bool) {
	letters := true
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			break
		}
		letters = letters && !unicode.IsDigit(r)
		i += n
	}
	return i, letters
}

// elisions are the French words that lose their vowel before one that
// starts with a vowel (l'arborescence, d'affichage, qu'est-ce): grammatical
// words, dropped with their apostrophe.
var elisions = map[string]bool{"c": true, "d": true, "j": true, "l": true, "m": true, "n": true, "qu": true, "s": true, "t": true, "jusqu": true, "lorsqu": true, "puisqu": true}

// elision returns the end of the elided word text[i:j] with its apostrophe,
// when it is one and a letter follows.
func elision(text string, i, j int) (int, bool) {
	if !elisions[strings.ToLower(text[i:j])] {
		return 0, false
	}
	for _, apos := range []string{"'", "’"} {
		if rest, ok := strings.CutPrefix(text[j:], apos); ok && rest != "" {
			if r, _ := utf8.DecodeRuneInString(rest); isLatinLetter(r) {
				return j + len(apos), true
			}
		}
	}
	return 0, false
}

// glossLatin returns the English words of a Latin-script word: its own,
// or those of the two halves of a compound. A word the table marks as
// English too (~) is glossed only in a text of another language
// (minContextWords) or when written with an accent, which no English word
// has (für, not fur).
func glossLatin(word string, inContext bool) (string, bool) {
	folded := foldWord(word)
	if english, ok := foreignOf(folded); ok {
		if rest, amb := strings.CutPrefix(english, contextMark); amb {
			return rest, inContext || folded != strings.ToLower(word)
		}
		return english, true
	}
	if english, ok := pluralOf(folded); ok && (inContext || folded != strings.ToLower(word)) {
		return english, true
	}
	return compoundOf(folded, inContext)
}

// compoundOf returns the English words of a German compound: of its two
// halves where the table knows both, a linking s between them
// (Abwesenheitsnotiz); in another language's text, of its last half
// alone, which names what the compound is (a Zahnarzttermin is a Termin).
func compoundOf(folded string, inContext bool) (string, bool) {
	n := utf8.RuneCountInString(folded)
	if n < 2*minCompoundPart || n > maxCompound {
		return "", false
	}
	known := func(w string) (string, bool) {
		english, ok := foreignOf(w)
		return english, ok && english != "" && !strings.HasPrefix(english, contextMark)
	}
	longest := ""
	for k := len(folded) - minCompoundPart; k >= minCompoundPart; k-- {
		tail, ok := known(folded[k:])
		if !ok {
			continue
		}
		longest = tail
		if head, ok := known(folded[:k]); ok {
			return head + " " + tail, true
		}
		if head, ok := known(strings.TrimSuffix(folded[:k], "s")); ok {
			return head + " " + tail, true
		}
	}
	return longest, inContext && longest != ""
}

// pluralOf returns the English words of a plural the table lists in the
// singular only (dernières: dernière; actualizaciones: actualización),
// not of a word that is English too.
func pluralOf(folded string) (string, bool) {
	for _, suffix := range []string{"s", "es"} {
		single, ok := strings.CutSuffix(folded, suffix)
		if !ok || len(single) < minCompoundPart {
			continue
		}
		if english, ok := foreignOf(single); ok && !strings.HasPrefix(english, contextMark) {
			return english, true
		}
	}
	return "", false
}

// contextMark starts the English words of a headword that is an English
// word too (den, leg, est, sale): glossed only in another language's text.
const contextMark = "~"

// minContextWords is how many words of a text the table must know as
// words of no English (or as written with an accent) for the text to be
// read as another language's where a word is English too: two, so that
// one borrowed word (a café, a fiesta) in an English request glosses
// nothing else. One is enough to drop Snowball's grammatical words.
const minContextWords = 2

// ReadsAsForeign reports whether text reads as another language's than
// English: at least two of its words are words of no English the table
// knows (or written with an accent), or elided French words — the test
// that lets a word that is English too be glossed.
func ReadsAsForeign(text string) bool { return foreignWordCount(text) >= minContextWords }

// foreignWordCount returns how many words of text the table knows as
// words of no English, or written with an accent, and elided French
// words; at most minContextWords.
func foreignWordCount(text string) int {
	n := 0
	for i := 0; i < len(text) && n < minContextWords; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		j, letters := wordEnd(text, i)
		if letters && isForeignWord(text, i, j) {
			n++
		}
		i = j
	}
	return n
}

// isForeignWord reports whether the word text[i:j] is an elided French
// word or one the table knows as no English word (or written with an
// accent).
func isForeignWord(text string, i, j int) bool {
	if _, ok := elision(text, i, j); ok {
		return true
	}
	_, ok := glossLatin(text[i:j], false)
	return ok
}

// foldWord lowers a word and drops its accents, precomposed or typed as
// combining marks (ß as ss).
func foldWord(word string) string {
	var b strings.Builder
	for _, r := range word {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
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
