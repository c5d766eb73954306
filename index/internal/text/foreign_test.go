package text

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestForeignTableSortedAndFolded(t *testing.T) {
	var prev []byte
	for _, line := range bytes.Split(bytes.TrimSpace(foreignLines()), []byte{'\n'}) {
		key, _, ok := bytes.Cut(line, []byte{'\t'})
		if !ok {
			t.Fatalf("line %q has no tab", line)
		}
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			t.Errorf("%q after %q: not sorted or repeated", key, prev)
		}
		if k := string(key); foldWord(k) != k {
			t.Errorf("%q is not folded", k)
		}
		prev = key
	}
}

func TestWithForeignGlosses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"erstelle ein GitHub Issue", "create  GitHub Issue"},
		{"Trag den Kalendereintrag ein", "add  calendar entry "},
		{"affiche l'arborescence du dossier", "show tree  folder"},
		{"Leg einen Bug für den Absturz an", "create  Bug   crash "},
		{"leg day at the den", "leg day at the den"},
		{"für die Woche", "  "},
		{"affiche les dernières factures", "show  last invoices"},
		{"Trag den Zahnarzttermin ein", "add  appointment event "},
		{"die Zahlungsliste", " payment list"},
		{"Jiraで自分に割り当てられたチケットを見せて", "Jira     assigned  ticket issue   show "},
		{"crée une branche", "create  branch"},
		{"reunião amanhã", "meeting "},
		{"GitHubでプルリクエストを作成", "GitHub  pull request   create "},
		{"delete the file", "delete the file"},
		// a word is what the analyser reads as one, letters and digits
		// together: neither half of Buc0et, Datei2 or 2termin is glossed
		{"die Datei2 und Buc0et 2termin", " Datei2  Buc0et 2termin"},
		// an accent typed as a combining mark is dropped as a precomposed one
		{"Datei löschen", "file delete"},
	} {
		if got := WithForeignGlosses(c.in); got != c.want {
			t.Errorf("WithForeignGlosses(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestForeignWords(t *testing.T) {
	got := ForeignWords("Füge eine Zeile hinzu")
	var words []string
	for _, g := range got {
		words = append(words, g.Word+"="+g.English)
	}
	if want := "Füge=add eine= Zeile=row hinzu=add"; strings.Join(words, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(words, " "), want)
	}
}

func TestNearestEnglishWord(t *testing.T) {
	wt, err := WordTable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ typo, want string }{{"wirte", "write"}, {"delte", "delete"}, {"shedule", "schedule"}} {
		if got := wt.Nearest(c.typo, 1, 4); !slices.Contains(got, c.want) {
			t.Errorf("Nearest(%q) = %v, want %q among them", c.typo, got, c.want)
		}
	}
}

// TestForeignGlossesAreNoCommonEnglish: a headword glossed in English that
// is also among the most frequent words of the word vectors' English (Lee,
// a name; the Mets) is marked, glossed only in another language's text.
func TestForeignGlossesAreNoCommonEnglish(t *testing.T) {
	wt, err := WordTable()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(foreignLines()), []byte{'\n'}) {
		key, english, _ := strings.Cut(string(line), "\t")
		if english == "" || strings.HasPrefix(english, contextMark) {
			continue
		}
		if i := wt.Find(key); i >= 0 && wt.FrequencyRank(i) < 3000 {
			t.Errorf("%q (English rank %d) glossed %q unmarked; want %s before its words", key, wt.FrequencyRank(i), english, contextMark)
		}
	}
}

// TestReadsAsForeign: a text reads as another language's from two words
// the table knows as no English (or elided French words), not from one
// borrowed word in an English request.
func TestReadsAsForeign(t *testing.T) {
	for s, want := range map[string]bool{
		"erstelle ein neues issue in github":     true,
		"crea una issue en github sobre el bug":  true,
		"envoie l'invoice à l'équipe":            true,
		"create an issue in github":              false,
		"book a table at the café near the park": false,
		"": false,
	} {
		if got := ReadsAsForeign(s); got != want {
			t.Errorf("ReadsAsForeign(%q) = %v, want %v", s, got, want)
		}
	}
}
