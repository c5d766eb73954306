package upstream

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// TestRedactForms: a value an upstream repeats upper-cased, base64 or hex
// encoded, truncated, reversed, spaced out, rewritten by two encodings in
// a row (base64 of base64, hex of reversed, %XX of \u escapes …: every
// pair of upstreamtest.Transformed), or (a Basic credential) decoded,
// inside a longer text, is redacted; what is around it stays.
func TestRedactForms(t *testing.T) {
	credential := base64.StdEncoding.EncodeToString([]byte("deploy:" + secret))
	basic := "Basic " + credential
	cfg := &Config{Upstream: catalog.Upstream{URL: "https://h.example/mcp?key=${SECRET}", Headers: map[string]string{"Authorization": "${BASIC}"}}}
	live, err := cfg.Expand(env(map[string]string{"SECRET": secret, "BASIC": basic}))
	if err != nil {
		t.Fatal(err)
	}
	for _, echo := range []string{"I hold key=" + secret + " and more", "Authorization: " + basic} {
		for _, form := range upstreamtest.Transformed(echo) {
			in := "before " + form + " after"
			got := live.Redact(in)
			leaks := append(upstreamtest.Leaks(got, secret), upstreamtest.Leaks(got, credential)...)
			if len(leaks) > 0 || !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") {
				t.Errorf("Redact(%q):\ngot %q, leaking %v", in, got, leaks)
			}
			if len(upstreamtest.Leaks(in, secret)) == 0 && len(upstreamtest.Leaks(in, credential)) == 0 {
				t.Errorf("the check finds nothing in %q: it cannot fail", in)
			}
		}
	}
	for in, want := range map[string]string{
		secret:                          Redacted,
		secret + secret + " x":          Redacted + Redacted + " x",
		"a " + secret + "\n\t" + secret: "a " + Redacted + "\n\t" + Redacted,
		"S u p 3 r -\nS3cret_7f2a9c!":   Redacted + "!",
		"é" + strings.ToLower(secret):   "é" + Redacted,
	} {
		if got := live.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	for _, clean := range []string{"Sup3r-S alone is too short", "nothing here: aGVsbG8gd29ybGQ= 68656c6c6f", strings.Repeat("Sup3r-S", 3)} {
		if got := live.Redact(clean); got != clean {
			t.Errorf("Redact(%q) = %q, want it unchanged", clean, got)
		}
	}
}

// TestRedactResult: a result keeps its bytes unless a string in it holds
// a secret, which is redacted in whatever escaping; numbers, member order
// and white space stay; values written literally and short values are no
// secrets.
func TestRedactResult(t *testing.T) {
	cfg := &Config{Upstream: catalog.Upstream{URL: "https://h.example/mcp?key=${SECRET}&level=${LEVEL}", Headers: map[string]string{"Authorization": "Bearer ${SECRET}", "X-Static": "literal-value-9"}}}
	live, err := cfg.Expand(env(map[string]string{"SECRET": secret, "LEVEL": "debug"}))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		`{"z":1, "a":[9007199254740993,"debug","literal-value-9"]}`: `{"z":1, "a":[9007199254740993,"debug","literal-value-9"]}`,
		`{"text":"key ` + secret + ` ok","n":1.50}`:                 `{"text":"key [redacted] ok","n":1.50}`,
		`{"t":"\u0053up3r-S3cret_7f2a9c\n<b>"}`:                     `{"t":"[redacted]\n\u003cb\u003e"}`,
		`{"` + strings.ToUpper(secret) + `":true}`:                  `{"[redacted]":true}`,
		`{"auth":"Bearer ` + secret + `"}`:                          `{"auth":"[redacted]"}`,
	} {
		if got := string(live.RedactResult(json.RawMessage(in))); got != want {
			t.Errorf("RedactResult(%s):\ngot  %s\nwant %s", in, got, want)
		}
	}
}

