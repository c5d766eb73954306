package index

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// hitInfo is what the tests read of a hit.
type hitInfo struct {
	Name, URI, URITemplate, Description string
	Server                              string
}

func searchHits(t *testing.T, x *Index, k ext.Kind, text string, limit int, f ext.Filter) []hitInfo {
	t.Helper()
	page, err := x.Search(context.Background(), ext.Query{Kind: k, Text: text, Limit: limit, Filter: f})
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	hits := make([]hitInfo, len(page.Items))
	for i, h := range page.Items {
		json.Unmarshal(h.Object, &hits[i])
		hits[i].Server = h.Server
	}
	return hits
}

func names(hits []hitInfo) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Name + h.URI + h.URITemplate
	}
	return out
}

func TestDefaultCatalogRoundTrip(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, test := range []struct {
		query string
		want  func(h hitInfo) bool
		about string
	}{
		{"open a merge request", func(h hitInfo) bool {
			return strings.Contains(h.Server, "gitlab") && strings.Contains(h.Name, "merge_request")
		}, "a GitLab merge-request tool"},
		{"take a screenshot of the page", func(h hitInfo) bool {
			d := strings.ToLower(h.Description)
			return strings.Contains(strings.ToLower(h.Name), "screenshot") && (strings.Contains(d, "page") || strings.Contains(d, "browser"))
		}, "a browser screenshot tool"},
		{"browser_take_screenshot", func(h hitInfo) bool {
			return h.Name == "playwright__browser_take_screenshot"
		}, "the tool of that exact name"},
	} {
		hits := searchHits(t, x, ext.KindTool, test.query, 3, ext.Filter{})
		found := false
		for _, h := range hits {
			found = found || test.want(h)
		}
		if !found {
			t.Errorf("%q: got %v, want %s in the top 3", test.query, names(hits), test.about)
		}
	}
	if hits := searchHits(t, x, ext.KindTool, "browser_take_screenshot", 1, ext.Filter{}); len(hits) == 0 || hits[0].Name != "playwright__browser_take_screenshot" {
		t.Errorf("exact name: got %v first, want playwright__browser_take_screenshot", names(hits))
	}
}

// TestEveryKindSearchable searches for every prompt, resource and template
// of the default catalog with the first words of its own description.
func TestEveryKindSearchable(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	tried, found := map[ext.Kind]int{}, map[ext.Kind]int{}
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool || it.Description == "" {
			continue
		}
		words := strings.Fields(it.Description)
		query := strings.Join(words[:min(12, len(words))], " ")
		tried[it.Kind]++
		for _, h := range searchHits(t, x, it.Kind, query, 5, ext.Filter{}) {
			if h.Name == it.Name || h.URI == it.Name || h.URITemplate == it.Name {
				found[it.Kind]++
				break
			}
		}
	}
	for _, k := range []ext.Kind{ext.KindPrompt, ext.KindResource, ext.KindResourceTemplate} {
		if tried[k] == 0 || float64(found[k]) < 0.9*float64(tried[k]) {
			t.Errorf("%s: %d of %d found in the top 5 by their own description words, want at least 90%%", k, found[k], tried[k])
		}
		t.Logf("%s: %d of %d found by their own words", k, found[k], tried[k])
	}
}

func TestFilters(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, "testdata/catalog")
	for _, test := range []struct {
		name   string
		query  string
		filter ext.Filter
		want   string
	}{
		{"no filter", "search", ext.Filter{}, "notes__search weather__search"},
		{"one server", "search", ext.Filter{Servers: []string{"weather"}}, "weather__search"},
		{"unknown server", "search", ext.Filter{Servers: []string{"nope"}}, ""},
		{"read-only", "note", ext.Filter{Annotations: map[string]any{"readOnlyHint": true}}, "notes__list_notes notes__search"},
		{"destructive by default", "note", ext.Filter{Annotations: map[string]any{"destructiveHint": true}}, "notes__create_note notes__delete_note notes__list_notes"},
		{"not destructive", "note", ext.Filter{Annotations: map[string]any{"destructiveHint": false}}, "notes__search"},
		{"two annotations", "weather", ext.Filter{Annotations: map[string]any{"readOnlyHint": true, "openWorldHint": true}}, "weather__get_forecast weather__search"},
	} {
		t.Run(test.name, func(t *testing.T) {
			got := names(searchHits(t, x, ext.KindTool, test.query, 10, test.filter))
			slices.Sort(got)
			if strings.Join(got, " ") != test.want {
				t.Errorf("got %v, want %s", got, test.want)
			}
		})
	}
	_, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "x", Limit: 1,
		Filter: ext.Filter{Annotations: map[string]any{"readOnlyHint": []int{1}}}})
	if err == nil || !strings.Contains(err.Error(), "filter.annotations.readOnlyHint") {
		t.Errorf("got %v, want an invalid-params error naming the annotation", err)
	}
}

