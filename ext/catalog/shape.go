package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext/internal/jsonlex"
)

// The shape of a server file's JSON, checked in one pass over its text
// before anything decodes it (checkShape):
//
//   - Arrays and objects nest at most MaxNestingDepth levels in one item
//     (the item's object is level 1) and in each other value of the file:
//     what the catalog serves is parsed again by clients, whose parsers
//     have limits of their own (serde_json stops at 128 levels; an item
//     sits three levels deep in an answer).
//   - No object names a member twice, names compared as they decode: "a"
//     and "\u0061" are one name. JSON readers disagree on which of two
//     members counts (encoding/json takes the last), so a catalog whose
//     item said "io.github.mcpsearch/visibility" twice, once escaped, would
//     be read by one rule and served by another.
//   - The objects the loader decodes into fields (the file, an item, a
//     prompt argument, an inputSchema and its properties, a resource
//     content, the upstream, the serverInfo) spell those fields exactly:
//     encoding/json matches field names regardless of case, so "_Meta" or
//     "NAME" would be read as "_meta" or "name" while clients see another
//     member.

// MaxNestingDepth bounds the nesting of arrays and objects in one item of a
// catalog (its object is level 1) and in each other value of a server
// file: four times the deepest item of the default catalog (25 levels,
// brightdata's search_dataset), and with the three levels of an answer
// around an item (response, result, list) within the 128 levels serde_json,
// a common client parser, reads by default.
const MaxNestingDepth = 100

// readFields are the member names the loader reads by encoding/json's
// case-insensitive matching (Unicode folding: "ſerver" is read as
// "server"), by the place of their object (see fieldsAt).
var readFields = map[string][][]byte{
	"file":        byteNames("server", "package", "license", "source", "upstream", "visibility", "serverInfo", "tools", "prompts", "resources", "resourceTemplates", "resourceContents"),
	"item":        byteNames("name", "title", "description", "inputSchema", "annotations", "arguments", "uri", "uriTemplate", "mimeType", "_meta"),
	"argument":    byteNames("name", "description"),
	"inputSchema": byteNames("type", "properties"),
	"property":    byteNames("description"),
	"content":     byteNames("uri", "mimeType", "text"),
	"upstream":    byteNames("transport", "url", "headers", "command", "args", "env"),
	"serverInfo":  byteNames("name", "description"),
}

func byteNames(list ...string) [][]byte {
	out := make([][]byte, len(list))
	for i, n := range list {
		out[i] = []byte(n)
	}
	return out
}

// step is one step of a path in the file: a member (its decoded name,
// index -1) or an array index.
type step struct {
	name  []byte
	index int
}

func member(name []byte) step { return step{name: name, index: -1} }

func (st step) isMember() bool { return st.index < 0 }

// is reports whether st is the member name.
func (st step) is(name string) bool { return st.isMember() && string(st.name) == name }

// isItemList reports whether st is a member of the file whose elements
// count their depth from 1 (an item, a resource text).
func (st step) isItemList() bool {
	if !st.isMember() {
		return false
	}
	switch string(st.name) {
	case "tools", "prompts", "resources", "resourceTemplates", "resourceContents":
		return true
	}
	return false
}

// shapeError is a shape check's finding at path.
type shapeError struct {
	path []step
	err  error
}

func (e *shapeError) Error() string { return e.err.Error() }

// errNotJSON stops the shape check at text that is not JSON, which
// decodeStrict then reports with its line.
var errNotJSON = errors.New("not valid JSON")

// checkShape checks data, the text of the server file named file, as the
// comment above says, and returns the first finding as a *LoadError naming
// the item and the field. Text that is not JSON is left to decodeStrict
// (errNotJSON).
func checkShape(file string, data []byte) error {
	if err := checkFileSize(int64(len(data))); err != nil {
		return &LoadError{File: file, Err: err}
	}
	s := &shapeScanner{b: data}
	err := s.value()
	if err == nil {
		return nil
	}
	var found *shapeError
	if !errors.As(err, &found) {
		return err
	}
	item, field := placeOf(data, s.itemStart, found.path)
	return &LoadError{File: file, Item: item, Field: field, Err: found.err}
}

// shapeScanner walks JSON text recursively, at most MaxNestingDepth levels
// deep in any value, so its stack is bounded whatever the text holds.
type shapeScanner struct {
	b         []byte
	i         int
	depth     int
	path      []step
	itemStart int // the offset of the item the scanner is in, for its name
	// names holds the member names of the open objects, innermost last,
	// as where their quoted spellings lie in b: 8 bytes a name (a server
	// file is at most MaxFileBytes, and checkShape refuses a longer text).
	names  []span
	sorted nameOrder // repeated's, reused
}

// span is where a quoted name lies in the text.
type span struct{ start, end int32 }

func (s *shapeScanner) value() error {
	s.space()
	if s.i >= len(s.b) {
		return errNotJSON
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		_, err := s.str()
		return err
	default:
		return s.scalar()
	}
}

