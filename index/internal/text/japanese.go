package text

import (
	"bytes"
	"sync"
	"unicode/utf8"
)

// Japanese. A request in Japanese mixes kanji, hiragana and katakana with
// no spaces: GitHubでプルリクエストを作成して. A text with kana is read as
// Japanese: each run of kana and kanji is split from the left into the
// longest headwords of the foreign table (katakana loan words, kanji
// words, verbs with their okurigana: 作成, 削除, 見せて, 割り当て),
// each glossed; hiragana of no headword (particles, endings: で, を,
// して) are dropped; kanji of no headword are left to the Chinese glosses
// (gloss.go), which know the words the two languages share (会议 and 會議
// are 会議's, 文件, 内容) but read Japanese-only words (作成) character by
// character.

// maxJapaneseHead is the characters of the longest Japanese headword.
const maxJapaneseHead = 12

func isKana(r rune) bool { return r >= 0x3041 && r <= 0x30FF }

func isHiragana(r rune) bool { return r >= 0x3041 && r <= 0x309F }

// hasKana reports whether text holds a kana character.
func hasKana(text string) bool {
	for _, r := range text {
		if isKana(r) {
			return true
		}
	}
	return false
}

// glossJapanese reads the run of kana and kanji of text at i, calls f
// with each headword (its English words between spaces, so that they
// never join the kanji beside them) and each run of hiragana of none
// (dropped), and returns where the run ends.
func glossJapanese(text string, i int, f func(start, end int, word, english string)) int {
	end := i
	for end < len(text) {
		r, n := utf8.DecodeRuneInString(text[end:])
		if !isKana(r) && !isHan(r) {
			break
		}
		end += n
	}
	drop := -1 // start of the hiragana being dropped
	flush := func(at int) {
		if drop >= 0 {
			f(drop, at, text[drop:at], " ")
			drop = -1
		}
	}
	for i < end {
		if j, english := longestJapanese(text[i:end]); j > 0 {
			flush(i)
			f(i, i+j, text[i:i+j], " "+english+" ")
			i += j
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case isHiragana(r):
			if drop < 0 {
				drop = i
			}
		default:
			flush(i)
		}
		i += n
	}
	flush(end)
	return end
}

// longestJapanese returns the byte length of the longest headword at the
// start of run, and its English words; 0 when none. Only the lengths of
// the headwords that start with run's first character are looked up.
func longestJapanese(run string) (int, string) {
	first, _ := utf8.DecodeRuneInString(run)
	most := japaneseHeads()[first]
	if most == 0 {
		return 0, ""
	}
	ends := make([]int, 0, most)
	for j := range run {
		if j > 0 {
			ends = append(ends, j)
		}
		if len(ends) == most {
			break
		}
	}
	if len(ends) < most {
		ends = append(ends, len(run))
	}
	for k := len(ends) - 1; k >= 0; k-- {
		if english, ok := foreignOf(run[:ends[k]]); ok {
			return ends[k], english
		}
	}
	return 0, ""
}

// japaneseHeads maps the first character of each headword of the table
// that is not Latin to the characters of the longest that starts with it
// (at most maxJapaneseHead).
var japaneseHeads = sync.OnceValue(func() map[rune]int {
	out := map[rune]int{}
	for _, line := range bytes.Split(foreignLines(), []byte{'\n'}) {
		key, _, _ := bytes.Cut(line, []byte{'\t'})
		r, _ := utf8.DecodeRune(key)
		if r < utf8.RuneSelf {
			continue
		}
		out[r] = max(out[r], min(utf8.RuneCount(key), maxJapaneseHead))
	}
	return out
})
