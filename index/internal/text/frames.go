package text

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// frameTable holds the request frames people wrap a task in — "can you
// …", "… please", "I need to …", "find …", "bitte …", "…してください" — the
// words that say how they ask, not what they need (issue 36: the phrasing
// of a request never decides whether it gets items). It is data,
// frames.txt, written from general knowledge of each language by a writer
// who read no evaluation query, every frame under the "source:" line it
// came from (readTable; a "quarantined:" frame is not loaded). One frame a
// line: the words before the ellipsis (…) are a leading frame, those
// after it a trailing one. Frames of Chinese, Japanese or Korean are
// matched as written, without spaces; the others word by word, whatever
// their case and punctuation.
//
//go:embed frames.txt
var frameTable string

// frame is one side of a frame line: its words (or, for a frame without
// spaces in a script written without them, its text).
type frame struct {
	words []string
	text  string // set for a frame matched as written (cjkFrame)
}

// frameSet is the table's frames by side, the longest first, so that "can
// you please" is stripped whole before "can you".
type frameSet struct {
	leading, trailing []frame
	all               []frame // both sides, for isFrame
}

var frames = sync.OnceValue(func() frameSet { return loadFrames(frameTable) })

// loadFrames reads the frames of table that have a source and are not
// quarantined.
func loadFrames(table string) frameSet {
	var out frameSet
	for _, l := range readTable(table) {
		before, after, ok := strings.Cut(l.text, "…")
		if !ok || l.source == "" || l.quarantined {
			continue
		}
		if f, ok := frameOf(before); ok {
			out.leading = append(out.leading, f)
		}
		if f, ok := frameOf(after); ok {
			out.trailing = append(out.trailing, f)
		}
	}
	longestFirst := func(a, b frame) int {
		return len(b.words) + utf8.RuneCountInString(b.text) - len(a.words) - utf8.RuneCountInString(a.text)
	}
	slices.SortStableFunc(out.leading, longestFirst)
	slices.SortStableFunc(out.trailing, longestFirst)
	out.all = append(slices.Clip(out.leading), out.trailing...)
	return out
}

// frameOf reads one side of a frame line; false when it holds nothing.
func frameOf(side string) (frame, bool) {
	side = strings.TrimSpace(side)
	if cjkFrame(side) {
		// One character begins too many words to be a frame alone (能 of
		// 能…吗 begins 能源, energy); the other side of its line stays.
		return frame{text: side}, utf8.RuneCountInString(side) > 1
	}
	var words []string
	for _, w := range frameWords(side) {
		words = append(words, w.text)
	}
	return frame{words: words}, len(words) > 0
}

// cjkFrame reports whether side is written in a script without spaces
// between words (Chinese, Japanese, Korean): such a frame is matched as
// written.
func cjkFrame(side string) bool {
	for _, r := range side {
		if isHan(r) || isKana(r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// frameWord is one word of a text, lowercased, with where it stands.
type frameWord struct {
	text       string
	start, end int
}

// frameWords returns the words of s: runs of letters, digits and marks,
// an apostrophe within a word included (I'd, what's), lowercased.
func frameWords(s string) []frameWord {
	var out []frameWord
	start := -1
	for i, r := range s {
		inWord := isWordRune(r) || unicode.Is(unicode.Hangul, r) ||
			start >= 0 && isApostrophe(r) && i+utf8.RuneLen(r) < len(s) && isWordRuneAt(s, i+utf8.RuneLen(r))
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, frameWord{strings.ToLower(s[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, frameWord{strings.ToLower(s[start:]), start, len(s)})
	}
	return out
}

func isWordRuneAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(r)
}

// WithoutFrames returns s without the request frames it starts and ends
// with (frameTable), stripped again while one is left ("hey, can you
// please find …"), or s itself when it holds none. What is left is the
// task, from its first word (to its last word when a trailing frame was
// stripped, else to the end of s); a frame is stripped only where a word
// of the task is left after it, so a text that is all frames ("help me",
// "find") is kept whole: then the frame is the task.
func WithoutFrames(s string) string { return frames().without(s) }

func (fs frameSet) without(s string) string {
	t := task{s: s, words: frameWords(s), end: len(s)}
	t.hi = len(t.words)
	trailing := false
	for {
		lead := t.strip(fs.leading, true)
		trail := t.strip(fs.trailing, false)
		trailing = trailing || trail
		if !lead && !trail {
			break
		}
	}
	if t.start == 0 && !trailing {
		return s
	}
	out := strings.TrimLeftFunc(s[t.start:t.end], notWord)
	if trailing {
		out = strings.TrimRightFunc(out, notWord)
	}
	if fs.isFrame(out) {
		return s // all frames: "can you please"
	}
	return out
}

// task is what is left of a text as frames are stripped: its bytes
// [start, end) and its words [lo, hi), the text's words read once.
type task struct {
	s          string
	words      []frameWord
	start, end int
	lo, hi     int
}

// strip strips the longest frame of side at the task's start (leading)
// or end, where a word of the task is left beside it; false when none is.
func (t *task) strip(side []frame, leading bool) bool {
	text, words := t.s[t.start:t.end], t.words[t.lo:t.hi]
	for _, f := range side {
		cut := -1 // in text
		switch {
		case f.text != "" && leading:
			if rest := strings.TrimLeftFunc(text, notWord); strings.HasPrefix(rest, f.text) {
				cut = len(text) - len(rest) + len(f.text)
			}
		case f.text != "":
			if rest := strings.TrimRightFunc(text, notWord); strings.HasSuffix(rest, f.text) {
				cut = len(rest) - len(f.text)
			}
		case len(f.words) > len(words):
		case leading && sameWords(words[:len(f.words)], f.words):
			cut = words[len(f.words)-1].end - t.start
		case !leading && sameWords(words[len(words)-len(f.words):], f.words):
			cut = words[len(words)-len(f.words)].start - t.start
		}
		switch {
		case cut < 0:
		case leading && holdsWord(text[cut:]):
			t.start += cut
			for t.lo < t.hi && t.words[t.lo].start < t.start {
				t.lo++
			}
			return true
		case !leading && holdsWord(text[:cut]):
			t.end = t.start + cut
			for t.hi > t.lo && t.words[t.hi-1].end > t.end {
				t.hi--
			}
			return true
		}
	}
	return false
}

// isFrame reports whether text is one frame of the table and nothing else.
func (fs frameSet) isFrame(text string) bool {
	var words []string
	for _, w := range frameWords(text) {
		words = append(words, w.text)
	}
	t := strings.TrimFunc(text, notWord)
	for _, f := range fs.all {
		if f.text != "" && t == f.text || f.text == "" && slices.Equal(words, f.words) {
			return true
		}
	}
	return false
}

// holdsWord reports whether s holds a word: a letter, digit or mark, or a
// Chinese, Japanese or Korean character.
func holdsWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !notWord(r) }) >= 0
}

func sameWords(got []frameWord, want []string) bool {
	for i, w := range want {
		if got[i].text != w {
			return false
		}
	}
	return true
}

// notWord reports whether r is part of no word (space, punctuation).
func notWord(r rune) bool {
	return !isWordRune(r) && !isHan(r) && !isKana(r) && !unicode.Is(unicode.Hangul, r)
}
