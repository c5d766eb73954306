package eval

import (
	"context"
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScore(t *testing.T) {
	two := Query{QID: "q1", RelevantGroups: [][]string{{"a", "a2"}, {"b"}}}
	one := Query{QID: "q2", Relevant: []string{"c"}}
	results := []Result{
		{Query: two, Ranked: []string{"x", "a", "a2", "b"}},
		{Query: one, Ranked: []string{"y", "z"}},
	}
	m := Score(results, []int{1, 2, 10})
	// q1: groups hit at ranks 2 (a) and 4 (b); a2 is a second member of a's
	// group and earns nothing. q2: nothing found.
	wantNDCG := ((1/math.Log2(3) + 1/math.Log2(5)) / (1 + 1/math.Log2(3))) / 2
	for name, got := range map[string][2]float64{
		"R@1":     {m.Recall[1], 0},
		"R@2":     {m.Recall[2], 0.25},
		"R@10":    {m.Recall[10], 0.5},
		"nDCG@10": {m.NDCG10, wantNDCG},
		"MRR":     {m.MRR, 0.25},
	} {
		if !near(got[0], got[1]) {
			t.Errorf("%s: got %v, want %v", name, got[0], got[1])
		}
	}
}

// TestScoreEmpty: Empty is the share of queries that got no items.
func TestScoreEmpty(t *testing.T) {
	q := Query{QID: "q", Relevant: []string{"a"}}
	m := Score([]Result{{Query: q, Ranked: []string{"a"}}, {Query: q}, {Query: q}, {Query: q, Ranked: []string{"b"}}}, []int{1})
	if !near(m.Empty, 0.5) {
		t.Errorf("Empty %v, want 0.5", m.Empty)
	}
}

// TestScoreHintedRightFirst: the share of the pages whose first item is
// relevant that carry a hint; a hint on a wrong or empty page counts
// nowhere.
func TestScoreHintedRightFirst(t *testing.T) {
	q := Query{QID: "q", Relevant: []string{"a"}}
	m := Score([]Result{
		{Query: q, Ranked: []string{"a"}, Hint: "the best match lacks x"},
		{Query: q, Ranked: []string{"a", "b"}},
		{Query: q, Ranked: []string{"a"}},
		{Query: q, Ranked: []string{"b", "a"}, Hint: "lacks y"},
		{Query: q, Hint: "no item fits"},
	}, []int{1})
	if m.RightFirst != 3 || !near(m.HintedRightFirst, 1.0/3) {
		t.Errorf("RightFirst %d, HintedRightFirst %v; want 3 and 1/3", m.RightFirst, m.HintedRightFirst)
	}
	// PerQuery, which the mixed measure pools, counts the same
	right, hinted := 0.0, 0.0
	for _, f := range PerQuery([]Result{
		{Query: q, Ranked: []string{"a"}, Hint: "the best match lacks x"},
		{Query: q, Ranked: []string{"a", "b"}},
		{Query: q, Ranked: []string{"b", "a"}, Hint: "lacks y"},
		{Query: q, Hint: "no item fits"},
	}) {
		right, hinted = right+f.RightFirst, hinted+f.Hinted
	}
	if right != 2 || hinted != 1 {
		t.Errorf("PerQuery: %v right first, %v of them hinted; want 2 and 1", right, hinted)
	}
}

func TestBuildAndSearch(t *testing.T) {
	server := "My Server"
	tools := []Tool{
		{ID: "s::forecast", Name: "get_forecast", Description: "Weather forecast for a city", Server: &server},
		{ID: "s::stations", Name: "list_stations", Description: "Weather stations near a place", Server: &server},
		{ID: "other", Name: "send_email", Description: "Send an email"},
	}
	set, err := Build(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	r, err := set.Search(context.Background(), Query{QID: "q", Query: "weather forecast for Paris"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Ranked) == 0 || r.Ranked[0] != "s::forecast" {
		t.Errorf("got %v, want s::forecast first", r.Ranked)
	}
}

func TestClip(t *testing.T) {
	long := ""
	for range 300 {
		long += "word "
	}
	if got := len(clip(long)); got > 4096 || got == 0 {
		t.Errorf("clip kept %d bytes", got)
	}
}

// TestToolRequestsReachTheIndex: a tools.jsonl line's written requests are
// evidence for the index, as a catalog's are: a request that shares no
// word with the tool's name or description finds it.
func TestToolRequestsReachTheIndex(t *testing.T) {
	tools := []Tool{
		{ID: "recon", Name: "run_recon", Description: "Nightly recon job"},
		{ID: "mail", Name: "send_email", Description: "Send an email"},
	}
	query := Query{QID: "q", Query: "balance the ledger accounts for the auditors"}
	ranked := func(tools []Tool) []string {
		t.Helper()
		set, err := Build(tools)
		if err != nil {
			t.Fatal(err)
		}
		defer set.Close()
		r, err := set.Search(context.Background(), query, 10)
		if err != nil {
			t.Fatal(err)
		}
		return r.Ranked
	}
	if got := ranked(tools); len(got) > 0 && got[0] == "recon" {
		t.Fatalf("without requests the query already finds recon first (%v): the test proves nothing", got)
	}
	tools[0].Requests = []string{"balance the ledger accounts for the auditors", "reconcile the books at month end"}
	if got := ranked(tools); len(got) == 0 || got[0] != "recon" {
		t.Errorf("with requests got %v, want recon first", got)
	}
}
