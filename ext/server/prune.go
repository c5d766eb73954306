package server

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext/internal/jsonlex"
)

// Decoding into mcp-go's request types without decoding what they ignore.
// decodeAs decodes a lifecycle request into mcp-go's type only to refuse
// what mcp-go would refuse; the server reads almost nothing of it. Before
// decoding, the params are pruned by the type's shape: a member no field
// takes is dropped (encoding/json would skip it), and a value a field of
// type any (or a map or slice of any) takes is replaced by the empty value
// of its JSON kind (decoding a valid value into any cannot fail, and the
// body was checked by scanMessage). What is left is what the decoding can
// fail on, and it costs what those members cost: the bulk of a body in
// capabilities.experimental is never decoded.

// paramsType is the type of the Params field of the request struct *v.
func paramsType(v any) reflect.Type {
	for _, f := range structFields(reflect.TypeOf(v).Elem()) {
		if f.name == "params" {
			return f.typ
		}
	}
	return reflect.TypeFor[any]()
}

// appendPruned appends value, pruned for decoding into a t, to dst.
func appendPruned(dst []byte, t reflect.Type, value []byte) []byte {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == metaType && len(value) > 0 && value[0] == '{' {
		return append(dst, "{}"...) // mcp.Meta decodes any object, into a map of any
	}
	if decodesItself(t) || len(value) == 0 {
		return append(dst, value...)
	}
	switch {
	case t.Kind() == reflect.Interface:
		return append(dst, "null"...)
	case t.Kind() == reflect.Map && value[0] == '{' && t.Elem().Kind() == reflect.Interface:
		return append(dst, "{}"...)
	case t.Kind() == reflect.Slice && value[0] == '[' && t.Elem().Kind() == reflect.Interface:
		return append(dst, "[]"...)
	case t.Kind() == reflect.Struct && value[0] == '{':
		return appendPrunedStruct(dst, t, value)
	case t.Kind() == reflect.Map && value[0] == '{' && t.Key().Kind() == reflect.String:
		return appendPrunedMembers(dst, value, func(string) (reflect.Type, bool) { return t.Elem(), true })
	case t.Kind() == reflect.Slice && value[0] == '[':
		return appendPrunedElements(dst, t.Elem(), value)
	}
	return append(dst, value...) // a scalar, or a value of the wrong kind: its error is mcp-go's
}

// decodesItself reports whether t decodes JSON its own way, so that
// pruning cannot know what it reads.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler)
}

var (
	metaType        = reflect.TypeFor[mcp.Meta]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func appendPrunedStruct(dst []byte, t reflect.Type, obj []byte) []byte {
	fields := structFields(t)
	return appendPrunedMembers(dst, obj, func(name string) (reflect.Type, bool) {
		for _, f := range fields {
			if strings.EqualFold(f.name, name) { // as encoding/json matches names
				return f.typ, true
			}
		}
		return nil, false
	})
}

// appendPrunedMembers appends the members of obj that fieldOf takes, each
// pruned for its type.
func appendPrunedMembers(dst []byte, obj []byte, fieldOf func(name string) (reflect.Type, bool)) []byte {
	dst = append(dst, '{')
	first := len(dst)
	eachMember(obj, func(name, value []byte) bool {
		t, ok := fieldOf(string(name))
		if !ok {
			return true
		}
		if len(dst) > first {
			dst = append(dst, ',')
		}
		quoted, _ := json.Marshal(string(name))
		dst = appendPruned(append(append(dst, quoted...), ':'), t, value)
		return true
	})
	return append(dst, '}')
}

func appendPrunedElements(dst []byte, elem reflect.Type, arr []byte) []byte {
	dst = append(dst, '[')
	first := len(dst)
	for i := jsonlex.Space(arr, 1); i < len(arr) && arr[i] != ']'; i = jsonlex.Space(arr, i) {
		if arr[i] == ',' {
			i = jsonlex.Space(arr, i+1)
		}
		end := skipValue(arr, i)
		if len(dst) > first {
			dst = append(dst, ',')
		}
		dst = appendPruned(dst, elem, arr[i:end])
		i = end
	}
	return append(dst, ']')
}

// structField is a field of a struct as encoding/json sees it: its JSON
// name and its type (the fields of embedded structs included).
type structField struct {
	name string
	typ  reflect.Type
}

func structFields(t reflect.Type) []structField {
	if fields, ok := structFieldsOf.Load(t); ok {
		return fields.([]structField)
	}
	var fields, promoted []structField
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			promoted = append(promoted, structFields(f.Type)...)
		case f.IsExported() && name != "-":
			if name == "" {
				name = f.Name
			}
			fields = append(fields, structField{name, f.Type})
		}
	}
	for _, f := range promoted { // a field of the struct itself hides an embedded one
		if !slices.ContainsFunc(fields, func(g structField) bool { return g.name == f.name }) {
			fields = append(fields, f)
		}
	}
	structFieldsOf.Store(t, fields)
	return fields
}

var structFieldsOf sync.Map // reflect.Type → []structField
