package jsonlex

import (
	"testing"
)

// TestScans: each scan ends past its token, or says what is wrong where
// it stopped.
func TestScans(t *testing.T) {
	for _, test := range []struct {
		name string
		scan func([]byte, int) (int, Err)
		text string
		end  int
		err  Err
	}{
		{"string", String, `"a\"b" x`, 6, ""},
		{"string", String, `"\u00e9"`, 8, ""},
		{"string", String, `"a`, 2, "unterminated string"},
		{"string", String, `"a\`, 2, "unterminated string"},
		{"string", String, "\"a\x01\"", 2, "control character in a string"},
		{"string", String, `"\q"`, 1, "bad escape"},
		{"string", String, `"\u12g4"`, 1, "bad \\u escape"},
		{"number", Number, `-12.5e+3,`, 8, ""},
		{"number", Number, `0]`, 1, ""},
		{"number", Number, `-`, 1, "bad number"},
		{"number", Number, `1.`, 2, "bad number"},
		{"number", Number, `1e`, 2, "bad number"},
		{"true", func(b []byte, i int) (int, Err) { return Literal(b, i, "true") }, `true}`, 4, ""},
		{"null", func(b []byte, i int) (int, Err) { return Literal(b, i, "null") }, `nul`, 0, "bad literal"},
	} {
		if end, err := test.scan([]byte(test.text), 0); end != test.end || err != test.err {
			t.Errorf("%s %q: got %d %q, want %d %q", test.name, test.text, end, err, test.end, test.err)
		}
	}
	if got := Space([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("Space: %d, want 5", got)
	}
}

// TestUnquote: a name decodes as encoding/json decodes it.
func TestUnquote(t *testing.T) {
	for quoted, want := range map[string]string{`"name"`: "name", `"\u0061b"`: "ab", `"a\"b"`: `a"b`, "\"\xff\"": "\ufffd"} {
		if got := string(Unquote([]byte(quoted))); got != want {
			t.Errorf("Unquote(%s) = %q, want %q", quoted, got, want)
		}
	}
}