// TestQueryIsPlainText sends bleve query syntax: it must be taken as the
// words it holds, giving what those words give, and never a pattern scan.
func TestQueryIsPlainText(t *testing.T) {
	x := defaultIndex(t)
	for _, test := range []struct{ query, words string }{
		{"/.*/", ""},
		{"*a*", ""},
		{"description:/.*/", "description"},
		{"delete_note^100 OR +create", "delete_note 100 or create"},
		{`"unterminated (phrase`, "unterminated phrase"},
		{"browser_take_screenshot*", "browser_take_screenshot"},
		{"get~2 pods~", "get 2 pods"},
	} {
		start := time.Now()
		got := names(searchHits(t, x, ext.KindTool, test.query, 10, ext.Filter{}))
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q took %s: a scan, not a word search", test.query, d)
		}
		var want []string
		if test.words != "" {
			want = names(searchHits(t, x, ext.KindTool, test.words, 10, ext.Filter{}))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q: got %v, want what %q gives: %v", test.query, got, test.words, want)
		}
	}
}

func TestResourcesSearchableByName(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, "testdata/catalog")
	hits := searchHits(t, x, ext.KindResource, "usage statistics", 5, ext.Filter{})
	if len(hits) == 0 || hits[0].URI != "notes://stats" {
		t.Errorf("got %v, want notes://stats (named usage-statistics) first", names(hits))
	}
	hits = searchHits(t, x, ext.KindResource, "application/json", 5, ext.Filter{})
	if len(hits) != 1 || hits[0].URI != "notes://inbox" {
		t.Errorf("by MIME type: got %v, want notes://inbox", names(hits))
	}
}

// TestLigaturesInCatalogs: a description with a ligature (text copied from
// a PDF) is found by the plain word, and the other way round.
func TestLigaturesInCatalogs(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, writeCatalog(t, map[string]string{
		"pdf.json": `{"server":"pdf","tools":[{"name":"extract","description":"Extract the text of a scanned ﬁle.","inputSchema":{"type":"object"}}]}`,
	}))
	for _, q := range []string{"scanned file", "scanned ﬁle"} {
		if got := names(searchHits(t, x, ext.KindTool, q, 3, ext.Filter{})); len(got) == 0 || got[0] != "pdf__extract" {
			t.Errorf("%q: got %v, want pdf__extract", q, got)
		}
	}
}

// TestCompatibilityFormsInCatalogs: catalog text and queries are read in
// the same compatibility form, whatever splits their words: a description
// that writes S3 in full-width letters (typed on a Japanese keyboard) or
// CO2 with a subscript is found by the plain words and by its own.
func TestCompatibilityFormsInCatalogs(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, writeCatalog(t, map[string]string{
		"cloud.json": `{"server":"cloud","tools":[` +
			`{"name":"buckets","description":"List the buckets of Ｓ３.","inputSchema":{"type":"object"}},` +
			`{"name":"emissions","description":"Report the CO₂ of a flight.","inputSchema":{"type":"object"}}]}`,
	}))
	for q, want := range map[string]string{"s3": "cloud__buckets", "Ｓ３": "cloud__buckets", "co2": "cloud__emissions", "CO₂": "cloud__emissions"} {
		if got := names(searchHits(t, x, ext.KindTool, q, 3, ext.Filter{})); len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s", q, got, want)
		}
	}
}

// TestExactNameInCompatibilityForm: a query that is an item's whole name,
// as the catalog writes it, is its exact name though the query is read in
// compatibility form: here a name with decomposed accents (as macOS writes
// file names) and one in full-width letters.
func TestExactNameInCompatibilityForm(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ze\u0301brule_list", "ｆｅｔｃｈ＿ｐａｇｅ"} {
		x := mustBuild(t, writeCatalog(t, map[string]string{
			"docs.json": `{"server":"docs","tools":[{"name":"` + name + `","description":"Write it.","inputSchema":{"type":"object"}}]}`,
		}))
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: name, Limit: 1, Explain: true})
		if err != nil || len(page.Items) == 0 {
			t.Fatalf("%q: got %v, %v; want the tool", name, page, err)
		}
		if e := page.Items[0].Explain.(*Explanation); e.Rerank == nil || !e.Rerank.ExactName {
			t.Errorf("%q: re-ranking signals %+v, want the exact name", name, e.Rerank)
		}
	}
}