// enter opens an object or array, refusing one past the limit of its
// place: MaxNestingDepth levels under the file's members, counted from
// each element of an item list.
func (s *shapeScanner) enter() error {
	s.depth++
	limit := MaxNestingDepth + 1 // the file's object, then a member's value
	if len(s.path) > 0 && s.path[0].isItemList() {
		limit++ // the list, then its element
	}
	if s.depth > limit {
		return s.fail(fmt.Errorf("arrays and objects nest deeper than %d levels, the limit (the deepest item of the default catalog has 25)", MaxNestingDepth))
	}
	s.i++
	s.space()
	return nil
}

func (s *shapeScanner) fail(err error) error {
	return &shapeError{path: slices.Clone(s.path), err: err}
}

func (s *shapeScanner) object() error {
	if err := s.enter(); err != nil {
		return err
	}
	first := len(s.names)
	for s.i < len(s.b) && s.b[s.i] != '}' {
		if len(s.names) > first {
			if s.b[s.i] != ',' {
				return errNotJSON
			}
			s.i++
			s.space()
		}
		if err := s.member(); err != nil {
			return err
		}
		s.space()
	}
	if s.i >= len(s.b) {
		return errNotJSON
	}
	s.i++
	s.depth--
	names := s.names[first:]
	defer func() { s.names = s.names[:first] }()
	if name, err := s.uniqueNames(names); err != nil {
		return s.failAt(name, err)
	}
	if name, err := s.exactFields(names, fieldsAt(s.path)); err != nil {
		return s.failAt(name, err)
	}
	return nil
}

// failAt is fail at the member name of the object the scanner just left.
func (s *shapeScanner) failAt(name string, err error) error {
	e := s.fail(err).(*shapeError)
	e.path = append(e.path, member([]byte(name)))
	return e
}

// member scans one "name": value of an object, noting its name.
func (s *shapeScanner) member() error {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return errNotJSON
	}
	start := s.i
	raw, err := s.str()
	if err != nil {
		return err
	}
	name := jsonlex.Unquote(raw)
	s.names = append(s.names, span{int32(start), int32(s.i)})
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return errNotJSON
	}
	s.i++
	s.space()
	s.path = append(s.path, member(name))
	err = s.value()
	s.path = s.path[:len(s.path)-1]
	return err
}

func (s *shapeScanner) array() error {
	if err := s.enter(); err != nil {
		return err
	}
	for n := 0; s.i < len(s.b) && s.b[s.i] != ']'; n++ {
		if n > 0 {
			if s.b[s.i] != ',' {
				return errNotJSON
			}
			s.i++
			s.space()
		}
		if len(s.path) == 1 && s.depth == 2 {
			s.itemStart = s.i
		}
		s.path = append(s.path, step{index: n})
		err := s.value()
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
		s.space()
	}
	if s.i >= len(s.b) {
		return errNotJSON
	}
	s.i++
	s.depth--
	return nil
}

// str scans the string at s.i and returns it as written, quotes included.
func (s *shapeScanner) str() ([]byte, error) {
	start := s.i
	end, bad := jsonlex.String(s.b, s.i)
	if s.i = end; bad != "" {
		return nil, errNotJSON
	}
	return s.b[start:s.i], nil
}

// scalar scans a number or a literal: the bytes up to the next delimiter.
// Their form is decodeStrict's to judge.
func (s *shapeScanner) scalar() error {
	start := s.i
	for s.i < len(s.b) && !endsScalar(s.b[s.i]) {
		s.i++
	}
	if s.i == start {
		return errNotJSON
	}
	return nil
}

