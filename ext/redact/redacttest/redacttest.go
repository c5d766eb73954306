// Package redacttest checks redaction from the outside: it writes a
// secret the ways a careless or hostile server may repeat it, and finds a
// secret in text by decoding, not by encoding as package redact does. It
// shares no code with the redaction it checks.
package redacttest

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Encoding is one way to rewrite a text.
type Encoding struct {
	Name   string
	Encode func(string) string
}

// Encodings are the rewritings a redaction must see through, each alone
// and any two one after the other: reversal, hex (lower and upper case),
// base64 (standard with padding, URL without), every byte %XX-escaped
// (upper-case digits), every character \u-escaped as JSON may write it,
// every byte \x-escaped, and URL query escaping.
var Encodings = []Encoding{
	{"reversed", reverse},
	{"hex", func(s string) string { return hex.EncodeToString([]byte(s)) }},
	{"HEX", func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) }},
	{"base64", func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }},
	{"base64url", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }},
	{"%XX", func(s string) string { return each(s, "%%%02X") }},
	{`\u`, func(s string) string {
		var b strings.Builder
		for _, u := range utf16.Encode([]rune(s)) {
			fmt.Fprintf(&b, `\u%04X`, u)
		}
		return b.String()
	}},
	{`\x`, func(s string) string { return each(s, `\x%02x`) }},
	{"query-escaped", url.QueryEscape},
}

// Encode is s rewritten by the Encoding named name.
func Encode(name, s string) string {
	for _, e := range Encodings {
		if e.Name == name {
			return e.Encode(s)
		}
	}
	panic("redacttest: no encoding " + name)
}

// Composed returns s rewritten by each Encoding and by each two of them
// one after the other ("base64 of reversed"), by name.
func Composed(s string) map[string]string {
	out := map[string]string{}
	for _, e := range Encodings {
		out[e.Name] = e.Encode(s)
		for _, then := range Encodings {
			out[then.Name+" of "+e.Name] = then.Encode(e.Encode(s))
		}
	}
	return out
}

// Plain are rewritings that need no decoding: upper case, white space
// between the characters, the last five bytes cut.
func Plain(s string) map[string]string {
	return map[string]string{
		"upper case": strings.ToUpper(s),
		"spaced out": strings.Join(strings.Split(s, ""), " "),
		"truncated":  s[:max(len(s)-5, 0)],
	}
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

func each(s, format string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// Leaks names the ways text holds secret, or a piece of it of at least 10
// bytes at its start or its end, in any letter case: as is, or behind one
// or two of the decodings of Encodings (reversal, hex, base64 at any
// alignment, %XX, \u and \x escapes), white space dropped first. None
// means none of these finds it.
func Leaks(text, secret string) []string {
	pieces := []string{strings.ToLower(secret[:10]), strings.ToLower(secret[len(secret)-10:])}
	var out []string
	seen := map[string]bool{}
	var walk func(t, path string, depth int)
	walk = func(t, path string, depth int) {
		if seen[t] {
			return
		}
		seen[t] = true
		lower := strings.ToLower(t)
		for _, p := range pieces {
			if strings.Contains(lower, p) {
				out = append(out, cmpOr(path, "as is")+": "+p)
				return
			}
		}
		if depth == 0 {
			return
		}
		for _, d := range decoders {
			for _, dec := range d.decode(t) {
				walk(dec, strings.TrimPrefix(path+" after "+d.name, " after "), depth-1)
			}
		}
	}
	walk(strings.Join(strings.Fields(text), ""), "", 3)
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// decoder undoes one encoding wherever it finds a run of it in a text:
// each result is the text with its runs decoded (or reversed whole).
type decoder struct {
	name   string
	decode func(string) []string
}

var (
	hexRunRE    = regexp.MustCompile(`[0-9A-Fa-f]{16,}`)
	base64RunRE = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}`)
)

var decoders = []decoder{
	{"reversal", func(t string) []string { return []string{reverse(t)} }},
	{"hex", func(t string) []string {
		return runs(t, hexRunRE, func(r string) []string {
			var out []string
			for skip := range 2 {
				if dec, err := hex.DecodeString(r[skip : skip+(len(r)-skip)/2*2]); err == nil {
					out = append(out, string(dec))
				}
			}
			return out
		})
	}},
	{"base64", func(t string) []string {
		return runs(t, base64RunRE, func(r string) []string {
			r = strings.NewReplacer("-", "+", "_", "/").Replace(r)
			var out []string
			for skip := range 4 {
				s := r[skip:]
				if dec, err := base64.StdEncoding.DecodeString(s[:len(s)/4*4]); err == nil {
					out = append(out, string(dec))
				}
			}
			return out
		})
	}},
	{"%XX", unescaping(regexp.MustCompile(`%[0-9A-Fa-f]{2}`), 1)},
	{`\u`, unescaping(regexp.MustCompile(`\\u[0-9A-Fa-f]{4}`), 2)},
	{`\x`, unescaping(regexp.MustCompile(`\\x[0-9A-Fa-f]{2}`), 2)},
}

// unescaping decodes every escape of t that re matches: the hex digits
// after its first skip bytes, as one character (a byte for %XX and \x).
func unescaping(re *regexp.Regexp, skip int) func(string) []string {
	return func(t string) []string {
		if !re.MatchString(t) {
			return nil
		}
		return []string{re.ReplaceAllStringFunc(t, func(esc string) string {
			n, _ := strconv.ParseUint(esc[skip:], 16, 32)
			if skip == 2 && esc[1] == 'u' {
				return string(rune(n))
			}
			return string([]byte{byte(n)})
		})}
	}
}

// runs decodes each run of t that re matches, in each way decode gives,
// and returns each decoding of each run standing alone.
func runs(t string, re *regexp.Regexp, decode func(string) []string) []string {
	var out []string
	for _, r := range re.FindAllString(t, 64) {
		out = append(out, decode(r)...)
	}
	return out
}
