package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// offCatalog2Path is the second, held-out off-catalog set (issue 25, see its
// SOURCE.md): requests no tool of the default catalog does.
const offCatalog2Path = "testdata/offcatalog2/queries.jsonl"

// offCatalog2Request is one line of offcatalog2: a Query without gold, with
// the kind of request it is and, for a near miss, the product the catalog
// lacks (the word a hint should name).
type offCatalog2Request struct {
	QID     string `json:"qid"`
	Query   string `json:"query"`
	Split   string `json:"split"`
	Lang    string `json:"lang"`
	Kind    string `json:"kind"`
	Domain  string `json:"domain"`
	Typo    bool   `json:"typo,omitempty"`
	Missing string `json:"missing,omitempty"`
}

// offCatalog2Kinds are the kinds of request the set holds.
const (
	kindErrand   = "errand"
	kindNearMiss = "near-miss"
	kindLongChat = "long-chat"
)

// offCatalog2Langs are the languages besides English the set spreads over.
var offCatalog2Langs = []string{"de", "es", "fr", "ja", "pt", "zh", "it", "nl", "ko", "ru", "pl"}

var offCatalog2QID = regexp.MustCompile(`^oc2-[0-9]{3}$`)

// loadOffCatalog2 reads the set strictly: every line one object with only
// the known members.
func loadOffCatalog2(t *testing.T) []offCatalog2Request {
	t.Helper()
	data, err := os.ReadFile(offCatalog2Path)
	if err != nil {
		t.Fatal(err)
	}
	var out []offCatalog2Request
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var r offCatalog2Request
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s:%d: %v", offCatalog2Path, i+1, err)
		}
		out = append(out, r)
	}
	return out
}

// checkOffCatalog2Request names what is wrong with one request's members.
func checkOffCatalog2Request(r offCatalog2Request) []string {
	var bad []string
	if !offCatalog2QID.MatchString(r.QID) {
		bad = append(bad, "qid is not oc2-NNN")
	}
	if strings.TrimSpace(r.Query) == "" || r.Domain == "" || r.Lang == "" {
		bad = append(bad, "lacks a text, domain or language")
	}
	if r.Split != "dev" && r.Split != "test" {
		bad = append(bad, fmt.Sprintf("split %q, want dev or test", r.Split))
	}
	switch r.Kind {
	case kindNearMiss:
		if r.Missing == "" || !strings.Contains(strings.ToLower(r.Query), strings.ToLower(r.Missing)) {
			bad = append(bad, fmt.Sprintf("near miss whose missing product %q is not named in its text", r.Missing))
		}
	case kindErrand:
		if r.Missing != "" {
			bad = append(bad, "errand with a missing product")
		}
	case kindLongChat:
		if n := len(strings.Fields(r.Query)); n < 25 || n > 60 {
			bad = append(bad, fmt.Sprintf("long chat of %d words, want 25 to 60", n))
		}
	default:
		bad = append(bad, fmt.Sprintf("kind %q", r.Kind))
	}
	return bad
}

// TestOffCatalog2Format: every line parses with only the known members,
// qids are unique, near misses name their missing product, and the set
// holds the kinds and languages it was written to hold: 100 English
// errands, 70 English near misses, 40 long chats, 30 requests in other
// languages (errands or near misses) spread over eleven languages.
func TestOffCatalog2Format(t *testing.T) {
	qs := loadOffCatalog2(t)
	seen := map[string]bool{}
	byKind := map[string]int{}
	byLang := map[string]int{}
	for _, r := range qs {
		for _, why := range checkOffCatalog2Request(r) {
			t.Errorf("%s: %s", r.QID, why)
		}
		if seen[r.QID] {
			t.Errorf("qid %s twice", r.QID)
		}
		seen[r.QID] = true
		byLang[r.Lang]++
		if r.Lang == "en" {
			byKind[r.Kind]++
		} else if r.Kind == kindLongChat {
			t.Errorf("%s: long chat in %s, want English", r.QID, r.Lang)
		}
	}
	want := map[string]int{kindErrand: 100, kindNearMiss: 70, kindLongChat: 40}
	for kind, n := range want {
		if byKind[kind] != n {
			t.Errorf("%d English %s requests, want %d", byKind[kind], kind, n)
		}
	}
	if other := len(qs) - byLang["en"]; other != 30 {
		t.Errorf("%d requests in other languages than English, want 30", other)
	}
	for _, lang := range offCatalog2Langs {
		if byLang[lang] < 2 {
			t.Errorf("%d requests in %s, want at least 2", byLang[lang], lang)
		}
	}
	if len(byLang) != len(offCatalog2Langs)+1 {
		t.Errorf("languages %v, want English and %v", byLang, offCatalog2Langs)
	}
}

