package text

import (
	"strings"
	"testing"
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
