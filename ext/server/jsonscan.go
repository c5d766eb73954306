package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
)

// scanMessage checks a request body in one pass, before anything decodes
// it: that it is one JSON value, that its arrays and objects nest at most
// ext.MaxJSONDepth deep, that it holds at most ext.MaxJSONValues values,
// and that no object names a member twice (JSON readers disagree on which
// one counts: encoding/json takes the last). It returns the members of the
// top-level object (nil if the body is another value), so that the
// envelope is read without decoding the body again. A body that is not
// JSON wraps ext.ErrParse; one over a limit, or with a key twice,
// ext.ErrInvalidRequest.
//
// The work is linear in the body's length, plus a sort of each object's
// member names; it allocates the top-level members only (and the names
// that hold escapes).
func scanMessage(body []byte) ([]member, error) {
	s := &jsonScanner{b: body}
	if err := s.value(); err != nil {
		return nil, err
	}
	s.space()
	if s.i < len(s.b) {
		return nil, s.syntax("text after the JSON value")
	}
	return s.top, nil
}

// member is one member of an object: its name (unescaped) and its value as
// written.
type member struct {
	name  string
	value json.RawMessage
}

// jsonScanner validates JSON text and enforces the limits of scanMessage.
type jsonScanner struct {
	b      []byte
	i      int
	depth  int
	values int
	names  [][]byte   // member names of the open objects, innermost last
	path   []pathStep // where the scanner is, for messages
	top    []member
}

func (s *jsonScanner) syntax(what string) error {
	return fmt.Errorf("%w: body is not valid JSON: %s at byte %d", ext.ErrParse, what, s.i)
}

func (s *jsonScanner) value() error {
	s.space()
	if s.i >= len(s.b) {
		return s.syntax("unexpected end")
	}
	if s.values++; s.values > ext.MaxJSONValues {
		return fmt.Errorf("%w: the message holds more than %d JSON values (numbers, strings, literals, arrays and objects)", ext.ErrInvalidRequest, ext.MaxJSONValues)
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		_, err := s.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.syntax(fmt.Sprintf("unexpected character %q", s.b[s.i]))
}

func (s *jsonScanner) enter() error {
	if s.depth++; s.depth > ext.MaxJSONDepth {
		return fmt.Errorf("%w: JSON nests deeper than %d levels", ext.ErrInvalidRequest, ext.MaxJSONDepth)
	}
	s.i++
	s.space()
	return nil
}

func (s *jsonScanner) object() error {
	if err := s.enter(); err != nil {
		return err
	}
	first := len(s.names)
	for n := 0; ; n++ {
		if s.i < len(s.b) && s.b[s.i] == '}' && n == 0 {
			break
		}
		if err := s.objectMember(); err != nil {
			return err
		}
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
			s.space()
			continue
		}
		if s.i >= len(s.b) || s.b[s.i] != '}' {
			return s.syntax("expected , or } in an object")
		}
		break
	}
	s.i++
	s.depth--
	err := s.uniqueNames(s.names[first:])
	s.names = s.names[:first]
	return err
}

// objectMember scans one "name": value of an object.
func (s *jsonScanner) objectMember() error {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return s.syntax("expected a member name")
	}
	raw, err := s.str()
	if err != nil {
		return err
	}
	name := unquote(raw)
	s.names = append(s.names, name)
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return s.syntax("expected : after a member name")
	}
	s.i++
	s.space()
	start := s.i
	s.path = append(s.path, pathStep{name: raw})
	if err := s.value(); err != nil {
		return err
	}
	s.path = s.path[:len(s.path)-1]
	if s.depth == 1 {
		s.top = append(s.top, member{name: string(name), value: s.b[start:s.i]})
	}
	return nil
}

// uniqueNames refuses an object whose member names (as decoded) repeat.
func (s *jsonScanner) uniqueNames(names [][]byte) error {
	if len(names) < 2 {
		return nil
	}
	slices.SortFunc(names, bytes.Compare)
	for i := 1; i < len(names); i++ {
		if bytes.Equal(names[i-1], names[i]) {
			return fmt.Errorf("%w: member %s appears twice in %s: a message names each member once", ext.ErrInvalidRequest, ext.QuoteShort(string(names[i])), s.where())
		}
	}
	return nil
}

// where names the object the scanner is in: "the message", or a field
// path such as "params._meta".
func (s *jsonScanner) where() string {
	if len(s.path) == 0 {
		return "the message"
	}
	t := &textScanner{path: s.path}
	return t.where()
}

func (s *jsonScanner) array() error {
	if err := s.enter(); err != nil {
		return err
	}
	for n := 0; ; n++ {
		if s.i < len(s.b) && s.b[s.i] == ']' && n == 0 {
			break
		}
		s.path = append(s.path, pathStep{index: n})
		if err := s.value(); err != nil {
			return err
		}
		s.path = s.path[:len(s.path)-1]
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
			continue
		}
		if s.i >= len(s.b) || s.b[s.i] != ']' {
			return s.syntax("expected , or ] in an array")
		}
		break
	}
	s.i++
	s.depth--
	return nil
}

// str scans the string at s.i and returns it as written, quotes included.
func (s *jsonScanner) str() ([]byte, error) {
	start := s.i
	s.i++
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start:s.i], nil
		case c < 0x20:
			return nil, s.syntax("control character in a string")
		case c == '\\':
			if err := s.escape(); err != nil {
				return nil, err
			}
		default:
			s.i++
		}
	}
	return nil, s.syntax("unterminated string")
}

func (s *jsonScanner) escape() error {
	if s.i+1 >= len(s.b) {
		return s.syntax("unterminated string")
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return nil
	case 'u':
		if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
			return s.syntax("bad \\u escape")
		}
		s.i += 6
		return nil
	}
	return s.syntax("bad escape")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number scans a number as JSON spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *jsonScanner) number() error {
	if s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case !s.digits():
		return s.syntax("bad number")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return s.syntax("bad number")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return s.syntax("bad number")
		}
	}
	return nil
}

// digits scans one or more digits.
func (s *jsonScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

func (s *jsonScanner) literal(word string) error {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return s.syntax("bad literal")
	}
	s.i += len(word)
	return nil
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// unquote returns the name a quoted JSON string decodes to, as
// encoding/json decodes it (so that "a" and "\u0061" are one name); a
// name without escapes is its own bytes.
func unquote(quoted []byte) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner
	}
	var name string
	json.Unmarshal(quoted, &name)
	return []byte(name)
}
