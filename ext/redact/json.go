package redact

import (
	"bytes"
	"encoding/json"
)

// ReplaceJSON returns raw, a valid JSON value, with the forms of m removed
// from every string in it (member names too). Strings are matched as JSON
// decodes them, so no escaping hides a value. A string that holds none is
// left byte for byte as it was, and so is all else (numbers, member
// order, white space); a string that does is encoded again with its
// matches replaced by Redacted. raw itself is returned when nothing
// changed.
func (m *Matcher) ReplaceJSON(raw json.RawMessage) json.RawMessage {
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
		if redacted, ok := m.replaceLiteral(raw[i:end]); ok {
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

// stringEnd is the position after the JSON string literal that starts at
// raw[start].
func stringEnd(raw []byte, start int) int {
	for i := start + 1; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(raw)
}

// replaceLiteral returns lit, a JSON string literal, encoded again with
// its matches redacted, and whether it had any.
func (m *Matcher) replaceLiteral(lit []byte) ([]byte, bool) {
	if len(lit) < MinFormLen+2 {
		return nil, false
	}
	body := lit[1 : len(lit)-1]
	escaped := bytes.IndexByte(body, '\\') >= 0
	if !escaped && !mayHold(m, body) {
		return nil, false // the usual case, without a copy
	}
	s := string(body)
	if escaped && json.Unmarshal(lit, &s) != nil {
		return nil, false
	}
	r := m.Replace(s)
	if r == s {
		return nil, false
	}
	out, err := json.Marshal(r)
	return out, err == nil
}
