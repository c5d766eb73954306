package text

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"read a ﬁle":  "read a file", // the fi ligature of PDF text
		"ｒｅａｄ ａ ｆｉｌｅ": "read a file", // full-width letters
		"ﾌｧｲﾙを削除":     "ファイルを削除",     // half-width katakana
		"plain text":  "plain text",
	} {
		if got := Normalize(in, 4096); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	// U+FDFA expands to 18 characters (33 bytes): past the bound, the
	// text is kept as it is
	long := strings.Repeat("\uFDFA", 1000) // 3,000 bytes
	if got := Normalize(long, 4096); got != long {
		t.Errorf("an expansion past the bound: got %d bytes, want the %d as given", len(got), len(long))
	}
}
