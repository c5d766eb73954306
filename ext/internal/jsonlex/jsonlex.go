// Package jsonlex scans the lexical parts of JSON text (RFC 8259): white
// space, strings, numbers and literals, and decodes a member name as
// encoding/json does. It is what the two one-pass JSON scanners share —
// ext/server's check of a request body and ext/catalog's check of a server
// file's shape — which walk objects and arrays each by its own rules. It
// imports the standard library only.
//
// Each function takes the text and the offset to start at and returns the
// offset past what it scanned; one that finds no such token returns where
// it stopped and what it expected there (Err, for the caller's message).
package jsonlex

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Err says what a scan found wrong, in words a message can quote.
type Err string

// Space returns the offset of the first byte at or after i that is not
// JSON white space.
func Space(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// String scans the string whose opening quote is at b[i] and returns the
// offset past its closing quote; a control character, a bad escape or no
// closing quote is an Err at the offset it was found.
func String(b []byte, i int) (int, Err) {
	for i++; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			return i + 1, ""
		case c < 0x20:
			return i, "control character in a string"
		case c == '\\':
			n, err := escape(b, i)
			if err != "" {
				return i, err
			}
			i = n
		default:
			i++
		}
	}
	return i, "unterminated string"
}

// escape scans the escape at b[i] ('\\').
func escape(b []byte, i int) (int, Err) {
	if i+1 >= len(b) {
		return i, "unterminated string"
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, ""
	case 'u':
		if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
			return i, "bad \\u escape"
		}
		return i + 6, ""
	}
	return i, "bad escape"
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// Number scans a number as JSON spells it,
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, starting at b[i].
func Number(b []byte, i int) (int, Err) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits(b, &i):
		return i, "bad number"
	}
	if i < len(b) && b[i] == '.' {
		if i++; !digits(b, &i) {
			return i, "bad number"
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits(b, &i) {
			return i, "bad number"
		}
	}
	return i, ""
}

// digits scans one or more digits at *i.
func digits(b []byte, i *int) bool {
	start := *i
	for *i < len(b) && b[*i] >= '0' && b[*i] <= '9' {
		*i++
	}
	return *i > start
}

// Literal scans word ("true", "false" or "null") at b[i].
func Literal(b []byte, i int, word string) (int, Err) {
	if !bytes.HasPrefix(b[i:], []byte(word)) {
		return i, "bad literal"
	}
	return i + len(word), ""
}

// Unquote returns the name a quoted JSON string decodes to, as
// encoding/json decodes it (so that "a" and "\u0061" are one name); a
// name without escapes is its own bytes.
func Unquote(quoted []byte) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner
	}
	var name string
	json.Unmarshal(quoted, &name)
	return []byte(name)
}
