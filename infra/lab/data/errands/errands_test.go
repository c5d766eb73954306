package errands

import (
	"os"
	"strings"
	"testing"
)

// TestFile checks the committed set: every line parses and the set keeps
// the rules of Check.
func TestFile(t *testing.T) {
	f, err := os.Open("errands.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(set); err != nil {
		t.Fatal(err)
	}
	if len(set) < 1800 {
		t.Errorf("got %d errands, want at least 1800", len(set))
	}
}

func TestReadRefuses(t *testing.T) {
	good := `{"id":"er-0001","text":"patch the jeans","lang":"en","domain":"clothing","style":"terse"}`
	for name, tc := range map[string]struct{ input, want string }{
		"not json":      {"patch the jeans", "line 2: invalid character"},
		"unknown field": {`{"id":"er-0002","text":"x","lang":"en","domain":"food","style":"terse","extra":1}`, "unknown field"},
		"missing field": {`{"id":"er-0002","text":"x","lang":"en","domain":"food"}`, `"style"`},
		"blank line":    {"", "line 2"},
		"two values":    {good + " {}", "more than one value"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Read(strings.NewReader(good + "\n" + tc.input + "\n"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestCheckRefuses(t *testing.T) {
	base := func() []Errand {
		return []Errand{
			{ID: "er-0001", Text: "patch the jeans", Lang: "en", Domain: "clothing", Style: "terse"},
			{ID: "er-0002", Text: "Flecken aus der Bluse", Lang: "de", Domain: "clothing", Style: "terse"},
		}
	}
	for name, tc := range map[string]struct {
		change func([]Errand) []Errand
		want   string
	}{
		"bad id":        {func(s []Errand) []Errand { s[1].ID = "er-2"; return s }, "er-NNNN"},
		"repeated id":   {func(s []Errand) []Errand { s[1].ID = "er-0001"; return s }, "id repeated"},
		"repeated text": {func(s []Errand) []Errand { s[1].Text = "PATCH  the Jeans"; return s }, "repeats er-0001"},
		"lang":          {func(s []Errand) []Errand { s[1].Lang = "xx"; return s }, "lang"},
		"style":         {func(s []Errand) []Errand { s[1].Style = "poem"; return s }, "style"},
		"domain":        {func(s []Errand) []Errand { s[1].Domain = "kubernetes"; return s }, "domain"},
		"english only":  {func(s []Errand) []Errand { s[1].Lang = "en"; return s }, "not in English"},
		"empty":         {func([]Errand) []Errand { return nil }, "empty"},
	} {
		t.Run(name, func(t *testing.T) {
			err := Check(tc.change(base()))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if err := Check(base()); err != nil {
		t.Fatalf("base set: %v", err)
	}
}