// TestRedactResultForms: a forwarded result whose text, structured
// content or member name holds a secret in any form of
// upstreamtest.Transformed (among them every byte %XX-escaped, hex of
// reversed, base64 of reversed, base64 of base64, and the other pairs of
// redacttest's encodings), JSON-escaped or not, passes on with no piece
// of it; its other strings stay.
func TestRedactResultForms(t *testing.T) {
	cfg := &Config{Upstream: catalog.Upstream{URL: "https://h.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${SECRET}"}}}
	live, err := cfg.Expand(env(map[string]string{"SECRET": secret}))
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range upstreamtest.Transformed("the key is " + secret + ", keep it") {
		in, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": "said: " + form}},
			"structuredContent": map[string]any{form: []string{form, "other"}}})
		if len(upstreamtest.Leaks(string(in), secret)) == 0 && len(upstreamtest.Leaks(form, secret)) == 0 {
			t.Errorf("the check finds nothing in %q: it cannot fail", form)
		}
		out := live.RedactResult(in)
		var strs []string
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				strs = append(strs, v)
			case []any:
				for _, e := range v {
					walk(e)
				}
			case map[string]any:
				for k, e := range v {
					strs = append(strs, k)
					walk(e)
				}
			}
		}
		var decoded any
		if err := json.Unmarshal(out, &decoded); err != nil {
			t.Fatalf("RedactResult(%s) = %s: %v", in, out, err)
		}
		walk(decoded)
		for _, s := range strs {
			if leaks := upstreamtest.Leaks(s, secret); len(leaks) > 0 {
				t.Errorf("form %.60q: %q leaks %v", form, s, leaks)
			}
		}
		if !strings.Contains(string(out), `"other"`) || !strings.Contains(string(out), `"said: `) {
			t.Errorf("RedactResult(%s) = %s: the other strings changed", in, out)
		}
	}
}

// BenchmarkRedactResult: what redacting a result costs, at the size limit
// (3 MB), for one long text and for many short strings, holding no secret
// (the usual case: the bytes pass as they are), holding one per 64 KiB,
// and (the worst an upstream can make it cost) every string a secret;
// beside each, json.Valid over the same bytes as a yardstick of one pass.
func BenchmarkRedactResult(b *testing.B) {
	cfg := &Config{Upstream: catalog.Upstream{URL: "https://h.example/mcp?key=${SECRET}", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}}}
	live, err := cfg.Expand(env(map[string]string{"SECRET": secret, "TOKEN": "glpat-0123456789abcdefghij"}))
	if err != nil {
		b.Fatal(err)
	}
	text := func(every int) string {
		var sb strings.Builder
		for sb.Len() < DefaultMaxResultBytes-100 {
			sb.WriteString("Merge request !42 opened by someone: fix the parser. ")
			if every > 0 && sb.Len()%every < 60 {
				sb.WriteString(secret)
			}
		}
		return sb.String()
	}
	many := func(every int) json.RawMessage {
		var items []string
		for n := 0; n < DefaultMaxResultBytes-100; n += 24 {
			s := "item-" + strings.Repeat("x", 14)
			if every > 0 && n%every < 24 {
				s = secret
			}
			items = append(items, s)
		}
		out, _ := json.Marshal(map[string]any{"structuredContent": map[string]any{"items": items}})
		return out
	}
	long := func(every int) json.RawMessage {
		out, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text(every)}}})
		return out
	}
	for _, c := range []struct {
		name string
		raw  json.RawMessage
	}{
		{"long/clean", long(0)}, {"long/secrets", long(64 << 10)}, {"many/clean", many(0)}, {"many/secrets", many(64 << 10)},
		{"many/all-secrets", many(1)}, // each string a secret: the worst an upstream can make it cost
	} {
		b.Run(c.name+"/redact", func(b *testing.B) {
			b.SetBytes(int64(len(c.raw)))
			for b.Loop() {
				live.RedactResult(c.raw)
			}
		})
		b.Run(c.name+"/json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(c.raw)))
			for b.Loop() {
				json.Valid(c.raw)
			}
		})
	}
}