// TestOffCatalog2SplitsBalanced: the dev and test halves differ by at most
// a tenth of the requests (at least one), and so does every kind, language,
// domain and the typos (at least two).
func TestOffCatalog2SplitsBalanced(t *testing.T) {
	counts := map[string]map[string]int{}
	add := func(stratum, split string) {
		if counts[stratum] == nil {
			counts[stratum] = map[string]int{}
		}
		counts[stratum][split]++
	}
	for _, r := range loadOffCatalog2(t) {
		add("all", r.Split)
		add("kind "+r.Kind, r.Split)
		add("lang "+r.Lang, r.Split)
		add("domain "+r.Domain, r.Split)
		if r.Typo {
			add("typo", r.Split)
		}
	}
	for stratum, c := range counts {
		slack := max(2, (c["dev"]+c["test"])/10)
		if stratum == "all" {
			slack = max(1, (c["dev"]+c["test"])/10)
		}
		if d := c["dev"] - c["test"]; d > slack || -d > slack {
			t.Errorf("%s: %d dev, %d test", stratum, c["dev"], c["test"])
		}
	}
}

// TestOffCatalog2Disjoint: no request of offcatalog2 shares a qid or a text
// (case and spacing aside) with a line of any other set in testdata.
func TestOffCatalog2Disjoint(t *testing.T) {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	others, err := filepath.Glob("testdata/*/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	others = append(others, "testdata/negatives.jsonl")
	where := map[string]string{}
	for _, path := range others {
		if filepath.ToSlash(path) == offCatalog2Path {
			continue
		}
		qs := loadSet(t, path)
		if len(qs) == 0 {
			t.Fatalf("%s holds no requests", path)
		}
		for _, q := range qs {
			where["qid "+q.QID] = path
			where["text "+norm(q.Query)] = path
		}
	}
	if len(where) == 0 {
		t.Fatal("no other set found to compare with")
	}
	for _, r := range loadOffCatalog2(t) {
		if path, dup := where["qid "+r.QID]; dup {
			t.Errorf("qid %s is also in %s", r.QID, path)
		}
		if path, dup := where["text "+norm(r.Query)]; dup {
			t.Errorf("%s %q is also in %s", r.QID, r.Query, path)
		}
	}
}

// TestOffCatalog2MissingAbsent: no file of the default catalog (server
// names, tool names, descriptions, schemas, written requests) names a near
// miss's missing product as a word, so the product truly is off-catalog.
func TestOffCatalog2MissingAbsent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(defaultCatalog, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no catalog files in %s: %v", defaultCatalog, err)
	}
	texts := make(map[string]string, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = strings.ToLower(string(data))
	}
	for _, r := range loadOffCatalog2(t) {
		if r.Missing == "" {
			continue
		}
		for name, text := range texts {
			if containsWord(text, strings.ToLower(r.Missing)) {
				t.Errorf("%s: missing product %q is named in the catalog's %s", r.QID, r.Missing, name)
			}
		}
	}
}

// containsWord reports whether word occurs in text with no letter or digit
// right before or after it; a word in a script written without spaces
// (Chinese, Japanese, Korean) counts wherever it occurs.
func containsWord(text, word string) bool {
	spaced := strings.IndexFunc(word, isUnspacedScript) < 0
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(word)
		if !spaced || (!wordRuneBefore(text, start) && !wordRuneAfter(text, end)) {
			return true
		}
		from = start + 1
	}
}

func isUnspacedScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func wordRuneBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return i > 0 && isWordRune(r)
}

func wordRuneAfter(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return i < len(text) && isWordRune(r)
}

// TestContainsWord: a product name inside a longer word is no match, one
// between punctuation or spaces is, and one in Chinese text is anywhere.
func TestContainsWord(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"records rec1 and rec2", "ec2", false},
		{"stop the ec2 instance", "ec2", true},
		{"ec2", "ec2", true},
		{"(\"trello\")", "trello", true},
		{"trellos", "trello", false},
		{"在钉钉项目群里", "钉钉", true},
		{"cal.com/acme", "cal.com", true},
	} {
		if got := containsWord(c.text, c.word); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", c.text, c.word, got, c.want)
		}
	}
}
