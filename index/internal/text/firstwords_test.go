package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFirstWords: a text is cut after its most-th word, where each part
// of an identifier and each Chinese or Japanese character is a word.
func TestFirstWords(t *testing.T) {
	for _, test := range []struct {
		text string
		most int
		want string
	}{
		{"list my open pull requests", 3, "list my open "},
		{"list my open pull requests", 5, "list my open pull requests"},
		{"getUrlListOfRepos", 2, "getUrl"},
		{"get_url_list of repos", 4, "get_url_list of "},
		{"HTTPServerConfig now", 2, "HTTPServer"},
		{"s3Bucket ec2 2fa", 3, "s3Bucket ec2 "},
		{"创建会议 tomorrow", 3, "创建会"},
		{"スクリーンショット", 2, "スク"},
		{"don't, won’t stop", 2, "don't, won’t "},
		{"'quoted' words", 1, "'quoted' "},
		{"  ", 0, "  "},
		{"one", 0, ""},
	} {
		if got := FirstWords(test.text, test.most); got != test.want {
			t.Errorf("FirstWords(%q, %d) = %q, want %q", test.text, test.most, got, test.want)
		}
	}
}

// TestFirstWordsOfALongIdentifier: an identifier of 700 parts is read to
// its 128th, and what is read is valid text, a prefix of the identifier.
func TestFirstWordsOfALongIdentifier(t *testing.T) {
	id := strings.Repeat("DeltePoject", 350)
	got := FirstWords(id, 128)
	if want := strings.Repeat("DeltePoject", 64); got != want {
		t.Errorf("got %d bytes (%q…), want %d", len(got), got[:min(len(got), 40)], len(want))
	}
	if n := len(SplitName(got)); n != 128 {
		t.Errorf("got %d parts, want 128", n)
	}
}

// FuzzFirstWords: what FirstWords keeps is a prefix of the text, valid
// UTF-8 where the text is, the whole text when it has no more words than
// most, and holds no more terms than most words make (each at most one
// term, and each identifier its whole).
func FuzzFirstWords(f *testing.F) {
	for _, s := range []string{"getUrlList of_repos", "创建会议 tomorrow", "don't stop", "\xff\xfeAbC", "a-b.c/d:e_f", "ＡｂＣ"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, most int) {
		most = min(max(most, 0), 200)
		got := FirstWords(s, most)
		if !strings.HasPrefix(s, got) {
			t.Fatalf("FirstWords(%q, %d) = %q: not a prefix", s, most, got)
		}
		if got != s && FirstWords(got, most) != got {
			t.Fatalf("FirstWords(%q, %d) = %q, which it cuts again", s, most, got)
		}
		if !utf8.ValidString(s) {
			return // a query is JSON text, valid UTF-8; the analyser reads invalid bytes its own way
		}
		if !utf8.ValidString(got) {
			t.Fatalf("FirstWords(%q, %d) = %q: invalid UTF-8", s, most, got)
		}
		if n := len(Tokens(Normalize(got, len(got)))); got != s && n > 2*most+2 {
			t.Fatalf("FirstWords(%q, %d) = %q: %d terms", s, most, got, n)
		}
	})
}
