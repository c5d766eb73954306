package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// badText finds the first string (member name or value) of the JSON text
// raw that is not valid UTF-8: raw bytes that are not UTF-8, or a \u escape
// of an unpaired surrogate. encoding/json decodes both into U+FFFD without
// a word, so they are looked for in the text itself. raw must be valid JSON
// (decoded once already) nested no deeper than MaxJSONDepth; where names
// the string as a field path of params.
func badText(raw []byte) (where string, bad bool) {
	if utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\u`)) {
		return "", false // the common case: nothing to look at closely
	}
	s := &textScanner{b: raw}
	if !s.value() {
		return "", false
	}
	return s.where(), true
}

// textScanner walks valid JSON text, keeping the path to the current value.
type textScanner struct {
	b     []byte
	i     int
	path  []pathStep
	inKey bool // the bad string found is a member name
}

// pathStep is a member (its name as written) or an array index.
type pathStep struct {
	name  []byte
	index int
}

// value scans one value and reports whether it holds a bad string.
func (s *textScanner) value() bool {
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '{':
		return s.object()
	case '[':
		return s.array()
	case '"':
		_, bad := s.str()
		return bad
	}
	for s.i < len(s.b) && !strings.ContainsRune(",]} \t\r\n", rune(s.b[s.i])) {
		s.i++ // a number or a literal
	}
	return false
}

func (s *textScanner) object() bool {
	s.i++
	for s.space(); s.i < len(s.b) && s.b[s.i] != '}'; s.space() {
		if s.b[s.i] == ',' {
			s.i++
			s.space()
		}
		name, bad := s.str()
		if bad {
			s.inKey = true
			return true
		}
		s.space()
		s.i++ // the colon
		s.path = append(s.path, pathStep{name: name})
		if s.value() {
			return true
		}
		s.path = s.path[:len(s.path)-1]
	}
	s.i++
	return false
}

func (s *textScanner) array() bool {
	s.i++
	for n := 0; ; n++ {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] == ']' {
			s.i++
			return false
		}
		if s.b[s.i] == ',' {
			s.i++
		}
		s.path = append(s.path, pathStep{index: n})
		if s.value() {
			return true
		}
		s.path = s.path[:len(s.path)-1]
	}
}

// str scans the string at s.i and returns it as written, quotes included,
// and whether it is bad.
func (s *textScanner) str() ([]byte, bool) {
	start := s.i
	s.i++
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start:s.i], false
		case c == '\\' && s.i+1 < len(s.b) && s.b[s.i+1] == 'u':
			n, ok := s.escapedRune()
			if !ok {
				return nil, true
			}
			s.i += n
		case c == '\\':
			s.i += 2
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return nil, true
			}
			s.i += size
		}
	}
	return s.b[start:], false
}

// escapedRune reads the \u escape at s.i: it returns its length (12 for a
// surrogate pair) and false for an unpaired surrogate.
func (s *textScanner) escapedRune() (int, bool) {
	first := s.hex4(s.i + 2)
	switch {
	case first >= 0xDC00 && first <= 0xDFFF:
		return 0, false
	case first < 0xD800 || first > 0xDBFF:
		return 6, true
	}
	if s.i+7 < len(s.b) && s.b[s.i+6] == '\\' && s.b[s.i+7] == 'u' {
		if second := s.hex4(s.i + 8); second >= 0xDC00 && second <= 0xDFFF {
			return 12, true
		}
	}
	return 0, false
}

// hex4 is the value of the four hex digits at i, or -1.
func (s *textScanner) hex4(i int) int {
	if i+4 > len(s.b) {
		return -1
	}
	v, err := strconv.ParseUint(string(s.b[i:i+4]), 16, 16)
	if err != nil {
		return -1
	}
	return int(v)
}

func (s *textScanner) space() {
	for s.i < len(s.b) && strings.IndexByte(" \t\r\n", s.b[s.i]) >= 0 {
		s.i++
	}
}

// where names the bad string found: `field "filter.servers[0]"`, or `a
// member name of field "filter"`.
func (s *textScanner) where() string {
	var b strings.Builder
	for i, step := range s.path {
		if step.name == nil {
			fmt.Fprintf(&b, "[%d]", step.index)
			continue
		}
		var name string
		json.Unmarshal(step.name, &name)
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(name)
	}
	field := fmt.Sprintf("field %q", b.String())
	switch {
	case s.inKey && len(s.path) == 0:
		return "a member name of params"
	case s.inKey:
		return "a member name of " + field
	}
	return field
}

// isIntegral reports whether the JSON number literal lit has an integer
// value (7, -0, 7.0, 7e0, 70e-1, 1e400), without building the number: a
// literal's exponent can be too large to build.
func isIntegral(lit string) bool {
	mantissa, exp, _ := strings.Cut(strings.ToLower(lit), "e")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(mantissa, "-"), ".")
	digits := strings.TrimRight(whole+frac, "0")
	if strings.Trim(digits, "0") == "" {
		return true // zero
	}
	trailingZeros := len(whole) + len(frac) - len(digits)
	// The value is digits × 10^(exponent − len(frac) + trailingZeros), and
	// len(frac) and trailingZeros are below the body limit.
	e, err := strconv.Atoi(exp)
	switch {
	case exp == "":
		e = 0
	case err != nil || e > 1<<30 || e < -1<<30: // too large to matter: its sign decides
		return !strings.HasPrefix(exp, "-")
	}
	return e-len(frac)+trailingZeros >= 0
}
