package eval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// The everyday and off-catalog sets: requests written for mcpsearch over
// the default catalog (see their SOURCE.md).
const (
	everydayPath   = "testdata/everyday/queries.jsonl"
	offCatalogPath = "testdata/offcatalog/queries.jsonl"
	freshPath      = "testdata/fresh/queries.jsonl"
	broadPath      = "testdata/broad/queries.jsonl"
	broadNegPath   = "testdata/broad/negatives.jsonl"
	defaultCatalog = "../../../functions/search/catalog"
)

// languages are the languages besides English the sets must hold.
var languages = []string{"de", "es", "fr", "ja", "pt", "zh"}

func loadSet(t *testing.T, path string) []Query {
	t.Helper()
	qs, err := LoadQueries(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestOwnSetsLoad: every request has a qid, a text, a split, a language and
// a domain; everyday requests have gold, off-catalog ones none.
func TestOwnSetsLoad(t *testing.T) {
	for path, want := range map[string]struct {
		min  int
		gold bool
	}{everydayPath: {160, true}, offCatalogPath: {110, false}, freshPath: {120, true}, broadPath: {300, true}, broadNegPath: {200, false}} {
		qs := loadSet(t, path)
		if len(qs) < want.min {
			t.Errorf("%s: %d requests, want at least %d", path, len(qs), want.min)
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if q.QID == "" || strings.TrimSpace(q.Query) == "" || q.Lang == "" || q.Domain == "" || q.Split == nil {
				t.Errorf("%s: %+v lacks a qid, text, language, domain or split", path, q)
			}
			if seen[q.QID] {
				t.Errorf("%s: qid %s twice", path, q.QID)
			}
			seen[q.QID] = true
			if hasGold := len(q.RelevantGroups) > 0 || len(q.Relevant) > 0; hasGold != want.gold {
				t.Errorf("%s: %s has gold %v, want gold: %v", path, q.QID, q.RelevantGroups, want.gold)
			}
			for _, g := range q.RelevantGroups {
				if len(g) == 0 {
					t.Errorf("%s: %s has an empty gold group", path, q.QID)
				}
			}
		}
	}
}

// TestEverydayGoldInDefaultCatalog: every gold id is the canonical name of
// a tool of the default catalog.
func TestEverydayGoldInDefaultCatalog(t *testing.T) {
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool {
			tools[it.Name] = true
		}
	}
	for _, q := range slices.Concat(loadSet(t, everydayPath), loadSet(t, freshPath), loadSet(t, broadPath)) {
		for _, group := range append([][]string{q.Relevant}, q.RelevantGroups...) {
			for _, id := range group {
				if !tools[id] {
					t.Errorf("%s %q: gold %s is no tool of the default catalog", q.QID, q.Query, id)
				}
			}
		}
	}
}

// TestOwnSetsSplitsBalanced: the dev and test halves hold the same number
// of requests, give or take one, and of each language, domain and typo
// stratum, give or take two.
func TestOwnSetsSplitsBalanced(t *testing.T) {
	for _, path := range []string{everydayPath, offCatalogPath, freshPath} {
		counts := map[string]map[string]int{}
		add := func(stratum, split string) {
			if counts[stratum] == nil {
				counts[stratum] = map[string]int{}
			}
			counts[stratum][split]++
		}
		for _, q := range loadSet(t, path) {
			split := *q.Split
			if split != "dev" && split != "test" {
				t.Fatalf("%s: %s has split %q, want dev or test", path, q.QID, split)
			}
			add("all", split)
			add("lang "+q.Lang, split)
			add("domain "+q.Domain, split)
			if q.Typo {
				add("typo", split)
			}
		}
		for stratum, c := range counts {
			slack := 2
			if stratum == "all" {
				slack = 1
			}
			if d := c["dev"] - c["test"]; d > slack || -d > slack {
				t.Errorf("%s: %s: %d dev, %d test", path, stratum, c["dev"], c["test"])
			}
		}
	}
}

// TestOwnSetsShares: about a fifth of the requests are in other languages
// than English, each of the six present, and a tenth of the everyday ones
// have typos.
func TestOwnSetsShares(t *testing.T) {
	for _, path := range []string{everydayPath, offCatalogPath} {
		qs := loadSet(t, path)
		byLang := map[string]int{}
		typos := 0
		for _, q := range qs {
			byLang[q.Lang]++
			if q.Typo {
				typos++
			}
		}
		other := float64(len(qs)-byLang["en"]) / float64(len(qs))
		if other < 0.18 || other > 0.30 {
			t.Errorf("%s: %.2f of the requests in other languages than English, want about 0.2", path, other)
		}
		for _, lang := range languages {
			if byLang[lang] < 3 {
				t.Errorf("%s: %d requests in %s, want at least 3", path, byLang[lang], lang)
			}
		}
		if share := float64(typos) / float64(len(qs)); path == everydayPath && share < 0.09 {
			t.Errorf("%s: %.2f of the requests with typos, want about 0.1", path, share)
		}
	}
}

// TestOwnSetsDisjoint: no off-catalog request shares a qid or a text with an
// everyday one.
func TestOwnSetsDisjoint(t *testing.T) {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	everyday := map[string]string{}
	for _, q := range loadSet(t, everydayPath) {
		everyday[q.QID] = q.Query
		everyday[norm(q.Query)] = q.QID
	}
	for _, q := range loadSet(t, offCatalogPath) {
		if _, dup := everyday[q.QID]; dup {
			t.Errorf("qid %s is in both sets", q.QID)
		}
		if other, dup := everyday[norm(q.Query)]; dup {
			t.Errorf("%s and %s are both %q", q.QID, other, q.Query)
		}
	}
}

// TestBuildCatalog: a catalog directory is built as it is, its tools known
// by their canonical names, and gold naming no tool fails with the query and
// the id.
func TestBuildCatalog(t *testing.T) {
	set, err := BuildCatalog("../../../index/testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	q := Query{QID: "w1", Query: "weather forecast for Paris", RelevantGroups: [][]string{{"weather__get_forecast"}}}
	if err := set.CheckGold([]Query{q}); err != nil {
		t.Fatal(err)
	}
	r, err := set.Search(context.Background(), q, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Ranked) == 0 || r.Ranked[0] != "weather__get_forecast" {
		t.Errorf("got %v, want weather__get_forecast first", r.Ranked)
	}
	bad := Query{QID: "w2", Query: "forecast", Relevant: []string{"weather__get_forecast", "weather__get_radar"}}
	if err := set.CheckGold([]Query{q, bad}); err == nil || !strings.Contains(err.Error(), "w2") || !strings.Contains(err.Error(), "weather__get_radar") {
		t.Errorf("got %v, want an error naming w2 and weather__get_radar", err)
	}
}
