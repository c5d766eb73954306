package redact

import (
	"strings"
)

// Replace returns s with every stretch that matches a form replaced by
// Redacted (white space inside a stretch goes with it).
func (m *Matcher) Replace(s string) string {
	if m == nil || len(s) < MinFormLen || !mayHold(m, s) {
		return s
	}
	spans := m.matches(fold([]byte(s)))
	if len(spans) == 0 {
		return s
	}
	return redactSpans(s, spans)
}

// mayHold reports whether some window of MinFormLen folded bytes of s
// passes the filter of m: whether s may hold a form.
func mayHold[T string | []byte](m *Matcher, s T) bool {
	var w uint64
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		w, n = w<<8|uint64(c), n+1
		if n >= MinFormLen && m.passes(w) {
			return true
		}
	}
	return false
}

func (m *Matcher) passes(w uint64) bool {
	h := pieceHash(w)
	return m.filter[h/64]&(1<<(h%64)) != 0
}

// span is a stretch [from, to) of the folded text.
type span struct{ from, to int }

// matches are the stretches of text (folded) that hold a form, or a piece
// of one at its start or its end that stands for at least MinFormLen
// bytes of its value, sorted and merged where they touch. Each is grown
// from a window that is an end piece of its form, forwards from a first
// piece, backwards from a last one.
func (m *Matcher) matches(text []byte) []span {
	var spans []span
	var w uint64
	for i, c := range text {
		w = w<<8 | uint64(c)
		if i+1 < MinFormLen || !m.passes(w) {
			continue
		}
		for _, ref := range m.pieces[w] {
			f := m.forms[ref.form]
			sp := grow(text, f.text, i+1-MinFormLen, ref.tail)
			if sp.to-sp.from >= f.min {
				spans = addSpan(spans, sp)
			}
		}
	}
	return spans
}

// grow is the stretch of text that matches f around the window at from
// that is f's first MinFormLen bytes (tail false: grown forwards) or its
// last (tail true: grown backwards).
func grow(text, f []byte, from int, tail bool) span {
	if !tail {
		n := MinFormLen
		for from+n < len(text) && n < len(f) && text[from+n] == f[n] {
			n++
		}
		return span{from, from + n}
	}
	to, k := from+MinFormLen, len(f)-MinFormLen
	for from > 0 && k > 0 && text[from-1] == f[k-1] {
		from, k = from-1, k-1
	}
	return span{from, to}
}

// addSpan adds sp to spans, sorted and merged where they touch. A span
// found later never ends before the last one starts (it ends past the
// window that found it, which starts at or after every earlier window),
// so only the last ones can meet it.
func addSpan(spans []span, sp span) []span {
	for len(spans) > 0 {
		last := spans[len(spans)-1]
		if sp.from > last.to {
			break
		}
		sp = span{min(sp.from, last.from), max(sp.to, last.to)}
		spans = spans[:len(spans)-1]
	}
	return append(spans, sp)
}

// redactSpans replaces in s the stretches of its folded text that spans
// name (sorted, disjoint, each at least MinFormLen long) by Redacted.
func redactSpans(s string, spans []span) string {
	var out strings.Builder
	out.Grow(len(s))
	copied, folded := 0, 0 // bytes of s written or skipped; folded bytes passed
	for i := 0; i < len(s) && len(spans) > 0; i++ {
		if isSpace(s[i]) {
			continue
		}
		switch folded {
		case spans[0].from:
			out.WriteString(s[copied:i])
			out.WriteString(Redacted)
		case spans[0].to - 1:
			copied, spans = i+1, spans[1:]
		}
		folded++
	}
	out.WriteString(s[copied:])
	return out.String()
}
