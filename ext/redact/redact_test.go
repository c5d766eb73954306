package redact

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/redact/redacttest"
)

// secrets are what the tests hide: a password with punctuation and a
// token as a hosted API issues them.
var secrets = []string{"Sup3r-S3cret_7f2a9c", "glpat-0123456789abcdefghij"}

// TestComposedForms: a secret inside a longer text, rewritten by any one
// or two encodings one after the other (redacttest.Encodings: reversal,
// hex, base64, %XX, \u, \x, query escaping), then perhaps upper-cased,
// spaced out or truncated, is redacted by a Redactor and by a Matcher,
// and what is around it stays. The check decodes; it shares no code with
// the redaction.
func TestComposedForms(t *testing.T) {
	for _, secret := range secrets {
		r, m := New(secret), NewMatcher(secret)
		checked := 0
		for name, enc := range redacttest.Composed("key=" + secret + "; more") {
			for how, form := range map[string]string{"": enc, ", upper case": strings.ToUpper(enc),
				", spaced out": strings.Join(strings.Split(enc, ""), " "), ", truncated": enc[:len(enc)-5]} {
				in := "before " + form + " after"
				if len(redacttest.Leaks(in, secret)) == 0 {
					if how == "" {
						t.Errorf("%s: the check finds nothing in %q: it cannot fail", name, in)
					}
					continue // an upper-cased base64 holds no secret
				}
				checked++
				for what, got := range map[string]string{"Redactor": r.Replace(in), "Matcher": m.Replace(in)} {
					leaks := redacttest.Leaks(got, secret)
					if len(leaks) > 0 || !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") {
						t.Errorf("%s %s%s:\nin  %q\ngot %q, leaking %v", what, name, how, in, got, leaks)
					}
				}
			}
		}
		if want := 3 * len(redacttest.Encodings) * len(redacttest.Encodings); checked < want {
			t.Errorf("%d forms checked, want at least %d", checked, want)
		}
	}
}

