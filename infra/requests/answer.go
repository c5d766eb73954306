package requests

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// parseAnswer reads the requests a model wrote: a JSON array of strings,
// perhaps inside a code fence, after a reasoning model's <think> block or
// among a sentence or two of prose. Anything but strings in the array
// refuses the whole answer: a model that wrote objects misread the task.
func parseAnswer(text string) ([]string, error) {
	if _, after, ok := strings.Cut(text, "</think>"); ok {
		text = after
	}
	text = unfence(text)
	start, end := strings.Index(text, "["), strings.LastIndex(text, "]")
	if start < 0 || end < start {
		return nil, fmt.Errorf("the model's answer holds no JSON array: %s", snippet([]byte(text)))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal([]byte(text[start:end+1]), &elems); err != nil {
		return nil, fmt.Errorf("the model's answer is not a JSON array of strings: %w", err)
	}
	if len(elems) == 0 {
		return nil, errors.New("the model's answer is an empty array")
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		if err := json.Unmarshal(e, &out[i]); err != nil || !strings.HasPrefix(string(e), `"`) {
			return nil, fmt.Errorf("the model's answer is not a JSON array of strings: element %d is %s", i, snippet(e))
		}
	}
	return out, nil
}

// unfence returns the inside of the first ``` code fence of text, or text.
func unfence(text string) string {
	_, rest, ok := strings.Cut(text, "```")
	if !ok {
		return text
	}
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.Contains(rest[:nl], "[") {
		rest = rest[nl+1:] // the fence's language tag
	}
	inside, _, _ := strings.Cut(rest, "```")
	return inside
}

// keepValid returns the requests of drafted that the catalog takes, each
// once, at most catalog.MaxRequestsPerItem, and a note for each dropped.
func keepValid(drafted []string) (kept, notes []string) {
	seen := map[string]bool{}
	for i, written := range drafted {
		r := strings.TrimSpace(written)
		switch err := catalog.CheckRequest(r); {
		case err != nil:
			notes = append(notes, fmt.Sprintf("request %d dropped: %v: %.80q", i, err, written))
		case seen[catalog.RequestKey(r)]:
			notes = append(notes, fmt.Sprintf("request %d dropped: the same as an earlier one: %.80q", i, r))
		case len(kept) == catalog.MaxRequestsPerItem:
			notes = append(notes, fmt.Sprintf("request %d dropped: over the limit of %d an item", i, catalog.MaxRequestsPerItem))
		default:
			seen[catalog.RequestKey(r)] = true
			kept = append(kept, r)
		}
	}
	if more := len(notes) - maxNotes; more > 0 {
		notes = append(notes[:maxNotes], fmt.Sprintf("%d more requests dropped", more))
	}
	return kept, notes
}

// maxNotes bounds the notes of one item: an answer of a megabyte could
// hold a hundred thousand requests.
const maxNotes = 10
