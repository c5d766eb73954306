package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRequestWords: what the other-language glosses and the phrase table
// make of a request never panics, keeps valid UTF-8 valid, and names only
// the caller's own text: each word ForeignWords returns and each word of a
// phrase PhraseWords names is written in it.
func FuzzRequestWords(f *testing.F) {
	for _, s := range []string{
		"erstelle ein GitHub Issue", "GitHubでプルリクエストを作成して", "l’agenda d'aujourd'hui", "qu'est-ce",
		"spin the cluster up", "check it out on a new branch", "send a message saying \"hi\" to #ops", "an image of a cat",
		"«««", "“a”‘b’«c»'d'", "Kalendereintrag Zahnarzttermin Abwesenheitsnotiz", "stand-up to-do -x x-",
		"e\u0301\u200d👩\u200d💻", "İSTANBUL ß Straße", "שלום עולם", "プルリクエスト作成ノート", "\xff\xfe'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, out := range map[string]string{
			"WithForeignGlosses":   WithForeignGlosses(s),
			"WithoutForeignWords":  WithoutForeignWords(s),
			"WithPhraseExpansions": WithPhraseExpansions(s),
			"WithoutPhrases":       WithoutPhrases(s),
		} {
			if utf8.ValidString(s) && !utf8.ValidString(out) {
				t.Fatalf("%s(%q) = %q: invalid UTF-8", name, s, out)
			}
		}
		for _, g := range ForeignWords(s) {
			if g.Word == "" || !strings.Contains(s, g.Word) {
				t.Fatalf("%q: word %q is not written in it", s, g.Word)
			}
		}
		for _, g := range PhraseWords(s) { // a phrase is named by its words, one space apart
			for _, w := range strings.Fields(g.Word) {
				if !strings.Contains(s, w) {
					t.Fatalf("%q: phrase %q names %q, not written in it", s, g.Word, w)
				}
			}
			if g.Word == "" {
				t.Fatalf("%q: a phrase named by nothing", s)
			}
		}
		IsTimeWord(s)
	})
}
