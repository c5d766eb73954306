package redact

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"net/url"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MinFormLen is the length of the shortest value whose forms a Matcher
// finds, and of the shortest piece of the value a match must cover: a
// truncated copy is found by a piece of MinFormLen bytes at either end of
// one of its forms, and redacted as far as it goes on matching, when it
// stands for at least MinFormLen bytes of the value (16 bytes of hex, 11
// of base64, 48 of \u escapes).
const MinFormLen = 8

// Matcher finds values in the forms a server may repeat them in, beyond
// the spellings a Redactor replaces: in any letter case, spaced out (white
// space between any characters), truncated at either end, for an HTTP
// "Basic" credential decoded (user:password, and the password alone), and
// rewritten by up to two transforms one after the other (see the package
// doc: reversed, hex, base64, %XX, \u or \x escapes, URL escaping). A form
// is matched in the text folded: ASCII letters lowered, ASCII white space
// dropped. A nil *Matcher matches nothing. It is safe for concurrent use.
//
// Most text holds no value: a first pass looks up each window of
// MinFormLen folded bytes in a bit filter of the forms' end pieces, and
// only a text with a hit is folded and searched, each match grown from
// the window that hit, so that the cost stays linear in the text however
// many forms there are.
type Matcher struct {
	forms  []form
	pieces map[uint64][]pieceRef         // the first and last MinFormLen bytes of each form, as one word
	filter [1 << (filterBits - 6)]uint64 // pieces by pieceHash, one bit each: most windows miss here
}

// form is one way a value may be written, folded.
type form struct {
	text []byte
	min  int // the shortest stretch matched: MinFormLen bytes of the value, as long in this form
}

// pieceRef names a form whose first (or last) MinFormLen bytes a piece is.
type pieceRef struct {
	form int
	tail bool
}

const filterBits = 16

// NewMatcher returns the Matcher of the values of at least MinFormLen
// bytes, or nil when there is none.
func NewMatcher(values ...string) *Matcher {
	forms := formsOfAll(values)
	if len(forms) == 0 {
		return nil
	}
	m := &Matcher{forms: forms, pieces: map[uint64][]pieceRef{}}
	for i, f := range forms {
		for _, ref := range []pieceRef{{i, false}, {i, true}} {
			p := f.text[:MinFormLen]
			if ref.tail {
				p = f.text[len(f.text)-MinFormLen:]
			}
			w := binary.BigEndian.Uint64(p)
			m.pieces[w] = append(m.pieces[w], ref)
			h := pieceHash(w)
			m.filter[h/64] |= 1 << (h % 64)
		}
	}
	return m
}

// formsOfAll are the folded forms of values (Basic credentials decoded
// too), each at least MinFormLen long, longest first, each once.
func formsOfAll(values []string) []form {
	var forms []form
	for _, v := range withBasicDecoded(values) {
		if len(v) < MinFormLen {
			continue
		}
		for _, f := range formsOf(v) {
			if ff := foldString(f); len(ff) >= MinFormLen {
				forms = append(forms, form{text: ff, min: max(MinFormLen, ceilDiv(MinFormLen*len(ff), len(v)))})
			}
		}
	}
	slices.SortFunc(forms, func(a, b form) int {
		return cmp.Or(len(b.text)-len(a.text), bytes.Compare(a.text, b.text), a.min-b.min)
	})
	return slices.CompactFunc(forms, func(a, b form) bool { return bytes.Equal(a.text, b.text) })
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// pieceHash spreads a window of MinFormLen bytes over the filter.
func pieceHash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> (64 - filterBits) }

// transforms are the ways a value may be rewritten, each giving one or
// more forms: base64 one per alphabet and alignment, and those that write
// hex digits one in lower and one in upper case (the case of a form
// folds away, but not once another transform has encoded it).
var transforms = []func(string) []string{
	func(s string) []string { return []string{reversed(s)} },
	func(s string) []string { return bothCases(s, "", 2, hexByte) },
	base64Forms,
	func(s string) []string { return bothCases(s, "%", 2, hexByte) },
	func(s string) []string { return bothCases(s, `\x`, 2, hexByte) },
	func(s string) []string { return bothCases(s, `\u`, 4, hexUnit) },
	func(s string) []string { return []string{url.QueryEscape(s), url.PathEscape(s)} },
}

const lowerHex, upperHex = "0123456789abcdef", "0123456789ABCDEF"

// bothCases is s with each unit that split cuts it into written as prefix
// and n hex digits, once in lower case and once in upper.
func bothCases(s, prefix string, n int, split func(s string, each func(unit uint16))) []string {
	var out [2][]byte
	split(s, func(u uint16) {
		for i, digits := range [2]string{lowerHex, upperHex} {
			out[i] = append(out[i], prefix...)
			for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
				out[i] = append(out[i], digits[u>>shift&15])
			}
		}
	})
	return []string{string(out[0]), string(out[1])}
}

// hexByte splits s into its bytes.
func hexByte(s string, each func(uint16)) {
	for i := 0; i < len(s); i++ {
		each(uint16(s[i]))
	}
}

// hexUnit splits s into its UTF-16 code units, as JSON's \u escapes
// write it (a surrogate pair beyond U+FFFF).
func hexUnit(s string, each func(uint16)) {
	for _, u := range utf16.Encode([]rune(s)) {
		each(u)
	}
}

// formsOf lists the forms of v that a Matcher looks for: v, and v
// rewritten by one transform or by two one after the other (letter case
// and white space are folded away later).
func formsOf(v string) []string {
	var onces []string
	for _, t := range transforms {
		onces = append(onces, t(v)...)
	}
	slices.Sort(onces)
	onces = slices.Compact(onces) // URL escaping often leaves v as it is; both alphabets of base64 often agree
	out := append([]string{v}, onces...)
	for _, once := range onces {
		if once == v {
			continue
		}
		for _, then := range transforms {
			out = append(out, then(once)...)
		}
	}
	return out
}

// base64Forms are the parts of the base64 encodings of v (standard and URL
// alphabets, no padding) that depend on v alone, at each of the three
// alignments v may have inside a longer encoded text.
func base64Forms(v string) []string {
	var out []string
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for k := range 3 {
			out = append(out, base64Core(enc, []byte(v), k))
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

// reversed is s backwards, by character (by byte if s is not UTF-8).
func reversed(s string) string {
	if !utf8.ValidString(s) {
		b := []byte(s)
		slices.Reverse(b)
		return string(b)
	}
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

// foldString is fold of s.
func foldString(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
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