// TestListedForms: the forms the review named, each whole, become one
// Redacted: every byte %XX-escaped, reversed then hex; and base64 of
// reversed and base64 of base64, whose last characters and padding depend
// on what follows them, keep at most those, which hold no piece of it.
func TestListedForms(t *testing.T) {
	secret := secrets[0]
	rev := []byte(reverseString(secret))
	pct := ""
	for _, c := range []byte(secret) {
		pct += fmt.Sprintf("%%%02X", c)
	}
	m := NewMatcher(secret)
	for name, form := range map[string]string{"%XX": pct, "hex of reversed": hex.EncodeToString(rev)} {
		if got, want := m.Replace("x "+form+" y"), "x "+Redacted+" y"; got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	b64 := base64.StdEncoding.EncodeToString
	for name, form := range map[string]string{"base64 of reversed": b64(rev), "base64 of base64": b64([]byte(b64([]byte(secret))))} {
		got := m.Replace("x " + form + " y")
		rest, ok := strings.CutPrefix(got, "x "+Redacted)
		if !ok || len(rest) > len(" y")+8 || !strings.HasSuffix(rest, " y") || len(redacttest.Leaks(got, secret)) > 0 {
			t.Errorf("%s: got %q, want x %s, at most 8 characters holding nothing of it, and y", name, got, Redacted)
		}
	}
}

func reverseString(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// TestResidue: what the package doc says is not found stays found by the
// check after redaction — if one of these is redacted one day, the doc
// (and the READMEs that quote it) must say so.
func TestResidue(t *testing.T) {
	secret := secrets[1]
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	rot13 := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case 'A' <= r && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, secret)
	r := New(secret)
	for name, in := range map[string]string{
		"base32":                      base32.StdEncoding.EncodeToString([]byte(secret)),
		"ROT13":                       rot13,
		"three encodings":             b64(b64(b64(secret))),
		"dots between the characters": strings.Join(strings.Split(secret, ""), "."),
		"pieces of 7 bytes":           secret[:7] + " … " + secret[len(secret)-7:],
	} {
		if got := r.Replace(in); got != in {
			t.Errorf("%s: got %q, want it unchanged (the package doc lists it as not found)", name, got)
		}
	}
	if got := r.Replace(rot13); strings.Contains(got, Redacted) {
		t.Errorf("ROT13 was redacted: %q", got)
	}
}

// TestNothingElseRedacted: text that holds no secret (prose, numbers,
// hex and base64 of other bytes, escaped text, pieces of the secret
// shorter than MinFormLen) passes unchanged.
func TestNothingElseRedacted(t *testing.T) {
	r := New(secrets...)
	rng := rand.New(rand.NewPCG(1, 2))
	clean := []string{
		"Merge request !42 opened by someone: fix the parser.",
		"nothing here: aGVsbG8gd29ybGQ= 68656c6c6f %48%65%6C%6C%6F \\u0048\\u0065\\u006c\\u006c\\u006f",
		"Sup3r-S alone is too short", strings.Repeat("Sup3r-S", 3), "glpat-0 and 3456789abcd",
		"9007199254740993 3.14159265358979 0x7fffffffffffffff",
	}
	for range 2000 {
		b := make([]byte, 48)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		clean = append(clean, hex.EncodeToString(b), base64.StdEncoding.EncodeToString(b), fmt.Sprintf("%q", b))
	}
	for _, s := range clean {
		if got := r.Replace(s); got != s {
			t.Errorf("Replace(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestSpellings: a Redactor replaces values of MinLen bytes or more as
// spelled (as is, Go- and JSON-quoted, URL-escaped), the longest first;
// a nil Redactor and one of short values replace nothing.
func TestSpellings(t *testing.T) {
	r := New(`k e"y&/é`, "literal-token", "on")
	for in, want := range map[string]string{
		`Post "https://h.example/mcp?key=k e\"y&/é": EOF`:  `Post "https://h.example/mcp?key=` + Redacted + `": EOF`,
		`key=k+e%22y%26%2F%C3%A9 path k%20e%22y&%2F%C3%A9`: `key=` + Redacted + ` path ` + Redacted,
		`{"msg":"k e\"y\u0026/é"} and "k e\"y&/\u00e9"`:    `{"msg":"` + Redacted + `"} and "` + Redacted + `"`,
		"header literal-token, exit status 1 on":           "header " + Redacted + ", exit status 1 on",
	} {
		if got := r.Replace(in); got != want {
			t.Errorf("Replace(%s):\ngot  %s\nwant %s", in, got, want)
		}
	}
	if New("on", "abc") != nil || NewMatcher("short") != nil {
		t.Error("values shorter than MinLen (MinFormLen for a Matcher) give a Redactor")
	}
	var none *Redactor
	if got := none.Replace("literal-token"); got != "literal-token" {
		t.Errorf("a nil Redactor replaced: %q", got)
	}
}

// TestReplaceJSON: a JSON value keeps its bytes unless a string in it
// holds a secret, which is redacted in whatever escaping and form.
func TestReplaceJSON(t *testing.T) {
	secret := secrets[0]
	m := NewMatcher(secret)
	b64 := base64.StdEncoding.EncodeToString([]byte(secret))
	for in, want := range map[string]string{
		`{"z":1, "a":[9007199254740993,"debug"]}`:                                    `{"z":1, "a":[9007199254740993,"debug"]}`,
		`{"text":"key ` + secret + ` ok","n":1.50}`:                                  `{"text":"key [redacted] ok","n":1.50}`,
		`{"t":"\u0053up3r-S3cret_7f2a9c\n<b>"}`:                                      `{"t":"[redacted]\n\u003cb\u003e"}`,
		`{"` + strings.ToUpper(secret) + `":true}`:                                   `{"[redacted]":true}`,
		`["` + hex.EncodeToString([]byte(b64)) + `"]`:                                `["[redacted]773d3d"]`, // hex of "w==", which depends on what follows
		`["` + strings.ReplaceAll(redacttest.Encode(`\u`, secret), `\`, `\\`) + `"]`: `["[redacted]"]`,       // \u escapes as text
	} {
		if got := string(m.ReplaceJSON([]byte(in))); got != want {
			t.Errorf("ReplaceJSON(%s):\ngot  %s\nwant %s", in, got, want)
		}
	}
}

// FuzzReplace: whatever surrounds a secret, it does not come out, and
// what comes out holds no form left to redact.
func FuzzReplace(f *testing.F) {
	for _, s := range []string{"", "x", "before ", "%53%75", "\\u0053", "aGVsbG8="} {
		f.Add(s, " after")
	}
	r := New(secrets[0])
	f.Fuzz(func(t *testing.T, before, after string) {
		if got := r.Replace(before + secrets[0] + after); strings.Contains(got, secrets[0]) {
			t.Errorf("Replace(%q + secret + %q) = %q", before, after, got)
		}
		once := r.Replace(before + after)
		if twice := r.Replace(once); twice != once {
			t.Errorf("Replace(%q) = %q, which Replace changes again: %q", before+after, once, twice)
		}
	})
}

// FuzzReplaceJSON: a valid JSON value stays valid, and a secret in any of
// its strings does not come out.
func FuzzReplaceJSON(f *testing.F) {
	for _, s := range []string{`{"a":"x"}`, `["\u0053up3r-S3cret_7f2a9c"]`, `"` + secrets[0] + `"`, `{"` + secrets[0] + `":[1,2.5e3,null]}`} {
		f.Add(s)
	}
	m := NewMatcher(secrets[0])
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) {
			return
		}
		out := m.ReplaceJSON([]byte(raw))
		if !json.Valid(out) {
			t.Fatalf("ReplaceJSON(%s) = %s: not JSON", raw, out)
		}
		var v any
		json.Unmarshal(out, &v)
		if b, _ := json.Marshal(v); strings.Contains(string(b), secrets[0]) {
			t.Errorf("ReplaceJSON(%s) = %s: holds the secret", raw, out)
		}
	})
}
