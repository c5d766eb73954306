package ext

import (
	"strings"
	"testing"
)

func TestQuoteShort(t *testing.T) {
	for _, test := range []struct{ in, want string }{
		{"tools/serch", `"tools/serch"`},
		{strings.Repeat("a", MaxEchoBytes), `"` + strings.Repeat("a", MaxEchoBytes) + `"`},
		{strings.Repeat("a", 100), `"` + strings.Repeat("a", MaxEchoBytes) + `"… (100 bytes)`},
		// a cut never splits a character: 63 bytes of a, then é (2 bytes)
		{strings.Repeat("a", 63) + "éé", `"` + strings.Repeat("a", 63) + `"… (67 bytes)`},
	} {
		if got := QuoteShort(test.in); got != test.want {
			t.Errorf("QuoteShort(%q) = %s, want %s", test.in, got, test.want)
		}
	}
}

func TestEdits(t *testing.T) {
	for _, test := range []struct {
		a, b string
		want int
	}{
		{"open", "open", 0}, {"opne", "open", 1}, {"tools/serch", "tools/search", 1},
		{"githb", "github", 1}, {"", "abc", 3}, {"café", "cafe", 1}, {"kitten", "sitting", 3},
	} {
		if got := Edits(test.a, test.b); got != test.want {
			t.Errorf("Edits(%q, %q) = %d, want %d", test.a, test.b, got, test.want)
		}
	}
}
