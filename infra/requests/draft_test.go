package requests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// testCatalog has two servers, notes (tools, a prompt, resources, a
// template) and weather (two tools), none with requests.
const testCatalog = "../../index/testdata/catalog"

// copyCatalog copies the test catalog into a new directory.
func copyCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"notes.json", "weather.json"} {
		data, err := os.ReadFile(filepath.Join(testCatalog, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDraftWritesWhatApplyTakes: every item without requests is asked for
// once, with the instruction, its documentation and its siblings; a file
// per server is written that Apply takes, and the catalog then loads each
// item with the requests the model wrote.
func TestDraftWritesWhatApplyTakes(t *testing.T) {
	cat, out := copyCatalog(t), t.TempDir()
	var mu sync.Mutex
	prompts, systems := map[string]string{}, map[string]bool{}
	endpoint, calls := scriptedOpenAI(t, func(c openAICall, n int) (int, string) {
		mu.Lock()
		prompts[c.item()], systems[c.Messages[0].Content] = c.Messages[1].Content, true
		mu.Unlock()
		return answerRequests(c, n)
	})
	var notes bytes.Buffer
	done, err := Draft(context.Background(), cat, out, &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, &DraftOptions{Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	if done.Items != 10 || calls.Load() != 10 || len(done.Files) != 2 {
		t.Fatalf("drafted %d items in %d calls into %q; want the 10 items, one call each, 2 files", done.Items, calls.Load(), done.Files)
	}
	if p := prompts["create_note"]; !strings.Contains(p, "Description: Create a new note in a notebook") || !strings.Contains(p, "- notebook: Notebook to add the note to") ||
		!strings.Contains(p, "- delete_note: Delete a note permanently") || strings.Contains(p, "get_forecast") {
		t.Errorf("create_note's prompt lacks its documentation or its siblings, or names another server's item:\n%s", p)
	}
	if p := prompts["notes://stats"]; !strings.Contains(p, "Item: resource notes://stats\nName: usage-statistics\n") || !regexp.MustCompile(`2 of them in \w+ and \w+\.$`).MatchString(p) {
		t.Errorf("the resource's prompt lacks its name or the two languages:\n%s", p)
	}
	if len(systems) != 1 || !systems[systemPrompt()] || !strings.Contains(systemPrompt(), "the item must truly answer every request") {
		t.Errorf("the calls sent %d instructions; want the one of prompt.tmpl", len(systems))
	}
	if !strings.Contains(notes.String(), "notes__create_note: 6 requests") {
		t.Errorf("notes %q, want a line per item", notes.String())
	}
	for _, path := range done.Files {
		f, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Apply(cat, f, path); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := catalog.LoadDir(cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range loaded.Items {
		if want := scriptedRequests(it.UpstreamName); !slices.Equal(it.Requests, want) {
			t.Errorf("%s: requests %q, want %q", it.Name, it.Requests, want)
		}
	}
}

// TestDraftSelects: by default an item with requests, or in its draft file
// already, is not asked for (a run after a partial one drafts only what is
// left, keeping the rest of the file); --server and --item narrow the
// selection, --item drafts anew; Limit caps it; a name that is not in the
// catalog is refused.
func TestDraftSelects(t *testing.T) {
	cat, out := copyCatalog(t), t.TempDir()
	endpoint, calls := scriptedOpenAI(t, answerRequests)
	model := &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}
	draft := func(o *DraftOptions) (*Drafted, error) {
		calls.Store(0)
		return Draft(context.Background(), cat, out, model, o)
	}
	if done, err := draft(&DraftOptions{Servers: []string{"weather"}, Limit: 1}); err != nil || done.Items != 1 {
		t.Fatalf("weather, limit 1: got %+v, %v; want one item", done, err)
	}
	before, _ := os.ReadFile(filepath.Join(out, "weather.json"))
	if done, err := draft(&DraftOptions{Servers: []string{"weather"}}); err != nil || done.Items != 1 || calls.Load() != 1 {
		t.Fatalf("weather again: got %+v, %v in %d calls; want the one item left", done, err, calls.Load())
	}
	f, _ := Read(filepath.Join(out, "weather.json"))
	if len(f.Items) != 2 || !bytes.Contains(mustMarshal(t, f), mustMarshal(t, Item{Kind: "tool", Name: "get_forecast", Requests: scriptedRequests("get_forecast")})) {
		t.Errorf("weather's draft %s, want both items, the first as drafted before (%s)", mustMarshal(t, f), before)
	}
	if done, err := draft(&DraftOptions{Servers: []string{"weather"}}); err != nil || done.Items != 0 || calls.Load() != 0 {
		t.Errorf("weather drafted: got %+v, %v in %d calls; want nothing asked", done, err, calls.Load())
	}
	if done, err := draft(&DraftOptions{Items: []string{"weather__search"}}); err != nil || done.Items != 1 || calls.Load() != 1 {
		t.Errorf("--item weather__search: got %+v, %v in %d calls; want it drafted anew", done, err, calls.Load())
	}
	if done, err := draft(&DraftOptions{Items: []string{"search"}}); err != nil || done.Items != 2 {
		t.Errorf("--item search: got %+v, %v; want notes' and weather's", done, err)
	}
	for _, o := range []*DraftOptions{{Servers: []string{"nonesuch"}}, {Items: []string{"nonesuch"}}, {Servers: []string{"weather"}, Items: []string{"create_note"}}} {
		if _, err := draft(o); err == nil || !strings.Contains(err.Error(), `"nonesuch"`) && !strings.Contains(err.Error(), `"create_note"`) {
			t.Errorf("%+v: got %v, want the name refused", o, err)
		}
	}
	if _, err := Draft(context.Background(), cat, cat, model, nil); err == nil || !strings.Contains(err.Error(), "is the catalog's") {
		t.Errorf("drafts into the catalog: got %v, want refused", err)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDraftPartial: an item the model fails (a malformed answer, nothing
// valid, a 500 after the retries) does not stop the others: they are
// written, and the error names each failed item, the model and why; when
// every item fails no file is written.
func TestDraftPartial(t *testing.T) {
	cat, out := copyCatalog(t), t.TempDir()
	endpoint, _ := scriptedOpenAI(t, func(c openAICall, n int) (int, string) {
		switch c.item() {
		case "get_forecast":
			return http.StatusInternalServerError, "model crashed"
		case "search":
			return http.StatusOK, chatCompletion(`Sure! Here are some: ["find stations", 3]`)
		}
		return answerRequests(c, n)
	})
	model := &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}
	done, err := Draft(context.Background(), cat, out, model, &DraftOptions{Servers: []string{"weather"}})
	if err == nil || done.Items != 0 || len(done.Files) != 0 {
		t.Fatalf("got %+v, %v; want both items failed, nothing written", done, err)
	}
	for _, want := range []string{"2 of 2 items not drafted", "weather__get_forecast: model m at " + endpoint + ": HTTP 500: model crashed (after 3 tries)",
		"weather__search: model m at " + endpoint + ": the model's answer is not a JSON array of strings: element 1 is 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("the drafts' directory holds %d files, want none", len(entries))
	}
	done, err = Draft(context.Background(), cat, out, model, nil)
	if err == nil || done.Items != 7 || !strings.Contains(err.Error(), "3 of 10 items not drafted") || !strings.Contains(err.Error(), "notes__search: ") {
		t.Fatalf("got %+v, %v; want 7 items drafted, the 3 searches and forecasts named as failed", done, err)
	}
	if f, err := Read(filepath.Join(out, "notes.json")); err != nil || len(f.Items) != 7 || f.find("tool", "search") >= 0 {
		t.Errorf("notes' draft: %v, %v; want its 7 items but search", f, err)
	}
	if _, err := os.Stat(filepath.Join(out, "weather.json")); err == nil {
		t.Error("weather's draft was written with no item drafted")
	}
}

// TestDraftStopsWhenTheEndpointRefuses: a 401, 403 or 404 is the
// endpoint's refusal of every item (a wrong key, model or URL): the items
// left are not asked, and the error says so once.
func TestDraftStopsWhenTheEndpointRefuses(t *testing.T) {
	cat, out := copyCatalog(t), t.TempDir()
	endpoint, calls := scriptedOpenAI(t, func(openAICall, int) (int, string) {
		return http.StatusUnauthorized, `{"error": "invalid key"}`
	})
	_, err := Draft(context.Background(), cat, out, &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, &DraftOptions{Concurrency: 1})
	if calls.Load() != 1 {
		t.Errorf("%d calls, want the first only", calls.Load())
	}
	want := "10 of 10 items not drafted (those drafted are written; run again to draft the others):\n" +
		"  notes__create_note: model m at " + endpoint + `: HTTP 401: {"error": "invalid key"}` + "\n" +
		"  9 items not asked: model m at " + endpoint + ` stopped the drafting: HTTP 401: {"error": "invalid key"}`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestDraftListsAFewFailures: an error names at most 20 failed items, then
// says how many more.
func TestDraftListsAFewFailures(t *testing.T) {
	results := make([]result, 25)
	for i := range results {
		results[i].err = fmt.Errorf("item %d: broken", i)
	}
	err := failures(results)
	if err == nil || !strings.Contains(err.Error(), "item 19: broken\n  … and 5 more") || strings.Contains(err.Error(), "item 20") {
		t.Errorf("got %v, want 20 items named, then 5 more", err)
	}
}

// TestDraftDropsInvalidRequests: a request the catalog would refuse, or a
// repeat of another, is dropped with a note; an item left with none
// fails.
func TestDraftDropsInvalidRequests(t *testing.T) {
	cat, out := copyCatalog(t), t.TempDir()
	endpoint, _ := scriptedOpenAI(t, func(c openAICall, _ int) (int, string) {
		if c.item() == "search" {
			return http.StatusOK, chatCompletion("```json\n[\"   \", \"two\\nlines\"]\n```")
		}
		return http.StatusOK, chatCompletion("```json\n[\"weather in Oslo tomorrow\", \"Weather  in oslo tomorrow\", \"two\\nlines\", \"will it rain in Porto?\"]\n```")
	})
	var notes bytes.Buffer
	_, err := Draft(context.Background(), cat, out, &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, &DraftOptions{Servers: []string{"weather"}, Notes: &notes})
	if err == nil || !strings.Contains(err.Error(), "weather__search: model m at "+endpoint+": none of the model's 2 requests is valid") {
		t.Errorf("got %v, want search failed for want of a valid request", err)
	}
	for _, want := range []string{"weather__get_forecast: request 1 dropped: the same as an earlier one", "weather__get_forecast: request 2 dropped: character U+000A at byte 3: a request is one line",
		"weather__search: request 0 dropped: blank",
		"weather__get_forecast: 2 requests (fewer than the 6"} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes %q do not say %q", notes.String(), want)
		}
	}
	f, err := Read(filepath.Join(out, "weather.json"))
	if err != nil || len(f.Items) != 1 || !slices.Equal(f.Items[0].Requests, []string{"weather in Oslo tomorrow", "will it rain in Porto?"}) {
		t.Errorf("weather's draft %+v, %v; want get_forecast's two valid requests", f, err)
	}
}

// TestKeepValidBoundsItsNotes: an answer of many bad requests gets a few
// notes and a count, and the valid ones kept up to the catalog's limit.
func TestKeepValidBoundsItsNotes(t *testing.T) {
	drafted := make([]string, 0, 1000)
	for i := range 1000 {
		drafted = append(drafted, fmt.Sprintf("request number %d", i%40))
	}
	kept, notes := keepValid(drafted)
	if len(kept) != catalog.MaxRequestsPerItem || len(notes) != maxNotes+1 || notes[maxNotes] != fmt.Sprintf("%d more requests dropped", 1000-catalog.MaxRequestsPerItem-maxNotes) {
		t.Errorf("kept %d, notes %d ending %q; want %d kept, %d notes and a count", len(kept), len(notes), notes[len(notes)-1], catalog.MaxRequestsPerItem, maxNotes+1)
	}
}

// TestParseAnswer: the array is found inside a fence, after a <think>
// block or among prose; anything but an array of strings is refused.
func TestParseAnswer(t *testing.T) {
	for _, test := range []struct{ answer, want, err string }{
		{`["a", "b"]`, "a|b", ""},
		{"```json\n[\"a\",\n \"b\"]\n```", "a|b", ""},
		{"```\n[\"a\"]\n```\nHope this helps! [1]", "a", ""},
		{"<think>maybe [x]?</think>\nHere: [\"a\"] — done", "a", ""},
		{`["a", {"text": "b"}]`, "", `element 1 is {"text": "b"}`},
		{`["a", null]`, "", "element 1 is null"},
		{`[]`, "", "empty array"},
		{`I cannot help with that.`, "", "holds no JSON array"},
		{`["a", "b"`, "", "holds no JSON array"},
		{`["a" "b"]`, "", "not a JSON array of strings"},
	} {
		got, err := parseAnswer(test.answer)
		if test.err != "" {
			if err == nil || !strings.Contains(err.Error(), test.err) {
				t.Errorf("%q: got %q, %v; want an error saying %q", test.answer, got, err, test.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != test.want {
			t.Errorf("%q: got %q, %v; want %s", test.answer, got, err, test.want)
		}
	}
}
