package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchBytes is the size of the forwarded results measured.
const benchBytes = 1 << 20

// BenchmarkReplaceJSON: what redacting a 1 MiB result costs, beside
// json.Valid (one pass, a yardstick), for one long text and for many
// short strings: holding no secret (the usual case), one per 64 KiB,
// every string a secret, and (the worst an upstream can make it cost) a
// text made of nothing but the end pieces of every form, each of which
// starts a match. The matcher before compositions (commit 79bc9fd) is
// measured by running this benchmark's cases against that commit's
// ext/upstream (functions/search/README.md has both).
//
//	go test ./ext/redact -run XXX -bench ReplaceJSON -benchmem
func BenchmarkReplaceJSON(b *testing.B) {
	m := NewMatcher(secrets...)
	for _, c := range []struct {
		name string
		raw  json.RawMessage
	}{
		{"long/clean", longResult(0)}, {"long/secrets", longResult(64 << 10)},
		{"many/clean", manyResult(0)}, {"many/secrets", manyResult(64 << 10)}, {"many/all-secrets", manyResult(1)},
		{"long/all-pieces", piecesResult(m)},
	} {
		b.Run(c.name+"/new", func(b *testing.B) {
			b.SetBytes(int64(len(c.raw)))
			for b.Loop() {
				m.ReplaceJSON(c.raw)
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

// BenchmarkNewMatcher: what making the matcher of two credentials costs
// (the gateway keeps the last ones it made).
func BenchmarkNewMatcher(b *testing.B) {
	for b.Loop() {
		NewMatcher(secrets...)
	}
}

// longResult is a tool result of one text of benchBytes, a secret every
// `every` bytes (0: none).
func longResult(every int) json.RawMessage {
	var sb strings.Builder
	for sb.Len() < benchBytes-100 {
		sb.WriteString("Merge request !42 opened by someone: fix the parser. ")
		if every > 0 && sb.Len()%every < 60 {
			sb.WriteString(secrets[0])
		}
	}
	out, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": sb.String()}}})
	return out
}

// manyResult is a structured result of strings of 19 bytes, one a secret
// every `every` bytes (1: all).
func manyResult(every int) json.RawMessage {
	var items []string
	for n := 0; n < benchBytes-100; n += 22 {
		s := "item-" + strings.Repeat("x", 14)
		if every > 0 && n%every < 22 {
			s = secrets[0]
		}
		items = append(items, s)
	}
	out, _ := json.Marshal(map[string]any{"structuredContent": map[string]any{"items": items}})
	return out
}

// piecesResult is a text of benchBytes made of the first and last
// MinFormLen bytes of every form of m, over and over.
func piecesResult(m *Matcher) json.RawMessage {
	var sb strings.Builder
	for sb.Len() < benchBytes-100 {
		for _, f := range m.forms {
			sb.Write(f.text[:MinFormLen])
			sb.Write(f.text[len(f.text)-MinFormLen:])
		}
	}
	out, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": sb.String()[:benchBytes-100]}}})
	return out
}