func endsScalar(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

func (s *shapeScanner) space() { s.i = jsonlex.Space(s.b, s.i) }

// uniqueNames refuses an object whose member names, as decoded, repeat;
// it returns the name.
func (s *shapeScanner) uniqueNames(names []span) (string, error) {
	a, b, dup := s.repeated(names)
	if !dup {
		return "", nil
	}
	how := ""
	if spa, spb := s.b[a.start:a.end], s.b[b.start:b.end]; !bytes.Equal(spa, spb) {
		how = fmt.Sprintf(", spelt %s and %s", clipName(string(spa)), clipName(string(spb)))
	}
	return string(s.decoded(a)), fmt.Errorf("the member appears twice in its object%s: a catalog names each member once (JSON readers disagree on which one counts)", how)
}

// decoded is the name at sp as it decodes.
func (s *shapeScanner) decoded(sp span) []byte { return jsonlex.Unquote(s.b[sp.start:sp.end]) }

// fewNames is how many names repeated compares pairwise, without sorting.
const fewNames = 8

// repeated returns two of names that decode to the same name, the first
// one first. A large object's names are sorted, those with escapes
// decoded once.
func (s *shapeScanner) repeated(names []span) (span, span, bool) {
	if len(names) <= fewNames {
		for b := 1; b < len(names); b++ {
			for a := range b {
				if bytes.Equal(s.decoded(names[a]), s.decoded(names[b])) {
					return names[a], names[b], true
				}
			}
		}
		return span{}, span{}, false
	}
	o := &s.sorted
	*o = nameOrder{b: s.b, names: names, order: o.order[:0]}
	for i, sp := range names {
		if raw := s.b[sp.start:sp.end]; bytes.IndexByte(raw, '\\') >= 0 {
			if o.escaped == nil {
				o.escaped = map[int32][]byte{}
			}
			o.escaped[int32(i)] = jsonlex.Unquote(raw)
		}
		o.order = append(o.order, int32(i))
	}
	sort.Sort(o)
	for k := 1; k < len(o.order); k++ {
		if a, b := o.order[k-1], o.order[k]; bytes.Equal(o.key(a), o.key(b)) {
			return names[a], names[b], true
		}
	}
	return span{}, span{}, false
}

// nameOrder sorts the names of an object by what they decode to, then by
// their place: repeated's sort, kept in the scanner to be reused.
type nameOrder struct {
	b       []byte
	names   []span
	order   []int32
	escaped map[int32][]byte // the decoded names that hold escapes
}

func (o *nameOrder) key(i int32) []byte {
	if k, ok := o.escaped[i]; ok {
		return k
	}
	return o.b[o.names[i].start+1 : o.names[i].end-1]
}

func (o *nameOrder) Len() int      { return len(o.order) }
func (o *nameOrder) Swap(i, j int) { o.order[i], o.order[j] = o.order[j], o.order[i] }
func (o *nameOrder) Less(i, j int) bool {
	a, b := o.order[i], o.order[j]
	if c := bytes.Compare(o.key(a), o.key(b)); c != 0 {
		return c < 0
	}
	return a < b
}

// exactFields refuses a member name that is one of fields in another case;
// it returns the name.
func (s *shapeScanner) exactFields(names []span, fields [][]byte) (string, error) {
	if len(fields) == 0 {
		return "", nil
	}
	for _, sp := range names {
		n := s.decoded(sp)
		for _, f := range fields {
			if !bytes.Equal(n, f) && bytes.EqualFold(n, f) {
				return string(n), fmt.Errorf("the catalog reads %q here, and names are case-sensitive: spell it so", f)
			}
		}
	}
	return "", nil
}

// fieldsAt returns the fields the loader reads in the object at path.
func fieldsAt(path []step) [][]byte {
	switch {
	case len(path) == 0:
		return readFields["file"]
	case len(path) == 1 && (path[0].is("upstream") || path[0].is("serverInfo")):
		return readFields[string(path[0].name)]
	case len(path) < 2 || !path[0].isItemList() || path[1].isMember():
		return nil
	case path[0].is("resourceContents"):
		if len(path) == 2 {
			return readFields["content"]
		}
	case len(path) == 2:
		return readFields["item"]
	case len(path) == 3 && path[2].is("inputSchema"):
		return readFields["inputSchema"]
	case len(path) == 4 && path[2].is("arguments") && !path[3].isMember():
		return readFields["argument"]
	case len(path) == 5 && path[2].is("inputSchema") && path[3].is("properties"):
		return readFields["property"]
	}
	return nil
}

// maxFieldSteps bounds the steps of a path an error names.
const maxFieldSteps = 8

// placeOf names the place of path in data: the item (with its name, found
// from itemStart) and the field within it, or the file's field.
func placeOf(data []byte, itemStart int, path []step) (item, field string) {
	if len(path) >= 2 && path[0].isItemList() && !path[1].isMember() {
		item = fmt.Sprintf("%s[%d]", path[0].name, path[1].index)
		if name, ok := memberString(data[itemStart:], "name"); ok && !path[0].is("resourceContents") {
			item += " " + clipName(name)
		}
		path = path[2:]
	}
	var b strings.Builder
	for i, st := range path {
		if i == maxFieldSteps {
			b.WriteString("…")
			break
		}
		switch {
		case !st.isMember():
			fmt.Fprintf(&b, "[%d]", st.index)
		case b.Len() > 0:
			b.WriteString("." + fieldName(string(st.name)))
		default:
			b.WriteString(fieldName(string(st.name)))
		}
	}
	return item, b.String()
}

// fieldName is a member name as an error's field path shows it: as it is
// when it is short and plain (letters, digits, _ - . / : $ @), else quoted
// and clipped, since an upstream chose it.
func fieldName(name string) string {
	plain := name != "" && utf8.RuneCountInString(name) <= 64 && strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:$@", r))
	}) < 0
	if plain {
		return name
	}
	return clipName(name)
}

// memberString returns the string value of the member key of the object
// at the start of obj, walking its other members with json.Decoder's
// tokens, which nest without recursion (the object may be deeper than any
// limit, or broken after the member).
func memberString(obj []byte, key string) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	depth, wantKey, current := 1, true, ""
	for depth > 0 {
		t, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			if depth--; depth == 1 {
				wantKey = true
			}
			continue
		}
		if depth != 1 {
			continue
		}
		if wantKey {
			current, wantKey = t.(string), false
			continue
		}
		if s, ok := t.(string); ok && current == key {
			return s, true
		}
		wantKey = true
	}
	return "", false
}
