package server

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/internal/jsonlex"
)

// Reading only what a method uses. The body was checked once by
// scanMessage; the functions here walk its params without checking them
// again, so that a method decodes the few members it reads and never the
// rest: a ping whose _meta holds ten thousand values costs a walk over
// their bytes, not their decoding.

// eachMember calls fn with the name (unescaped) and the value (as written)
// of each member of the JSON object obj, in order, until fn returns false.
// obj must have passed scanMessage (as part of a body); anything else is
// walked as far as it looks like an object.
func eachMember(obj []byte, fn func(name, value []byte) bool) {
	i := jsonlex.Space(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i++
	for {
		i = jsonlex.Space(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return
		}
		end := skipValue(obj, i)
		name := jsonlex.Unquote(obj[i:end])
		i = jsonlex.Space(obj, end) + 1 // the colon
		i = jsonlex.Space(obj, i)
		end = skipValue(obj, i)
		if !fn(name, obj[i:end]) {
			return
		}
		i = jsonlex.Space(obj, end) + 1 // the comma or the closing brace
	}
}

// memberValue is the value of obj's member name (exactly so named), or nil.
func memberValue(obj []byte, name string) json.RawMessage {
	var found []byte
	eachMember(obj, func(n, v []byte) bool {
		if string(n) == name {
			found = v
			return false
		}
		return true
	})
	return found
}

// keepMembers returns the object obj with only the members that a Go
// struct with the JSON names names would decode (encoding/json matches
// names in any case) and its _meta, itself cut to the members metaKeys
// (exact names) when it is an object. Decoding the result into such a
// struct gives what decoding obj would, and costs what the kept members
// cost.
func keepMembers(obj json.RawMessage, names []string, metaKeys ...string) json.RawMessage {
	return appendKept(nil, obj, names, metaKeys...)
}

// appendKept appends keepMembers(obj, names, metaKeys...) to dst.
func appendKept(dst []byte, obj json.RawMessage, names []string, metaKeys ...string) []byte {
	if len(bytes.TrimSpace(obj)) == 0 || bytes.TrimSpace(obj)[0] != '{' {
		return append(dst, obj...)
	}
	dst = append(dst, '{')
	first := len(dst)
	eachMember(obj, func(name, value []byte) bool {
		switch {
		case string(name) == "_meta" && value[0] == '{':
			value = keepExact(value, metaKeys)
		case !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, string(name)) }):
			return true
		}
		dst = appendMember(dst, len(dst) > first, name, value)
		return true
	})
	return append(dst, '}')
}

// keepExact returns the object obj with only the members named exactly
// one of names.
func keepExact(obj []byte, names []string) json.RawMessage {
	out := []byte{'{'}
	eachMember(obj, func(name, value []byte) bool {
		if slices.Contains(names, string(name)) {
			out = appendMember(out, len(out) > 1, name, value)
		}
		return true
	})
	return append(out, '}')
}

func appendMember(out []byte, comma bool, name, value []byte) []byte {
	if comma {
		out = append(out, ',')
	}
	quoted, _ := json.Marshal(string(name))
	out = append(out, quoted...)
	out = append(out, ':')
	return append(out, value...)
}

// memberNames are the names of obj's members.
func memberNames(obj []byte) []string {
	var names []string
	eachMember(obj, func(name, _ []byte) bool {
		names = append(names, string(name))
		return true
	})
	return names
}

// skipValue returns the end of the valid JSON value that starts at i.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipContainer(b, i)
	}
	for i < len(b) && !strings.ContainsRune(",]} \t\r\n", rune(b[i])) {
		i++ // a number or a literal
	}
	return i
}

// skipString returns the end of the string that starts at i: the first
// quote after it that no backslash escapes.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b)
		}
		i += q
		escapes := 0
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i + 1
		}
	}
	return i
}

// skipContainer skips an array or object by counting brackets outside
// strings.
func skipContainer(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = skipString(b, i) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return i
}
