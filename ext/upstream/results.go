package upstream

import (
	"encoding/json"
)

// RedactResult returns raw, a JSON value an upstream answered, with the
// secrets of cfg removed from every string in it (member names too): the
// value of each ${VAR} reference and each header value that holds one,
// when at least 8 bytes long, in every form a redact.Matcher finds (any
// letter case, spaced out, truncated, a Basic credential decoded, and
// rewritten by up to two of reversal, hex, base64, %XX, \u and \x escapes
// and URL escaping). Strings are matched as JSON decodes them, so no
// escaping hides a value. A string that holds none is left byte for byte
// as it was, and so is all else (numbers, member order, white space); a
// string that does is encoded again with its matches replaced by
// Redacted. raw must be valid JSON (mcp-go has accepted it). Values
// written literally in the catalog are not secrets and are left, as are
// shorter values (a log level, a port), which would garble results.
func (cfg *Config) RedactResult(raw json.RawMessage) json.RawMessage {
	if cfg.redact == nil {
		return raw
	}
	return cfg.redact.results.ReplaceJSON(raw)
}
