package requests

import (
	"context"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

// loadCatalog loads the catalog at dir.
func loadCatalog(t *testing.T, dir string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// readAll is the content of each file of dir, by name.
func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

// recordingOpenAI is a scripted OpenAI-compatible endpoint that answers
// every item with scriptedRequests and records the items asked.
func recordingOpenAI(t *testing.T) (endpoint string, asked func() []string) {
	var mu sync.Mutex
	var items []string
	endpoint, _ = scriptedOpenAI(t, func(c openAICall, n int) (int, string) {
		mu.Lock()
		items = append(items, c.item())
		mu.Unlock()
		return answerRequests(c, n)
	})
	return endpoint, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Clone(items)
		slices.Sort(out)
		items = nil
		return out
	}
}

// buildDrafts runs DraftCached over the catalog in dir, as a build does,
// with drafter (nil: none), and returns the catalog it gave drafts to.
func buildDrafts(t *testing.T, dir, drafts string, drafter *Drafter) (*catalog.Catalog, *Cached) {
	t.Helper()
	cat := loadCatalog(t, dir)
	c, err := DraftCached(context.Background(), cat, dir, drafts, &CacheOptions{Drafter: drafter, Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	return cat, c
}

// TestDraftCachedRebuildAsksNothing: the first build drafts every item
// without requests into a file a server, each item with its key and
// model, and gives the catalog their requests; a second build of the same
// catalog (the same model behind another address) asks nothing, writes
// nothing and gives the same catalog; drafting the same inputs afresh
// writes the same bytes.
func TestDraftCachedRebuildAsksNothing(t *testing.T) {
	dir := copyCatalog(t)
	drafts := DraftsDir(dir)
	endpoint, asked := recordingOpenAI(t)
	first, c := buildDrafts(t, dir, drafts, &Drafter{Model: &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, ID: "openai:m"})
	if got := asked(); len(got) != 10 || c.Drafted != 10 || c.Applied != 10 || c.Missing != 0 || len(c.Files) != 2 {
		t.Fatalf("first build asked %q, drafted %d, applied %d, missing %d, files %q; want the 10 items once each, 2 files", got, c.Drafted, c.Applied, c.Missing, c.Files)
	}
	for _, it := range first.Items {
		if !slices.Equal(it.Requests, scriptedRequests(it.UpstreamName)) || it.RequestsFrom != RequestsFromDraft || SourceOf(&it) != "draft" {
			t.Errorf("%s: requests %q from %q; want the drafted ones, from the drafts", it.Name, it.Requests, it.RequestsFrom)
		}
	}
	f, err := Read(filepath.Join(drafts, "notes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(f.Items, func(a, b Item) int { return strings.Compare(a.Kind+"\x00"+a.Name, b.Kind+"\x00"+b.Name) }) {
		t.Errorf("notes.json items %+v: want them sorted by kind and name", f.Items)
	}
	for _, it := range f.Items {
		if len(it.Key) != 32 || it.Model != "openai:m" {
			t.Errorf("draft %s %s: key %q, model %q; want a key and openai:m", it.Kind, it.Name, it.Key, it.Model)
		}
	}
	files := readAll(t, drafts)

	other, _ := recordingOpenAI(t)
	second, c := buildDrafts(t, dir, drafts, &Drafter{Model: &OpenAI{Endpoint: other, Model: "m", Calls: fast}, ID: "openai:m"})
	if got := asked(); len(got) != 0 || c.Drafted != 0 || c.Applied != 10 || len(c.Files) != 0 {
		t.Errorf("second build asked %q, drafted %d, applied %d, wrote %q; want nothing asked or written, 10 applied", got, c.Drafted, c.Applied, c.Files)
	}
	if again := readAll(t, drafts); !maps.Equal(again, files) {
		t.Error("the second build changed the drafts")
	}
	if first.Version(1) != second.Version(1) {
		t.Error("two builds of the same inputs gave different catalogs")
	}

	afresh := filepath.Join(t.TempDir(), "drafts")
	buildDrafts(t, dir, afresh, &Drafter{Model: &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, ID: "openai:m"})
	if got := readAll(t, afresh); !maps.Equal(got, files) {
		t.Errorf("drafting the same inputs afresh wrote other bytes:\n%v\nwant\n%v", got, files)
	}
}

// setDescription rewrites the description of the tool name of the server
// file at path.
func setDescription(t *testing.T, path, name, old, description string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), `"name": "`+name+`", "description": "`+old+`"`, `"name": "`+name+`", "description": "`+description+`"`, 1)
	if s == string(data) {
		t.Fatalf("%s: no tool %s described %q", path, name, old)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDraftCachedRedraftsWhatChanged: after one item's description
// changes, a build without a model does not apply its stale draft (and
// counts it); a build with one asks for exactly that item, and rewrites
// only its server's file, only that item's entry.
func TestDraftCachedRedraftsWhatChanged(t *testing.T) {
	dir := copyCatalog(t)
	drafts := DraftsDir(dir)
	endpoint, asked := recordingOpenAI(t)
	drafter := &Drafter{Model: &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, ID: "openai:m"}
	buildDrafts(t, dir, drafts, drafter)
	asked()
	before := readAll(t, drafts)
	setDescription(t, filepath.Join(dir, "weather.json"), "search", "Search weather stations near a location", "Find the weather stations closest to a point")

	cat, c := buildDrafts(t, dir, drafts, nil)
	if c.Applied != 9 || c.Missing != 1 || c.Stale != 1 || len(c.Files) != 0 {
		t.Errorf("without a model: applied %d, missing %d (stale %d), wrote %q; want 9, 1 (1), nothing", c.Applied, c.Missing, c.Stale, c.Files)
	}
	for _, it := range cat.Items {
		if (it.Name == "weather__search") != (len(it.Requests) == 0) {
			t.Errorf("without a model: %s has %d requests; want none for the changed item only", it.Name, len(it.Requests))
		}
	}

	_, c = buildDrafts(t, dir, drafts, drafter)
	if got := asked(); !slices.Equal(got, []string{"search"}) || c.Drafted != 1 || c.Applied != 10 || len(c.Files) != 1 {
		t.Errorf("with a model: asked %q, drafted %d, applied %d, wrote %q; want the changed item only", got, c.Drafted, c.Applied, c.Files)
	}
	after := readAll(t, drafts)
	if after["notes.json"] != before["notes.json"] || after["weather.json"] == before["weather.json"] {
		t.Error("want weather.json rewritten and notes.json as it was")
	}
	if changed := changedEntries(t, before["weather.json"], after["weather.json"]); !slices.Equal(changed, []string{"search"}) {
		t.Errorf("entries changed %q, want search's only", changed)
	}
}

// changedEntries are the names of the items whose entries differ between
// two draft files' contents.
func changedEntries(t *testing.T, a, b string) []string {
	t.Helper()
	fa, fb := parseFile(t, a), parseFile(t, b)
	var out []string
	for i := range fb.Items {
		if i >= len(fa.Items) || fa.Items[i].Name != fb.Items[i].Name || fa.Items[i].Key != fb.Items[i].Key {
			out = append(out, fb.Items[i].Name)
		}
	}
	return out
}

func parseFile(t *testing.T, content string) *File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDraftCachedOwnAndLibraryWin: an item with requests of its own, or
// with the library's, keeps them, whatever its draft; the model is asked
// only for the items with neither, and the coverage line counts the
// drafted ones apart.
func TestDraftCachedOwnAndLibraryWin(t *testing.T) {
	dir := copyCatalog(t)
	drafts := DraftsDir(dir)
	endpoint, asked := recordingOpenAI(t)
	drafter := &Drafter{Model: &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, ID: "openai:m"}
	buildDrafts(t, dir, drafts, drafter) // every item drafted
	asked()

	own := []string{"what will the weather be in Oslo tomorrow", "forecast for Lisbon this weekend"}
	if _, err := Apply(dir, &File{Server: "weather", Items: []Item{{Kind: "tool", Name: "get_forecast", Requests: own}}}, "own.json"); err != nil {
		t.Fatal(err)
	}
	cat := loadCatalog(t, dir)
	for i := range cat.Servers {
		if cat.Servers[i].Name == "weather" {
			cat.Servers[i].Package = "weather-mcp@1.0.0"
		}
	}
	libReqs := []string{"which weather stations are near me", "stations around these coordinates"}
	lib, err := library.New([]*library.File{{Identity: "weather-mcp", Source: library.Source{File: "x.json"},
		Items: []library.Item{{Kind: ext.KindTool, Name: "search", Requests: libReqs}}}})
	if err != nil {
		t.Fatal(err)
	}
	cov := library.Attach(cat, lib)
	c, err := DraftCached(context.Background(), cat, dir, drafts, &CacheOptions{Drafter: drafter})
	if err != nil {
		t.Fatal(err)
	}
	if got := asked(); len(got) != 0 {
		t.Errorf("asked %q; want nothing: the items without requests have fresh drafts", got)
	}
	for _, it := range cat.Items {
		want, from := scriptedRequests(it.UpstreamName), RequestsFromDraft
		switch it.Name {
		case "weather__get_forecast":
			want, from = own, ""
		case "weather__search":
			want, from = libReqs, catalog.RequestsFromLibrary
		}
		if !slices.Equal(it.Requests, want) || it.RequestsFrom != from {
			t.Errorf("%s: requests %q from %q; want %q from %q", it.Name, it.Requests, it.RequestsFrom, want, from)
		}
	}
	line := CoverageLine(cov, c)
	want := "requests (library " + lib.Version() + "): 1 items their own, 1 the library's (0 matched by description), 8 drafted (unreviewed, in " + drafts + "), 0 none"
	if line != want {
		t.Errorf("coverage line %q, want %q", line, want)
	}
}

// TestDraftCachedEndpointFails: an endpoint that refuses the key, or is
// down, fails the drafting with an error naming it (never the key), and
// no draft file is written.
func TestDraftCachedEndpointFails(t *testing.T) {
	const key = "sk-secret-drafting-key"
	refusing, _ := scriptedOpenAI(t, func(openAICall, int) (int, string) { return http.StatusUnauthorized, `{"error":"bad key"}` })
	down := "http://" + closedAddress(t) + "/v1"
	for _, endpoint := range []string{refusing, down} {
		dir := copyCatalog(t)
		drafts := DraftsDir(dir)
		cat := loadCatalog(t, dir)
		_, err := DraftCached(context.Background(), cat, dir, drafts, &CacheOptions{Drafter: &Drafter{Model: &OpenAI{Endpoint: endpoint, Model: "m", APIKey: key, Calls: fast}, ID: "openai:m"}})
		if err == nil || !strings.Contains(err.Error(), endpoint) || strings.Contains(err.Error(), key) {
			t.Errorf("%s: got %v; want an error naming the endpoint, not the key", endpoint, err)
		}
		if _, statErr := os.Stat(drafts); !os.IsNotExist(statErr) {
			t.Errorf("%s: the drafts' directory exists (%v); want nothing written", endpoint, statErr)
		}
		for _, it := range cat.Items {
			if len(it.Requests) > 0 {
				t.Errorf("%s: %s was given requests", endpoint, it.Name)
			}
		}
	}
}

// TestDraftCachedBedrock: drafting with Bedrock keys the drafts by the
// model ID, and a rebuild asks Bedrock nothing.
func TestDraftCachedBedrock(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	endpoint := scriptedBedrock(t, "eu-west-1", testCreds, func(c converseCall) (int, string) {
		mu.Lock()
		calls++
		mu.Unlock()
		item := itemLine.FindStringSubmatch(c.Messages[0].Content[0].Text)[1]
		return http.StatusOK, converseOutput("[\"" + strings.Join(scriptedRequests(item), "\", \"") + "\"]")
	})
	drafter := &Drafter{Model: &Bedrock{Region: "eu-west-1", Model: "anthropic.claude-3-haiku-20240307-v1:0", Endpoint: endpoint, Credentials: staticCreds, Calls: fast},
		ID: "bedrock:anthropic.claude-3-haiku-20240307-v1:0"}
	dir := copyCatalog(t)
	drafts := DraftsDir(dir)
	_, c := buildDrafts(t, dir, drafts, drafter)
	if calls != 10 || c.Drafted != 10 {
		t.Fatalf("first build: %d calls, drafted %d; want 10", calls, c.Drafted)
	}
	f, err := Read(filepath.Join(drafts, "weather.json"))
	if err != nil || f.Items[0].Model != drafter.ID {
		t.Fatalf("weather.json: %+v, %v; want the drafts of %s", f, err, drafter.ID)
	}
	_, c = buildDrafts(t, dir, drafts, drafter)
	if calls != 10 || c.Drafted != 0 || c.Applied != 10 {
		t.Errorf("rebuild: %d calls, drafted %d, applied %d; want none asked, 10 applied", calls-10, c.Drafted, c.Applied)
	}
	// another model drafts again: its ID is in the keys
	endpointB, asked := recordingOpenAI(t)
	_, c = buildDrafts(t, dir, drafts, &Drafter{Model: &OpenAI{Endpoint: endpointB, Model: "m", Calls: fast}, ID: "openai:m"})
	if got := asked(); len(got) != 10 || c.Drafted != 10 {
		t.Errorf("another model: asked %d items, drafted %d; want all 10 again", len(got), c.Drafted)
	}
}

// TestDraftKey: the key changes with each field the prompt tells of the
// item and with the model, and not with what it does not tell.
func TestDraftKey(t *testing.T) {
	base := catalog.Item{Kind: ext.KindTool, Server: "s", Name: "s__a", UpstreamName: "a", Label: "a", Title: "A", Description: "does a",
		Params: []catalog.Param{{Name: "x", Description: "the x"}}}
	key := DraftKey(&base, "openai:m")
	for name, edit := range map[string]func(*catalog.Item){
		"kind":        func(it *catalog.Item) { it.Kind = ext.KindPrompt },
		"name":        func(it *catalog.Item) { it.UpstreamName = "b" },
		"title":       func(it *catalog.Item) { it.Title = "B" },
		"description": func(it *catalog.Item) { it.Description = "does b" },
		"param":       func(it *catalog.Item) { it.Params = []catalog.Param{{Name: "x", Description: "the y"}} },
		"boundary":    func(it *catalog.Item) { it.Title, it.Description = "Ad", "oes a" },
	} {
		it := base
		edit(&it)
		if DraftKey(&it, "openai:m") == key {
			t.Errorf("%s changed: the key did not", name)
		}
	}
	if DraftKey(&base, "bedrock:m") == key {
		t.Error("another model: the key did not change")
	}
	moved := base
	moved.Server, moved.Name = "t", "t__a"
	if DraftKey(&moved, "openai:m") != key {
		t.Error("the server's key changed the item's key; want the item's own content only")
	}
}

// closedAddress is an address on 127.0.0.1 where nothing listens.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestDraftCachedIgnoresUnkeyedDrafts: a file requests draft wrote (no
// keys) in the drafts' directory is not a build's draft: its items are
// neither applied nor called stale.
func TestDraftCachedIgnoresUnkeyedDrafts(t *testing.T) {
	dir := copyCatalog(t)
	drafts := DraftsDir(dir)
	endpoint, _ := recordingOpenAI(t)
	if _, err := Draft(context.Background(), dir, drafts, &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, &DraftOptions{Servers: []string{"weather"}}); err != nil {
		t.Fatal(err)
	}
	_, c := buildDrafts(t, dir, drafts, nil)
	if c.Applied != 0 || c.Missing != 10 || c.Stale != 0 {
		t.Errorf("applied %d, missing %d, stale %d; want 0, 10, 0", c.Applied, c.Missing, c.Stale)
	}
}
