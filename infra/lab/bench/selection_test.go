package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/searchclient"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// TestMeasureSelection runs the selection through the client against the
// server over HTTP on a set whose tool ids are not canonical names, and
// checks the landed tools against the gold.
func TestMeasureSelection(t *testing.T) {
	weather, notes := "Weather Service", "Notes"
	set, err := eval.Build([]eval.Tool{
		{ID: "w::forecast", Name: "get_forecast", Description: "Get the weather forecast for a city", Server: &weather},
		{ID: "w::search", Name: "search", Description: "Search places by name", Server: &weather},
		{ID: "n::create", Name: "create_note", Description: "Create a note", Server: &notes},
		{ID: "n::delete", Name: "delete_note", Description: "Delete a note", Server: &notes},
		{ID: "n::list", Name: "list_notes", Description: "List the notes", Server: &notes},
		{ID: "n::search", Name: "search", Description: "Search the notes", Server: &notes},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	h := server.New(set.Index(), &server.Options{Logger: slog.New(slog.DiscardHandler)})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := searchclient.Connect(context.Background(), srv.URL+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	queries := []eval.Query{
		{QID: "forecast", Query: "weather forecast for tomorrow", RelevantGroups: [][]string{{"w::forecast"}}},
		{QID: "two", Query: "delete a note and get the weather forecast", RelevantGroups: [][]string{{"n::delete"}, {"w::forecast"}}},
		{QID: "absent", Query: "weather forecast", RelevantGroups: [][]string{{"n::list"}}},
	}
	outcomes, err := MeasureSelection(context.Background(), []*searchclient.Client{c}, queries, set.GoldID, []int{1, 6})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range outcomes {
		got = append(got, fmt.Sprintf("%s %d/%d %d/%d", o.Query.QID, o.Landed[1], o.Needed, o.Landed[6], o.Needed))
		if o.Tokens[1] <= 0 || o.Tokens[6] < o.Tokens[1] || len(o.Latency) != 2 {
			t.Errorf("%s: tokens %v, latencies %v; want tokens that grow with the budget, two latencies", o.Query.QID, o.Tokens, o.Latency)
		}
	}
	if want := "[forecast 1/1 1/1 two 1/2 2/2 absent 0/1 0/1]"; fmt.Sprint(got) != want {
		t.Errorf("got %v, want %s", got, want)
	}
	tools, tokens, err := ListTokens(h)
	if err != nil || tools != 6 || tokens < outcomes[1].Tokens[6] {
		t.Errorf("ListTokens: %d tools, %d tokens, %v; want 6 tools and at least the %d of a selection of them", tools, tokens, err, outcomes[1].Tokens[6])
	}
}

// TestSelectPinsFromTheServer: against the real server, pinned tools come
// from its select: answer, an unknown one is missing, and tools/list is
// never walked.
func TestSelectPinsFromTheServer(t *testing.T) {
	set, err := eval.BuildCatalog("../../../index/testdata/catalog")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	h := server.New(set.Index(), &server.Options{Logger: slog.New(slog.DiscardHandler)})
	var lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"tools/list"`) {
			lists.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c, err := searchclient.Connect(context.Background(), srv.URL+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sel, err := searchclient.Select(context.Background(), []*searchclient.Client{c}, "weather forecast", searchclient.Budget{Tools: 3},
		&searchclient.SelectOptions{Pinned: []string{"notes__list_notes", "notes__nothing"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range sel.Tools {
		got = append(got, fmt.Sprintf("%s:%v", tl.Canonical, tl.Pinned))
	}
	if len(got) == 0 || got[0] != "notes__list_notes:true" || !slices.Contains(got, "weather__get_forecast:false") {
		t.Errorf("got %v, want notes__list_notes pinned first, then weather__get_forecast among those found", got)
	}
	if fmt.Sprint(sel.Missing) != "[notes__nothing]" || lists.Load() != 0 {
		t.Errorf("missing %v, %d tools/list requests; want [notes__nothing] and none", sel.Missing, lists.Load())
	}
}

func TestSummariseSelection(t *testing.T) {
	ms := time.Millisecond
	outcomes := []SelectionOutcome{
		{Needed: 1, Landed: map[int]int{5: 1, 10: 1}, Tokens: map[int]int{5: 100, 10: 200}, Latency: []time.Duration{1 * ms, 2 * ms}},
		{Needed: 2, Landed: map[int]int{5: 1, 10: 2}, Tokens: map[int]int{5: 50, 10: 90}, Latency: []time.Duration{3 * ms, 4 * ms}},
		{Needed: 1, Landed: map[int]int{5: 0, 10: 0}, Tokens: map[int]int{5: 10, 10: 20}, Latency: []time.Duration{5 * ms, 6 * ms}},
	}
	s := SummariseSelection(outcomes, []int{5, 10})
	got := fmt.Sprintf("%d %d landed %v complete %v tokens %v recall %.3f %.3f p50 %v", s.Queries, s.Needed, s.Landed, s.Complete, s.Tokens, s.Recall[5], s.Recall[10], s.P50)
	const want = "3 4 landed map[5:2 10:3] complete map[5:1 10:2] tokens map[5:160 10:310] recall 0.500 0.667 p50 4ms"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
