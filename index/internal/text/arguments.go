package text

import (
	"strings"
	"unicode"
)

// Arguments of a request: what a tool is to be called with rather than
// what the tool does. "send a message to #deploys saying the release is
// out" asks for a tool that sends messages; "the release is out" is what
// the message says. The no-match test weighs what a request asks for, so
// it leaves out of a request (WithoutArguments):
//
//   - quoted text ('…', "…", “…”, ‘…’, «…»);
//   - what follows a word that introduces what is said or what a thing
//     is called (saying, says, titled, called, named);
//   - what follows "of" after a word for a picture (image, picture,
//     photo, drawing, illustration, logo, icon): what it shows;
//   - what follows "for" after a word for a container (folder, channel,
//     board, label…): what it is to hold ("a new folder for the 2025
//     taxes").
//
// Each such span runs to the end of its sentence.

// argumentMarkers introduce what is said or what a thing is about.
var argumentMarkers = map[string]bool{
	"saying": true, "says": true, "titled": true, "called": true, "named": true,
}

// tellingVerbs say something to someone: a "that" after one of them, used
// as a verb (verbPosition), introduces what is said ("post in the channel
// that the deck is ready"; not "a sample email that shows my skills").
var tellingVerbs = map[string]bool{
	"tell": true, "say": true, "post": true, "notify": true, "remind": true, "message": true,
	"announce": true, "inform": true, "reply": true, "email": true, "ping": true, "dm": true, "warn": true,
}

// pictureWords are things whose "of" introduces what they show.
var pictureWords = map[string]bool{
	"image": true, "images": true, "picture": true, "pictures": true, "photo": true, "photos": true,
	"drawing": true, "illustration": true, "logo": true, "icon": true,
}

// containerWords are things whose "for" introduces what they are to hold.
var containerWords = map[string]bool{
	"folder": true, "folders": true, "directory": true, "channel": true, "board": true,
	"label": true, "bucket": true, "workspace": true, "notebook": true, "section": true, "calendar": true,
}

// WithoutArguments returns text without its arguments (see above), or
// text itself when it has none.
func WithoutArguments(text string) string {
	unquoted := withoutQuotes(text)
	var b strings.Builder
	skipping, skipped := false, unquoted != text
	prev, telling := "", false
	for _, tok := range strings.FieldsFunc(unquoted, unicode.IsSpace) {
		word := strings.ToLower(strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) }))
		if skipping {
			skipped = true
		} else {
			b.WriteString(tok)
			b.WriteByte(' ')
			skipping = argumentMarkers[word] || word == "of" && pictureWords[prev] || word == "for" && containerWords[prev] ||
				word == "that" && telling
			telling = telling || tellingVerbs[word] && verbPosition(prev)
		}
		if strings.ContainsAny(tok, ".!?;") && strings.IndexAny(tok, ".!?;") == len(tok)-1 {
			skipping, telling = false, false // a sentence ends
		}
		prev = word
	}
	if !skipped {
		return text
	}
	return strings.TrimSpace(b.String())
}

// quotePairs are the quotation marks a quoted argument is enclosed in.
var quotePairs = map[rune]rune{'"': '"', '“': '”', '‘': '’', '«': '»', '\'': '\''}

// withoutQuotes drops quoted text, marks included. An apostrophe opens a
// quotation only at the start of a word (it's, don't are words). A mark
// with no closing one after it stays; each looks for its closing one only
// when the last of that kind lies ahead, so that a text of marks that
// never close costs time in proportion to its length.
func withoutQuotes(text string) string {
	var b strings.Builder
	rs := []rune(text)
	last := map[rune]int{} // the last index of each closing mark
	for i, r := range rs {
		if isClosingMark(r) {
			last[r] = i
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		closing, opens := quotePairs[r]
		if opens && (r != '\'' || i == 0 || unicode.IsSpace(rs[i-1])) {
			if end, ok := last[closing]; ok && end > i {
				i += indexRune(rs[i+1:], closing) + 1
				b.WriteByte(' ')
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isClosingMark reports whether r closes a quotation (quotePairs).
func isClosingMark(r rune) bool {
	switch r {
	case '"', '”', '’', '»', '\'':
		return true
	}
	return false
}

func indexRune(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// timeWords name days and times of day: when a request is to be done, an
// argument of a tool, not what the tool does.
var timeWords = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"today": true, "tomorrow": true, "tonight": true, "yesterday": true,
	"morning": true, "afternoon": true, "evening": true, "weekend": true,
}

// IsTimeWord reports whether word names a day or a time of day, in any
// case, possessive or plural ("Thursday's", "mornings").
func IsTimeWord(word string) bool {
	word = strings.ToLower(word)
	word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
	return timeWords[word] || timeWords[strings.TrimSuffix(word, "s")]
}

// verbPosition reports whether a word after prev (the word before it, ""
// at the start of a sentence) stands where a request puts its verb.
func verbPosition(prev string) bool {
	switch prev {
	case "", "please", "and", "then", "to", "pls":
		return true
	}
	return false
}
