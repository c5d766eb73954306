package index

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestConcurrentSearches: one index answers many callers at once (the
// HTTP server does), and answers each as it answers it alone. The index is
// opened cold, so the tables read on first use (filter names, word
// tables, pools) are read under contention. Run with -race (make
// test-race) it also finds unsynchronised state.
func TestConcurrentSearches(t *testing.T) {
	t.Parallel()
	queries := concurrencyQueries()
	want := make([]string, len(queries))
	alone := defaultIndex(t)
	withItems := 0
	for i, q := range queries {
		want[i] = pageJSON(t, alone, q)
		if strings.Contains(want[i], `"Items":[{`) {
			withItems++
		}
	}
	if withItems < len(queries)-2 { // the pizza and the Japanese request may find nothing
		t.Fatalf("%d of %d queries find items alone: the comparison would prove little", withItems, len(queries))
	}
	cold := defaultIndex(t)
	const callers = 8
	got := make([][]string, callers)
	var wg sync.WaitGroup
	for c := range callers {
		got[c] = make([]string, len(queries))
		wg.Go(func() {
			for k := range queries {
				i := (k + c*3) % len(queries) // each caller starts elsewhere
				got[c][i] = pageJSON(t, cold, queries[i])
			}
		})
	}
	wg.Wait()
	for c := range callers {
		for i, q := range queries {
			if got[c][i] != want[i] {
				t.Errorf("caller %d, %q: the page differs from the one answered alone:\n got %.300s\nwant %.300s", c, q.Text, got[c][i], want[i])
			}
		}
	}
}

// concurrencyQueries reach the search's paths: plain, named server, typo,
// Chinese and Japanese, near miss, no match, explanations, filters, a
// second page, and another kind.
func concurrencyQueries() []ext.Query {
	var qs []ext.Query
	for _, text := range append(append([]string{}, benchQueries...),
		"send a slack message", "craete a pul request", "在飞书群里发一条消息", "ファイルを削除して",
		"read a file from s3", "order a large pepperoni pizza", "read a ﬁle") {
		qs = append(qs, ext.Query{Kind: ext.KindTool, Text: text, Limit: 5})
	}
	return append(qs,
		ext.Query{Kind: ext.KindTool, Text: "create an issue", Limit: 5, Explain: true},
		ext.Query{Kind: ext.KindTool, Text: "create an issue", Limit: 5, Filter: ext.Filter{Servers: []string{"mcp-gitlab"}}},
		ext.Query{Kind: ext.KindTool, Text: "delete", Limit: 5, Filter: ext.Filter{Annotations: map[string]any{"destructiveHint": true}}},
		ext.Query{Kind: ext.KindTool, Text: "list files", Limit: 5, Offset: 5},
		ext.Query{Kind: ext.KindPrompt, Text: "review code", Limit: 5},
	)
}

// pageJSON is the page x answers q with, as JSON.
func pageJSON(t *testing.T, x *Index, q ext.Query) string {
	page, err := x.Search(context.Background(), q)
	if err != nil {
		t.Errorf("%q: %v", q.Text, err)
		return ""
	}
	data, err := json.Marshal(page)
	if err != nil {
		t.Errorf("%q: %v", q.Text, err)
	}
	return string(data)
}
