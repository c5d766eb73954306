// Package errands reads and checks the everyday-errands contrast set
// (errands.jsonl beside this file): requests people make of an assistant
// that no tool of the software and office catalog serves, written as
// training data for a no-match model and never used as an evaluation set.
//
// The file holds one JSON object a line: {"id":"er-NNNN","text":…,
// "lang":…,"domain":…,"style":…}. [Read] refuses a line that is not such an
// object (unknown or missing fields, a blank line) and names its line
// number; [Check] refuses a set whose ids are malformed or repeated, whose
// texts repeat (case-folded), whose language, style or domain is outside
// the lists below, or where fewer than [MinNonEnglish] of the lines are in
// a language other than English.
package errands

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/text/cases"
)

// Errand is one line of the set.
type Errand struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Lang   string `json:"lang"`
	Domain string `json:"domain"`
	Style  string `json:"style"`
}

// Styles are the allowed styles: terse (3–8 words), everyday (a goal in
// plain words), chat (15–40 words with context), question.
var Styles = []string{"terse", "everyday", "chat", "question"}

// Langs are the allowed languages (ISO 639-1).
var Langs = []string{"en", "de", "es", "fr", "ja", "pt", "zh", "it", "nl", "ko", "ru", "pl"}

// Domains are the allowed domains of everyday life.
var Domains = []string{
	"food", "restaurants", "travel", "home", "garden", "health", "pets",
	"family", "money", "paperwork", "shopping", "clothing", "beauty",
	"crafts", "music", "sports", "outdoor", "education", "entertainment",
	"weather", "emotions", "errands", "events", "car", "moving",
}

// MinNonEnglish is the least share of lines not in English.
const MinNonEnglish = 0.25

// maxLine bounds one line of the file.
const maxLine = 64 << 10

var idPattern = regexp.MustCompile(`^er-[0-9]{4}$`)

// Read decodes every line of r; the first bad line is an error naming it.
func Read(r io.Reader) ([]Errand, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var out []Errand
	for n := 1; sc.Scan(); n++ {
		e, err := decodeLine(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("errands: line %d: %w", n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("errands: line %d: %w", len(out)+1, err)
	}
	return out, nil
}

// decodeLine decodes one line strictly: one object, known fields, all set.
func decodeLine(line []byte) (Errand, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var e Errand
	if err := dec.Decode(&e); err != nil {
		return Errand{}, err
	}
	if dec.More() {
		return Errand{}, fmt.Errorf("more than one value")
	}
	fields := [][2]string{{"id", e.ID}, {"text", e.Text}, {"lang", e.Lang}, {"domain", e.Domain}, {"style", e.Style}}
	for _, f := range fields {
		if strings.TrimSpace(f[1]) == "" {
			return Errand{}, fmt.Errorf("field %q is missing or empty", f[0])
		}
	}
	return e, nil
}

// Check applies the set's rules; the error names the first offending id.
func Check(set []Errand) error {
	if len(set) == 0 {
		return fmt.Errorf("errands: empty set")
	}
	ids := map[string]bool{}
	texts := map[string]string{}
	fold := cases.Fold()
	nonEnglish := 0
	for _, e := range set {
		if err := checkOne(e, ids, texts, fold.String(strings.Join(strings.Fields(e.Text), " "))); err != nil {
			return fmt.Errorf("errands: %s: %w", e.ID, err)
		}
		if e.Lang != "en" {
			nonEnglish++
		}
	}
	if share := float64(nonEnglish) / float64(len(set)); share < MinNonEnglish {
		return fmt.Errorf("errands: %.1f%% of lines are not in English, want at least %.0f%%", 100*share, 100*MinNonEnglish)
	}
	return nil
}

// checkOne checks one errand against the lists and the ids and texts seen.
func checkOne(e Errand, ids map[string]bool, texts map[string]string, folded string) error {
	switch {
	case !idPattern.MatchString(e.ID):
		return fmt.Errorf("id is not er-NNNN")
	case ids[e.ID]:
		return fmt.Errorf("id repeated")
	case texts[folded] != "":
		return fmt.Errorf("text repeats %s", texts[folded])
	case !slices.Contains(Langs, e.Lang):
		return fmt.Errorf("lang %q not in %v", e.Lang, Langs)
	case !slices.Contains(Styles, e.Style):
		return fmt.Errorf("style %q not in %v", e.Style, Styles)
	case !slices.Contains(Domains, e.Domain):
		return fmt.Errorf("domain %q not in %v", e.Domain, Domains)
	}
	ids[e.ID] = true
	texts[folded] = e.ID
	return nil
}
