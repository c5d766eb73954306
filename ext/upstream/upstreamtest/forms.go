package upstreamtest

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/redact/redacttest"
)

// WrongID is the JSON-RPC id that mode wrongid answers every request
// with.
const WrongID = "not-your-request"

// Transformed returns s as a careless upstream may repeat a credential it
// holds: upper-cased, base64 and hex encoded, truncated (its last five
// bytes cut), reversed, spaced out (a space between any two characters),
// rewritten by one or two of the encodings of redacttest (base64 of
// base64, hex of reversed, every byte %XX-escaped, \u escapes of base64,
// …, in sorted order of their names), and with every HTTP Basic
// credential in it decoded (user:password).
func Transformed(s string) []string {
	runes := []rune(s)
	slices.Reverse(runes)
	out := []string{strings.ToUpper(s), base64.StdEncoding.EncodeToString([]byte(s)), hex.EncodeToString([]byte(s)),
		s[:max(len(s)-5, 0)], string(runes), strings.Join(strings.Split(s, ""), " ")}
	composed := redacttest.Composed(s)
	for _, name := range slices.Sorted(maps.Keys(composed)) {
		out = append(out, composed[name])
	}
	for _, m := range basicRE.FindAllStringSubmatch(s, -1) {
		if dec, err := base64.StdEncoding.DecodeString(m[1]); err == nil {
			out = append(out, "Basic credential of "+string(dec))
		}
	}
	return out
}

var basicRE = regexp.MustCompile(`Basic ([A-Za-z0-9+/]+=*)`)

// leakResult is the result of mode leak: echo in a tool result with
// isError set, as is and in every form, in its text, its structured
// content (also as a member name), and its _meta; each string JSON
// escaped differently.
func leakResult(echo string) string {
	forms := append([]string{echo}, Transformed(echo)...)
	text, _ := json.Marshal("it failed; I was given " + strings.Join(forms, " | "))
	structured, _ := json.Marshal(map[string]any{"given": forms, echo: true})
	return fmt.Sprintf(`{"content":[{"type":"text","text":%s},{"type":"text","text":"%s"}],"structuredContent":%s,"_meta":{"example.com/given":%s},"isError":true}`,
		text, unicodeEscaped(echo), structured, text)
}

// unicodeEscaped is s as the body of a JSON string with every character
// written as a \u escape, as some encoders write text.
func unicodeEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xFFFF {
			b.WriteRune(r) // not used here: the echo is ASCII
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// Leaks names the forms in which text holds secret, or a piece of it of
// at least 10 bytes (at its start or end): "as is" in any letter case,
// with or without white space between characters; "reversed"; "hex";
// "base64" (any run of base64 characters in text, decoded at each
// alignment, with or without padding); and what redacttest.Leaks finds
// behind up to three decodings. JSON escapes are not undone: give it
// decoded text too. It shares no code with the redaction it checks.
func Leaks(text, secret string) []string {
	pieces := []string{secret[:10], secret[len(secret)-10:]}
	squeezed := strings.ToLower(strings.Join(strings.Fields(text), ""))
	reversedText := []rune(squeezed)
	slices.Reverse(reversedText)
	var out []string
	for _, p := range pieces {
		hexed := hex.EncodeToString([]byte(p))
		p = strings.ToLower(p)
		rp := []rune(p)
		slices.Reverse(rp)
		switch {
		case strings.Contains(squeezed, p):
			out = append(out, "as is: "+p)
		case strings.Contains(squeezed, string(rp)):
			out = append(out, "reversed: "+p)
		case strings.Contains(squeezed, hexed):
			out = append(out, "hex: "+p)
		case base64Holds(text, p):
			out = append(out, "base64: "+p)
		}
	}
	if len(out) == 0 {
		out = redacttest.Leaks(text, secret)
	}
	return out
}

var base64RunRE = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}`)

// base64Holds reports whether a base64 run of text decodes, at some
// alignment, to bytes that hold piece (in any letter case).
func base64Holds(text, piece string) bool {
	for _, run := range base64RunRE.FindAllString(text, -1) {
		run = strings.NewReplacer("-", "+", "_", "/").Replace(run)
		for skip := 0; skip < 4 && skip < len(run); skip++ {
			r := run[skip:]
			r = r[:len(r)/4*4]
			if dec, err := base64.StdEncoding.DecodeString(r); err == nil && strings.Contains(strings.ToLower(string(dec)), strings.ToLower(piece)) {
				return true
			}
		}
	}
	return false
}
