package redact

// This file holds the matcher as it was before compositions (commit
// 79bc9fd, ext/upstream/forms.go and results.go), unchanged but for its
// names (prefixed legacy) and the helpers it shares with the new one,
// kept only so that BenchmarkReplaceJSON prints its cost beside the new
// one's in one run.

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// legacyMinFormLen is the length of the shortest value whose transformed forms
// are redacted, and of the shortest piece of a form that is: a truncated
// copy of a value is found by a piece of legacyMinFormLen bytes at either end of
// one of its forms, and redacted as far as it goes on matching.
const legacyMinFormLen = 8

// legacyMatcher finds values in the forms an upstream may repeat them in,
// beyond the exact spellings the redactor replaces: in any letter case,
// spaced out (white space between any characters), reversed, hex or
// base64 encoded (at each of base64's three alignments, so a value inside
// a longer encoded text is found), URL-escaped, truncated at either end to
// no fewer than legacyMinFormLen bytes of the form, and, for a "Basic"
// credential, decoded (user:password, and the password alone). A form is
// matched in the text folded: ASCII letters lowered, ASCII white space
// dropped. What it cannot know is a new encoding: an upstream that
// deliberately re-encodes a value another way can still repeat it.
//
// Most text holds no value: a first pass looks up each window of
// legacyMinFormLen folded bytes in a table of the forms' end pieces, and only a
// text with a hit is searched for the forms that piece belongs to.
type legacyMatcher struct {
	forms  [][]byte                    // folded, each at least legacyMinFormLen long, longest first
	pieces map[uint64][]int            // the first and last legacyMinFormLen bytes of each form, as one word → the forms
	filter [1 << legacyFilterBits]bool // pieces by legacyPieceHash: most windows miss here
}

const legacyFilterBits = 12

func newLegacyMatcher(values []string) *legacyMatcher {
	var forms [][]byte
	for _, v := range withBasicDecoded(values) {
		if len(v) < legacyMinFormLen {
			continue
		}
		for _, f := range legacyFormsOf(v) {
			if ff := fold([]byte(f)); len(ff) >= legacyMinFormLen {
				forms = append(forms, ff)
			}
		}
	}
	if len(forms) == 0 {
		return nil
	}
	slices.SortFunc(forms, func(a, b []byte) int { return cmp.Or(len(b)-len(a), bytes.Compare(a, b)) })
	forms = slices.CompactFunc(forms, bytes.Equal)
	m := &legacyMatcher{forms: forms, pieces: map[uint64][]int{}}
	for i, f := range forms {
		for _, p := range [][]byte{f[:legacyMinFormLen], f[len(f)-legacyMinFormLen:]} {
			w := binary.BigEndian.Uint64(p)
			if refs := m.pieces[w]; !slices.Contains(refs, i) {
				m.pieces[w] = append(refs, i)
			}
			m.filter[legacyPieceHash(w)] = true
		}
	}
	return m
}

// legacyPieceHash spreads a window of legacyMinFormLen bytes over the filter.
func legacyPieceHash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> (64 - legacyFilterBits) }

// candidates are the forms of which b, folded, holds an end piece.
func (m *legacyMatcher) candidates(b []byte) []int {
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
		if n >= legacyMinFormLen && m.filter[legacyPieceHash(w)] {
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
func legacyFormsOf(v string) []string {
	b := []byte(v)
	out := []string{v, reversed(v), hex.EncodeToString(b), url.QueryEscape(v), url.PathEscape(v)}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for k := 0; k < 3; k++ {
			out = append(out, base64Core(enc, b, k))
		}
	}
	return out
}

// replace returns s with every stretch that matches a form replaced by
// Redacted.
func (m *legacyMatcher) replace(s string) string {
	if m == nil || len(s) < legacyMinFormLen {
		return s
	}
	forms := m.candidates([]byte(s))
	if len(forms) == 0 {
		return s
	}
	folded := fold([]byte(s))
	var spans []span
	for _, i := range forms {
		spans = legacyAppendMatches(spans, folded, m.forms[i])
	}
	if len(spans) == 0 {
		return s
	}
	return legacyRedactSpans(s, spans)
}

// legacyAppendMatches adds the stretches of text that hold f, or a piece of it
// of at least legacyMinFormLen bytes at its start or its end.
func legacyAppendMatches(spans []span, text, f []byte) []span {
	head, tail := f[:legacyMinFormLen], f[len(f)-legacyMinFormLen:]
	for i := 0; ; {
		j := bytes.Index(text[i:], head)
		if j < 0 {
			break
		}
		from := i + j
		n := legacyMinFormLen
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
		to := i + j + legacyMinFormLen
		from, k := i+j, len(f)-legacyMinFormLen
		for from > 0 && k > 0 && text[from-1] == f[k-1] {
			from, k = from-1, k-1
		}
		spans, i = append(spans, span{from, to}), i+j+1
	}
	return spans
}

// legacyRedactSpans replaces in s the stretches of its folded text that spans
// name (each at least legacyMinFormLen long), merged where they touch, by
// Redacted (white space inside a stretch goes with it).
func legacyRedactSpans(s string, spans []span) string {
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

// legacyReplaceJSON returns raw, a JSON value an upstream answered, with the
// secrets of cfg removed from every string in it (member names too): the
// value of each ${VAR} reference and each header value that holds one,
// when at least 8 bytes long, in every form a legacyMatcher finds (any
// letter case, spaced out, reversed, hex, base64, URL-escaped, truncated,
// a Basic credential decoded). Strings are matched as JSON decodes them,
// so no escaping hides a value. A string that holds none is left byte
// for byte as it was, and so is all else (numbers, member order, white
// space); a string that does is encoded again with its matches replaced
// by Redacted. raw must be valid JSON (mcp-go has accepted it). Values
// written literally in the catalog are not secrets and are left, as are
// shorter values (a log level, a port), which would garble results.
func legacyReplaceJSON(m *legacyMatcher, raw json.RawMessage) json.RawMessage {
	if m == nil {
		return raw
	}
	var out []byte // nil until a string changes
	last := 0      // bytes of raw copied to out
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		end := stringEnd(raw, i)
		if redacted, ok := m.legacyLiteral(raw[i:end]); ok {
			out = append(append(out, raw[last:i]...), redacted...)
			last = end
		}
		i = end - 1
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// legacyLiteral returns lit, a JSON string literal, encoded again with
// its matches redacted, and whether it had any.
func (m *legacyMatcher) legacyLiteral(lit []byte) ([]byte, bool) {
	if len(lit) < legacyMinFormLen+2 {
		return nil, false
	}
	body := lit[1 : len(lit)-1]
	escaped := bytes.IndexByte(body, '\\') >= 0
	if !escaped && len(m.candidates(body)) == 0 {
		return nil, false // the usual case, without a copy
	}
	s := string(body)
	if escaped && json.Unmarshal(lit, &s) != nil {
		return nil, false
	}
	r := m.replace(s)
	if r == s {
		return nil, false
	}
	out, err := json.Marshal(r)
	return out, err == nil
}
