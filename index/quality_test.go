package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestRetrievalTables checks the behaviours the ranking is built for, each
// on real tools of the default catalog.
func TestRetrievalTables(t *testing.T) {
	x := defaultIndex(t)
	for _, test := range []struct {
		about, query string
		top          int
		want         func(name, description string) bool
	}{
		{"synonym: remove means delete", "remove a file", 3, func(n, d string) bool {
			return strings.Contains(n, "delete") && strings.Contains(strings.ToLower(n+d), "file")
		}},
		{"typo: kubernets", "kubernets pods", 3, func(n, _ string) bool {
			return strings.HasPrefix(n, "kubernetes") && strings.Contains(n, "pods_list")
		}},
		{"typo: two edits in a long word", "screnshoot of the page", 3, func(n, _ string) bool { return strings.Contains(n, "screenshot") }},
		{"exact name first", "browser_take_screenshot", 1, func(n, _ string) bool { return n == "playwright__browser_take_screenshot" }},
		{"exact canonical name first", "mcp-github__merge_pull_request", 1, func(n, _ string) bool { return n == "mcp-github__merge_pull_request" }},
		{"abbreviation: k8s", "k8s pods", 3, func(n, _ string) bool { return strings.HasPrefix(n, "kubernetes") }},
		{"abbreviation: pr", "open a pr", 3, func(n, _ string) bool {
			return strings.Contains(strings.ToLower(n), "pullrequest") || strings.Contains(n, "pull_request")
		}},
		{"acronym in a camelCase name", "take app screenshot", 3, func(n, _ string) bool { return n == "browserstack__takeAppScreenshot" }},
	} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: test.query, Limit: test.top})
		if err != nil {
			t.Fatalf("%s: %v", test.about, err)
		}
		found := false
		var got []string
		for _, h := range page.Items {
			var obj hitInfo
			decode(t, h.Object, &obj)
			got = append(got, obj.Name)
			found = found || test.want(obj.Name, obj.Description)
		}
		if !found {
			t.Errorf("%s: %q gave %v", test.about, test.query, got)
		}
	}
}

func TestSiblingActions(t *testing.T) {
	x := mustBuild(t, "testdata/siblings")
	for _, test := range []struct{ query, above, below string }{
		{"show me the keys in vault X", "vault__list_keys", "vault__get_key"},
		{"show me the key named signing in vault X", "vault__get_key", "vault__list_keys"},
		{"remove the signing key from vault X", "vault__delete_key", "vault__get_key"},
		{"add a key to vault X", "vault__create_key", "vault__get_key"},
		{"change the value of secret db in vault X", "vault__set_secret", "vault__get_secret"},
		{"read secret db in vault X", "vault__get_secret", "vault__set_secret"},
	} {
		got := names(searchHits(t, x, ext.KindTool, test.query, 10, ext.Filter{}))
		a, b := slices.Index(got, test.above), slices.Index(got, test.below)
		if a < 0 || (b >= 0 && a > b) {
			t.Errorf("%q: got %v, want %s above %s", test.query, got, test.above, test.below)
		}
	}
}

// TestNothingFits: a query about something no item offers gets an empty
// page with a hint, not five weak matches.
func TestNothingFits(t *testing.T) {
	x := defaultIndex(t)
	for _, q := range []string{"order a pizza", "knit a wool scarf for my grandmother", "soothe a sunburn", "/.*/"} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 0 || page.Hint == "" {
			t.Errorf("%q: got %d items and hint %q, want none and a hint", q, len(page.Items), page.Hint)
		}
	}
	// A query in another language or script is searched, not refused.
	for _, q := range []string{"ウェブページのスクリーンショット", "créer une merge request", "截图"} {
		if _, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5}); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

// TestWordNetBridgesWords: a tool that says "buy" is found for "purchase",
// through the WordNet synonyms indexed beside its description.
func TestWordNetBridgesWords(t *testing.T) {
	if !slices.Contains(related["bui"], "purchase") && !slices.Contains(related[analyze("buy")[0]], "purchase") {
		t.Fatalf("the embedded WordNet table has no buy → purchase: %v", related[analyze("buy")[0]])
	}
	x := mustBuild(t, "testdata/shop")
	// Only "purchase" can match: the tools say buy, put and follow.
	got := names(searchHits(t, x, ext.KindTool, "please help me purchase something nice for my family this weekend", 3, ext.Filter{}))
	if len(got) == 0 || got[0] != "shop__checkout" {
		t.Errorf("got %v, want shop__checkout first", got)
	}
}

// TestCJKQueries: Chinese text is indexed and searched as bigrams.
func TestCJKQueries(t *testing.T) {
	x := mustBuild(t, "testdata/cjk")
	for q, want := range map[string]string{"网页截图": "cn__page_capture", "必应搜索关键词": "cn__web_search", "火车票": "cn__train_tickets"} {
		got := names(searchHits(t, x, ext.KindTool, q, 3, ext.Filter{}))
		if len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", q, got, want)
		}
	}
}

// TestChineseGlosses: English queries find tools described in Chinese
// only, and Chinese queries (simplified or traditional) English tools,
// through the CC-CEDICT glosses (gloss.go).
func TestChineseGlosses(t *testing.T) {
	x := mustBuild(t, "testdata/cjk")
	for _, test := range []struct {
		query, want string
		top         int
	}{
		{"shopping deals and product recommendations", "hub__get-smzdm-rank", 1},
		{"popular movies and books right now", "hub__get-douban-rank", 1},
		{"weather forecast for a city", "hub__tianqi", 2},
		{"天气预报", "en__forecast", 2},
		{"天氣預報", "en__forecast", 2}, // traditional characters fold to simplified
		{"股票", "en__stock_quote", 1},
	} {
		got := names(searchHits(t, x, ext.KindTool, test.query, test.top, ext.Filter{}))
		if !slices.Contains(got, test.want) {
			t.Errorf("%q: got %v, want %s in the first %d", test.query, got, test.want, test.top)
		}
	}
}

// TestFilePathsInQueries: a file path in a query stands for a file of its
// type, not for the words of its directories (paths.go).
func TestFilePathsInQueries(t *testing.T) {
	x := mustBuild(t, "testdata/files")
	for _, test := range []struct {
		query, want string
		top         int
	}{
		{"summarize the release notes and save them to /root/markdown/notes.md", "files__write_file", 3},
		{"save the summary in /root/markdown/summary.md", "files__write_file", 1},
		{`read C:\Users\me\Documents\todo.txt`, "files__read_file", 1},
	} {
		got := names(searchHits(t, x, ext.KindTool, test.query, test.top, ext.Filter{}))
		if !slices.Contains(got, test.want) {
			t.Errorf("%q: got %v, want %s in the first %d", test.query, got, test.want, test.top)
		}
	}
}
