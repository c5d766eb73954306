package server

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
)

// decodeParams decodes raw into a P; malformed params wrap
// ext.ErrInvalidParams. Only the members P has a field for are decoded
// (and, of _meta, the explain option): the others are skipped unread.
func decodeParams[P any](raw json.RawMessage) (*P, error) {
	p := new(P)
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return p, nil
	}
	kept := keepMembers(raw, fieldNames(reflect.TypeFor[P]()), ext.MetaExplain)
	if err := json.Unmarshal(kept, p); err != nil {
		return nil, fmt.Errorf("%w: %s", ext.ErrInvalidParams, describeJSONError(err))
	}
	return p, nil
}

// fieldNames are the JSON names of the fields of the struct type t.
func fieldNames(t reflect.Type) []string {
	if names, ok := fieldNamesOf.Load(t); ok {
		return names.([]string)
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			names = append(names, fieldNames(f.Type)...)
			continue
		}
		if f.IsExported() && name != "-" {
			names = append(names, cmp.Or(name, f.Name))
		}
	}
	fieldNamesOf.Store(t, names)
	return names
}

var fieldNamesOf sync.Map // reflect.Type → []string

// describeJSONError names the field a type error is about, without echoing
// the input.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", te.Field, jsonTypeName(te.Type.Kind().String()), te.Value)
		}
		return fmt.Sprintf("params must be an object, not %s", te.Value)
	}
	return "params are not a valid JSON object"
}

func jsonTypeName(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64":
		return "an integer"
	case "float64":
		return "a number"
	case "slice":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	case "bool":
		return "a boolean"
	}
	return goKind
}

// decodeSearchParams decodes the params of a */search request, refusing a
// member the extension does not define, in params or in its filter, and
// (before decoding them) more annotations than a filter may name.
func decodeSearchParams(raw json.RawMessage) (*SearchParams, error) {
	if err := annotationsCount(raw); err != nil {
		return nil, err
	}
	p, err := decodeParams[SearchParams](raw)
	if err != nil {
		return nil, err
	}
	if err := unknownMember("params", memberNames(raw), searchParamsMembers); err != nil {
		return nil, err
	}
	if err := unknownMember("filter", memberNames(memberValue(raw, "filter")), filterMembers); err != nil {
		return nil, err
	}
	return p, nil
}

// unknownMember refuses the first member name (in name order) that is not
// one of known.
func unknownMember(where string, names, known []string) error {
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(known, name) {
			return fmt.Errorf("%w: unknown field %s in %s (known: %s)", ext.ErrInvalidParams, ext.QuoteShort(name), where, strings.Join(known, ", "))
		}
	}
	return nil
}

// Integer is an integer parameter. Any JSON spelling of an integer is one
// (10, 10.0, 1e1); a number with a fractional part, or another type, is
// refused with -32602 naming the field. Integers beyond int64 are held as
// its bounds, and the literal is kept for messages.
type Integer struct {
	value   int64
	literal string
}

func (n *Integer) UnmarshalJSON(b []byte) error {
	lit := string(b)
	if c := lit[0]; c != '-' && (c < '0' || c > '9') {
		kind := strings.Fields(jsonKind(b))
		return &json.UnmarshalTypeError{Value: kind[len(kind)-1], Type: integerType}
	}
	if !isIntegral(lit) {
		return &json.UnmarshalTypeError{Value: "number " + lit, Type: integerType}
	}
	n.literal = lit
	if v, err := strconv.ParseInt(lit, 10, 64); err == nil {
		n.value = v
		return nil
	}
	switch f, _ := strconv.ParseFloat(lit, 64); { // ±Inf past float64
	case f >= math.MaxInt64:
		n.value = math.MaxInt64
	case f <= math.MinInt64:
		n.value = math.MinInt64
	default:
		n.value = int64(f)
	}
	return nil
}

var integerType = reflect.TypeFor[int64]()

// String is the integer as the client spelled it.
func (n Integer) String() string { return n.literal }

// explainRequested reads the explain option from a request's _meta. A value
// other than a boolean wraps ext.ErrInvalidParams.
func explainRequested(meta map[string]json.RawMessage) (bool, error) {
	raw, ok := meta[ext.MetaExplain]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	var on bool
	if err := json.Unmarshal(raw, &on); err != nil {
		return false, fmt.Errorf("%w: _meta[%q] must be a boolean", ext.ErrInvalidParams, ext.MetaExplain)
	}
	return on, nil
}
