package upstream

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
)

// minFormLen is the length of the shortest value whose transformed forms
// are redacted, and of the shortest piece of a form that is: a truncated
// copy of a value is found by a piece of minFormLen bytes at either end of
// one of its forms, and redacted as far as it goes on matching.
const minFormLen = 8

// formMatcher finds values in the forms an upstream may repeat them in,
// beyond the exact spellings the redactor replaces: in any letter case,
// spaced out (white space between any characters), reversed, hex or
// base64 encoded (at each of base64's three alignments, so a value inside
// a longer encoded text is found), URL-escaped, truncated at either end to
// no fewer than minFormLen bytes of the form, and, for a "Basic"
// credential, decoded (user:password, and the password alone). A form is
// matched in the text folded: ASCII letters lowered, ASCII white space
// dropped. What it cannot know is a new encoding: an upstream that
// deliberately re-encodes a value another way can still repeat it.
//
// Most text holds no value: a first pass looks up each window of
// minFormLen folded bytes in a table of the forms' end pieces, and only a
// text with a hit is searched for the forms that piece belongs to.
type formMatcher struct {
	forms  [][]byte              // folded, each at least minFormLen long, longest first
	pieces map[uint64][]int      // the first and last minFormLen bytes of each form, as one word → the forms
	filter [1 << filterBits]bool // pieces by pieceHash: most windows miss here
}

const filterBits = 12

func newFormMatcher(values []string) *formMatcher {
	var forms [][]byte
	for _, v := range withBasicDecoded(values) {
		if len(v) < minFormLen {
			continue
		}
		for _, f := range formsOf(v) {
			if ff := fold([]byte(f)); len(ff) >= minFormLen {
				forms = append(forms, ff)
			}
		}
	}
	if len(forms) == 0 {
		return nil
	}
	slices.SortFunc(forms, func(a, b []byte) int { return cmp.Or(len(b)-len(a), bytes.Compare(a, b)) })
	forms = slices.CompactFunc(forms, bytes.Equal)
	m := &formMatcher{forms: forms, pieces: map[uint64][]int{}}
	for i, f := range forms {
		for _, p := range [][]byte{f[:minFormLen], f[len(f)-minFormLen:]} {
			w := binary.BigEndian.Uint64(p)
			if refs := m.pieces[w]; !slices.Contains(refs, i) {
				m.pieces[w] = append(refs, i)
			}
			m.filter[pieceHash(w)] = true
		}
	}
	return m
}

// pieceHash spreads a window of minFormLen bytes over the filter.
func pieceHash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> (64 - filterBits) }

// candidates are the forms of which b, folded, holds an end piece.
func (m *formMatcher) candidates(b []byte) []int {
	var out []int
	var w uint64
	n := 0
	for _, c := range b {
		if isSpace(c) {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		w, n = w<<8|uint64(c), n+1
		if n >= minFormLen && m.filter[pieceHash(w)] {
			for _, i := range m.pieces[w] {
				if !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

// formsOf lists the forms of v that the matcher looks for (letter case
// and white space are folded away later).
func formsOf(v string) []string {
	b := []byte(v)
	out := []string{v, reversed(v), hex.EncodeToString(b), url.QueryEscape(v), url.PathEscape(v)}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for k := 0; k < 3; k++ {
			out = append(out, base64Core(enc, b, k))
		}
	}
	return out
}

// base64Core is the part of the base64 encoding of v, preceded by k other
// bytes, that depends on v alone: what any text holding v at that
// alignment encodes to.
func base64Core(enc *base64.Encoding, v []byte, k int) string {
	s := enc.EncodeToString(append(make([]byte, k), v...))
	start, end := (8*k+5)/6, 8*(k+len(v))/6
	return s[start:end]
}

func reversed(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// withBasicDecoded adds to values the credentials of those that are HTTP
// Basic credentials ("Basic base64(user:password)"): user:password and
// the password.
func withBasicDecoded(values []string) []string {
	out := slices.Clone(values)
	for _, v := range values {
		enc, ok := cutPrefixFold(v, "Basic ")
		if !ok {
			continue
		}
		dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
		if err != nil {
			continue
		}
		out = append(out, string(dec))
		if _, pass, ok := strings.Cut(string(dec), ":"); ok {
			out = append(out, pass)
		}
	}
	return out
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// fold lowers ASCII letters and drops ASCII white space. It keeps every
// other byte, so a match in the folded text maps back to the original.
func fold(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		switch {
		case isSpace(c):
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		default:
			out = append(out, c)
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// replace returns s with every stretch that matches a form replaced by
// Redacted.
func (m *formMatcher) replace(s string) string {
	if m == nil || len(s) < minFormLen {
		return s
	}
	forms := m.candidates([]byte(s))
	if len(forms) == 0 {
		return s
	}
	folded := fold([]byte(s))
	var spans []span
	for _, i := range forms {
		spans = appendMatches(spans, folded, m.forms[i])
	}
	if len(spans) == 0 {
		return s
	}
	return redactSpans(s, spans)
}

// span is a stretch [from, to) of the folded text.
type span struct{ from, to int }

// appendMatches adds the stretches of text that hold f, or a piece of it
// of at least minFormLen bytes at its start or its end.
func appendMatches(spans []span, text, f []byte) []span {
	head, tail := f[:minFormLen], f[len(f)-minFormLen:]
	for i := 0; ; {
		j := bytes.Index(text[i:], head)
		if j < 0 {
			break
		}
		from := i + j
		n := minFormLen
		for from+n < len(text) && n < len(f) && text[from+n] == f[n] {
			n++
		}
		spans, i = append(spans, span{from, from + n}), from+1
	}
	for i := 0; ; {
		j := bytes.Index(text[i:], tail)
		if j < 0 {
			break
		}
		to := i + j + minFormLen
		from, k := i+j, len(f)-minFormLen
		for from > 0 && k > 0 && text[from-1] == f[k-1] {
			from, k = from-1, k-1
		}
		spans, i = append(spans, span{from, to}), i+j+1
	}
	return spans
}

// redactSpans replaces in s the stretches of its folded text that spans
// name (each at least minFormLen long), merged where they touch, by
// Redacted (white space inside a stretch goes with it).
func redactSpans(s string, spans []span) string {
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		if last := &merged[len(merged)-1]; sp.from <= last.to {
			last.to = max(last.to, sp.to)
		} else {
			merged = append(merged, sp)
		}
	}
	var out strings.Builder
	out.Grow(len(s))
	copied, folded := 0, 0 // bytes of s written or skipped; folded bytes passed
	for i := 0; i < len(s) && len(merged) > 0; i++ {
		if isSpace(s[i]) {
			continue
		}
		switch folded {
		case merged[0].from:
			out.WriteString(s[copied:i])
			out.WriteString(Redacted)
		case merged[0].to - 1:
			copied, merged = i+1, merged[1:]
		}
		folded++
	}
	out.WriteString(s[copied:])
	return out.String()
}
