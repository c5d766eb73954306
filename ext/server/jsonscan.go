package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/internal/jsonlex"
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
		return s.scan(jsonlex.Number(s.b, s.i))
	case c == 't':
		return s.scan(jsonlex.Literal(s.b, s.i, "true"))
	case c == 'f':
		return s.scan(jsonlex.Literal(s.b, s.i, "false"))
	case c == 'n':
		return s.scan(jsonlex.Literal(s.b, s.i, "null"))
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
	name := jsonlex.Unquote(raw)
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
	end, bad := jsonlex.String(s.b, s.i)
	if s.i = end; bad != "" {
		return nil, s.syntax(string(bad))
	}
	return s.b[start:s.i], nil
}

// scan advances past the token scanned by one of jsonlex's functions.
func (s *jsonScanner) scan(end int, bad jsonlex.Err) error {
	if s.i = end; bad != "" {
		return s.syntax(string(bad))
	}
	return nil
}

func (s *jsonScanner) space() { s.i = jsonlex.Space(s.b, s.i) }
