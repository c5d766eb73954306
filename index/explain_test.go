package index

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestExplain(t *testing.T) {
	x := defaultIndex(t)
	ctx := context.Background()
	q := ext.Query{Kind: ext.KindTool, Text: "take a screenshot of the page", Limit: 5}
	plain, err := x.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range plain.Items {
		if h.Explain != nil {
			t.Errorf("hit %d: explanation without asking: %+v", i, h.Explain)
		}
	}
	q.Explain = true
	explained, err := x.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(explained.Items) != len(plain.Items) || len(plain.Items) == 0 {
		t.Fatalf("got %d hits explained, %d plain; want the same, more than 0", len(explained.Items), len(plain.Items))
	}
	for i, h := range explained.Items {
		if h.Score != plain.Items[i].Score || string(h.Object) != string(plain.Items[i].Object) {
			t.Errorf("hit %d: explaining changed the ranking: score %v, want %v", i, h.Score, plain.Items[i].Score)
		}
		e, ok := h.Explain.(*Explanation)
		if !ok {
			t.Fatalf("hit %d: Explain is %T, want *Explanation", i, h.Explain)
		}
		checkExplanation(t, i, e, h.Score)
	}
	top := explained.Items[0].Explain.(*Explanation)
	if !strings.Contains(string(explained.Items[0].Object), "browser_take_screenshot") {
		t.Fatalf("top hit %s, want browser_take_screenshot", explained.Items[0].Object)
	}
	if !hasTerm(top, "description", "screenshot") || !hasTerm(top, "name", "screenshot") {
		t.Errorf("top explanation %q: want screenshot matched in description and name", top.Summary)
	}
	for _, part := range []string{"description: ", "screenshot (", "; re-ranked: bm25 share ", "name coverage "} {
		if !strings.Contains(top.Summary, part) {
			t.Errorf("top summary %q: want %q in it", top.Summary, part)
		}
	}
	if r := top.Rerank; r == nil || !slices.Contains(r.NameWordsMatched, "screenshot") || slices.Contains(r.NameWordsMatched, "browser") {
		t.Errorf("top re-ranking %+v: want screenshot and not browser among the matched name words", top.Rerank)
	}
}

// checkExplanation checks that the terms add up to the fields, the fields
// to the BM25 score, and the signals to the final score.
func checkExplanation(t *testing.T, i int, e *Explanation, score float64) {
	t.Helper()
	sum := 0.0
	for _, f := range e.Fields {
		terms := 0.0
		for _, tm := range f.Terms {
			terms += tm.Score
		}
		if math.Abs(terms-f.Score) > 0.05 {
			t.Errorf("hit %d field %s: terms add up to %.2f, field says %.2f", i, f.Field, terms, f.Score)
		}
		sum += f.Score
	}
	if math.Abs(sum-e.BM25) > 0.05 {
		t.Errorf("hit %d: fields add up to %.2f, want the BM25 score %.2f (%s)", i, sum, e.BM25, e.Summary)
	}
	if r := e.Rerank; r != nil {
		got := r.BM25Share + r.Name + r.ActionScore + r.ExactNameScore + r.SimilarityScore + r.ClauseScore
		if math.Abs(got-score) > 0.05 {
			t.Errorf("hit %d: signals add up to %.2f, want the score %.2f (%s)", i, got, score, e.Summary)
		}
	}
	if math.Abs(e.Score-score) > 0.01 || e.Summary == "" {
		t.Errorf("hit %d: explanation score %.2f summary %q, want %.2f and a summary", i, e.Score, e.Summary, score)
	}
}

func hasTerm(e *Explanation, field, term string) bool {
	for _, f := range e.Fields {
		for _, tm := range f.Terms {
			if f.Field == field && tm.Term == term && tm.Score > 0 {
				return true
			}
		}
	}
	return false
}

func TestExplainPastTheWindow(t *testing.T) {
	x := defaultIndex(t)
	// The window holds the best rerankWindow by BM25 and at most
	// denseCandidates items that join it by their word vectors.
	past := rerankWindow + denseCandidates
	q := ext.Query{Kind: ext.KindTool, Text: "list files in a repository", Offset: past, Limit: 3, Explain: true}
	page, err := x.Search(context.Background(), q)
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("got %v, %v; want a page past the re-ranking window", page, err)
	}
	for i, h := range page.Items {
		e := h.Explain.(*Explanation)
		if e.Rerank != nil {
			t.Errorf("hit %d past the window has re-ranking signals %+v", past+i, e.Rerank)
		}
		checkExplanation(t, past+i, e, h.Score)
		if math.Abs(e.BM25-h.Score) > 0.01 {
			t.Errorf("hit %d: BM25 %.2f, want the score %.2f (not re-ranked)", past+i, e.BM25, h.Score)
		}
	}
}

func TestDescribe(t *testing.T) {
	info := defaultIndex(t).Describe()
	if len(info.Servers) != 67 || info.Counts[ext.KindTool] != 4584 || info.BundleBytes <= 0 || info.BuiltAt.IsZero() {
		t.Errorf("got %d servers, %d tools, %d bytes, built %v; want 67, 4584, a size and a time",
			len(info.Servers), info.Counts[ext.KindTool], info.BundleBytes, info.BuiltAt)
	}
	tools := 0
	for _, s := range info.Servers {
		tools += s.Counts[ext.KindTool]
	}
	if tools != info.Counts[ext.KindTool] {
		t.Errorf("servers hold %d tools, the counts say %d", tools, info.Counts[ext.KindTool])
	}
	if info.Restricted {
		t.Error("a catalog of public items is described as restricted")
	}
}

// TestDescribeRestricted: a catalog whose items are not all public names
// no server and counts nothing, since the description reaches every caller.
func TestDescribeRestricted(t *testing.T) {
	info := mustBuild(t, restrictedCatalog(t, defaultCatalog, 4)).Describe()
	if !info.Restricted || len(info.Servers) != 0 || len(info.Counts) != 0 || info.BundleBytes <= 0 {
		t.Errorf("got %+v; want restricted, with no servers or counts", info)
	}
}
