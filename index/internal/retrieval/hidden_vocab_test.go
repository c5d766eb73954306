package retrieval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// The catalog of the hidden-vocabulary tests: an ops-only server whose
// tools hold words no public item holds (zanzibarite, quarantine) and
// words public items hold too (forecast), and a public server.
var (
	hiddenOpsServer = `{"server":"secret","visibility":{"groups":["ops"]},"tools":[
		{"name":"launch","description":"Launch the zanzibarite reactor","inputSchema":{"type":"object"}},
		{"name":"isolate","description":"Quarantine a compromised host and its forecast","inputSchema":{"type":"object"}}]}`
	hiddenPublicServer = `{"server":"open","tools":[
		{"name":"weather","description":"Show the weather forecast for a city","inputSchema":{"type":"object"}},
		{"name":"rain","description":"Rain forecast","inputSchema":{"type":"object"}},
		{"name":"wind","description":"Wind forecast for sailors","inputSchema":{"type":"object"}},
		{"name":"tides","description":"Tide tables of a harbour","inputSchema":{"type":"object"}},
		{"name":"host","description":"List the hosts of a network","inputSchema":{"type":"object"}}]}`
)

// hiddenVocabularyQueries are words only hidden items hold, typos of them,
// words run together with them, and words no item holds, alone and beside
// words the caller sees.
var hiddenVocabularyQueries = []string{
	"zanzibarite", "zanzibarote", "zanzibarite forecast", "zanzibarote forecast", "quixotrelix forecast",
	"quarantine host", "quarantime host", "quixotrelix host", "forecastzanzibarite", "reactor weather",
	"forecast", "wind forecast", "tide",
}

// TestHiddenVocabularyIsUnknown: a caller who may not see the ops server
// gets, for every query, the items, hint and paging it would get from the
// catalog without that server — a word only hidden items hold, or a typo
// of one, is an unknown word. Scores are compared apart (see
// TestHiddenItemsScores).
func TestHiddenVocabularyIsUnknown(t *testing.T) {
	t.Parallel()
	full := retrievaltest.Files(t, map[string]string{"secret.json": hiddenOpsServer, "open.json": hiddenPublicServer})
	without := retrievaltest.Files(t, map[string]string{"open.json": hiddenPublicServer})
	public := ext.Access{}
	for _, query := range hiddenVocabularyQueries {
		for _, filter := range []ext.Filter{{}, {Servers: []string{"secret"}}, {Servers: []string{"open", "secret"}}} {
			q := ext.Query{Kind: ext.KindTool, Text: query, Limit: 3, Filter: filter}
			got, want := pageShape(t, full, public, q), pageShape(t, without, public, q)
			if got != want {
				t.Errorf("%q, filter %v: got %s,\nwant what the catalog without the hidden server gives: %s", query, filter.Servers, got, want)
			}
		}
	}
}

// pageShape is what a caller reads of a page but its scores: the items'
// names in order, whether more follow, and the hint.
func pageShape(tb testing.TB, x *retrievaltest.Bundle, a ext.Access, q ext.Query) string {
	tb.Helper()
	page, err := x.Page(context.Background(), q, a)
	if err != nil {
		return "error: " + err.Error()
	}
	names := make([]string, len(page.Items))
	for i, h := range page.Items {
		var obj struct{ Name string }
		if err := json.Unmarshal(h.Object, &obj); err != nil {
			tb.Fatal(err)
		}
		names[i] = obj.Name
	}
	return fmt.Sprintf("items %v, more %v, hint %q", names, page.More, page.Hint)
}

// TestHiddenWordScoresAsAnUnknownWord: beside words the caller sees, a
// word only hidden items hold, or a typo of one, gives the very page — the
// same items, scores and hint but for the word itself — that a word no
// item holds gives: BM25 counts idf among the items the caller sees.
func TestHiddenWordScoresAsAnUnknownWord(t *testing.T) {
	t.Parallel()
	x := retrievaltest.Files(t, map[string]string{"secret.json": hiddenOpsServer, "open.json": hiddenPublicServer})
	public := ext.Access{}
	for _, c := range []struct{ hidden, nowhere, rest string }{
		{"zanzibarite", "quixotrelix", "show the weather forecast for a city"}, {"zanzibarote", "quixotrelix", "wind forecast for sailors"},
		{"zanzibarite", "quixotrelix", "list the hosts of a network"}, {"zanzibarote", "quixotrelix", "tide tables of a harbour"},
	} {
		page := func(word string) string {
			q := ext.Query{Kind: ext.KindTool, Text: word + " " + c.rest, Limit: 5, Explain: true}
			p, err := x.Page(context.Background(), q, public)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(p)
			return strings.ReplaceAll(string(out), word, "WORD")
		}
		got, want := page(c.hidden), page(c.nowhere)
		if !strings.Contains(want, `"Score"`) {
			t.Fatalf("%q beside %q found nothing: nothing to compare", c.nowhere, c.rest)
		}
		if got != want {
			t.Errorf("%q beside %q:\ngot  %s\nwant what %q gives: %s", c.hidden, c.rest, got, c.nowhere, want)
		}
	}
}
