package upstream

import (
	"bytes"
	"encoding/json"
)

// RedactResult returns raw, a JSON value an upstream answered, with the
// secrets of cfg removed from every string in it (member names too): the
// value of each ${VAR} reference and each header value that holds one,
// when at least 8 bytes long, in every form a formMatcher finds (any
// letter case, spaced out, reversed, hex, base64, URL-escaped, truncated,
// a Basic credential decoded). Strings are matched as JSON decodes them,
// so no escaping hides a value. A string that holds none is left byte
// for byte as it was, and so is all else (numbers, member order, white
// space); a string that does is encoded again with its matches replaced
// by Redacted. raw must be valid JSON (mcp-go has accepted it). Values
// written literally in the catalog are not secrets and are left, as are
// shorter values (a log level, a port), which would garble results.
func (cfg *Config) RedactResult(raw json.RawMessage) json.RawMessage {
	if cfg.redact == nil || cfg.redact.results == nil {
		return raw
	}
	m := cfg.redact.results
	var out []byte // nil until a string changes
	last := 0      // bytes of raw copied to out
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		end := stringEnd(raw, i)
		if redacted, ok := m.redactLiteral(raw[i:end]); ok {
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

// redactLiteral returns lit, a JSON string literal, encoded again with
// its matches redacted, and whether it had any.
func (m *formMatcher) redactLiteral(lit []byte) ([]byte, bool) {
	if len(lit) < minFormLen+2 {
		return nil, false
	}
	body := lit[1 : len(lit)-1]
	escaped := bytes.IndexByte(body, '\\') >= 0
	if !escaped && len(m.candidates(body)) == 0 {
		return nil, false // the usual case, without a copy
	}
	s := string(body)
	if escaped && json.Unmarshal(lit, &s) != nil {
		return nil, false
	}
	r := m.replace(s)
	if r == s {
		return nil, false
	}
	out, err := json.Marshal(r)
	return out, err == nil
}
