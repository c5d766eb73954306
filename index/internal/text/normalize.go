package text

import "golang.org/x/text/unicode/norm"

// Normalize returns text in Unicode compatibility form (NFKC): ligatures
// (ﬁ), full-width and other compatibility forms read as the letters they
// stand for, so that text pasted from a PDF or typed on a Japanese keyboard
// searches as typed plainly. A few characters expand to many under NFKC
// (U+FDFA to 18); a normalised text longer than maxBytes is not used, and
// text is returned as it is, so the caller's bound on its size still holds.
func Normalize(text string, maxBytes int) string {
	if norm.NFKC.IsNormalString(text) {
		return text
	}
	if n := norm.NFKC.String(text); len(n) <= maxBytes {
		return n
	}
	return text
}
