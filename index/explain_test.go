package index

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

func TestExplain(t *testing.T) {
	t.Parallel()
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
	if !strings.Contains(string(explained.Items[0].Object), "take_screenshot") {
		t.Fatalf("top hit %s, want a take_screenshot tool", explained.Items[0].Object)
	}
	// the default catalog's items carry written requests: the top item's
	// best one is shown, its terms a field of their own
	if top.Request == nil || top.Request.Text == "" || top.Request.Share <= 0 || !hasTerm(top, "written request", "screenshot") ||
		!strings.Contains(top.Summary, "written request "+strconv.Quote(top.Request.Text)+": ") {
		t.Errorf("top explanation %q (request %+v): want its best written request shown, matching screenshot", top.Summary, top.Request)
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
		got := r.BM25Share + r.Name + r.ActionScore + r.ExactNameScore + r.SimilarityScore + r.ClauseScore + r.ServerScore
		if math.Abs(got-score) > 0.05 {
			t.Errorf("hit %d: signals add up to %.2f, want the score %.2f (%s)", i, got, score, e.Summary)
		}
	}
	if math.Abs(e.Score-score) > 0.01 || e.Summary == "" {
		t.Errorf("hit %d: explanation score %.2f summary %q, want %.2f and a summary", i, e.Score, e.Summary, score)
	}
}

// TestExplainServerNamed: a request naming a server explains what naming
// it added, and the signals still add up to the score.
func TestExplainServerNamed(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "tell the team on slack the deploy is done", Limit: 5, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for i, h := range page.Items {
		e := h.Explain.(*Explanation)
		checkExplanation(t, i, e, h.Score)
		if e.Rerank != nil && e.Rerank.ServerScore > 0 {
			named++
			if !strings.Contains(e.Summary, "its server named (+") {
				t.Errorf("hit %d: server score %v, summary %q lacks it", i, e.Rerank.ServerScore, e.Summary)
			}
		}
	}
	if named == 0 {
		t.Errorf("no hit of %d explains a server named", len(page.Items))
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
	t.Parallel()
	x := defaultIndex(t)
	// The window holds the best retrieval.RerankWindow by BM25 and at most
	// retrieval.DenseCandidates items that join it by their word vectors.
	past := retrieval.RerankWindow + retrieval.DenseCandidates
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
	t.Parallel()
	info, err := defaultIndex(t).Describe()
	if err != nil {
		t.Fatal(err)
	}
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
	t.Parallel()
	info, err := restrictedDefaultIndex(t).Describe()
	if err != nil {
		t.Fatal(err)
	}
	if !info.Restricted || len(info.Servers) != 0 || len(info.Counts) != 0 || info.BundleBytes <= 0 {
		t.Errorf("got %+v; want restricted, with no servers or counts", info)
	}
}

// TestExplainMatchesBleve: the fields and terms of an explanation are
// those of bleve's own explanation of the same query on the same
// documents, for every query shape of bm25Queries and for filters.
func TestExplainMatchesBleve(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	queries := []ext.Query{
		{Kind: ext.KindTool, Text: "create an issue", Filter: ext.Filter{Servers: []string{"github", "gitlab"}}},
		{Kind: ext.KindTool, Text: "list files", Filter: ext.Filter{Annotations: map[string]any{"readOnlyHint": true}}},
	}
	for _, kind := range []ext.Kind{ext.KindTool, ext.KindPrompt, ext.KindResource} {
		for _, text := range bm25Queries {
			queries = append(queries, ext.Query{Kind: kind, Text: text})
		}
	}
	for _, q := range queries {
		res := ranked(t, x, q, ext.Access{All: true})
		if res == nil {
			continue
		}
		bq := res.Query
		top, err := bm25Top(context.Background(), x, q.Kind, bq, 20)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(top))
		for i, c := range top {
			ids[i] = c.ID
		}
		ours, err := retrieval.FieldScores(context.Background(), x.RetrievalSource(ext.Access{All: true}), q.Kind, bq, ids)
		if err != nil {
			t.Fatal(err)
		}
		theirs := bleveExplanations(t, x, q.Kind, bq, ids)
		for i, id := range ids {
			if got, want := fmt.Sprint(ours[i]), fmt.Sprint(fieldMatches(theirs[id])); got != want {
				t.Errorf("%s %q, %s: got %s, bleve explains %s", q.Kind, q.Text, id, got, want)
			}
		}
	}
}

// bleveExplanations runs bq with bleve's explanations on documents ids.
func bleveExplanations(t *testing.T, x *Index, kind ext.Kind, bq bm25.Query, ids []string) map[string]*search.Explanation {
	t.Helper()
	only := bleve.NewDocIDQuery(ids)
	only.SetBoost(0) // restricts without adding to the score
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(only, bq.Bleve()), len(ids), 0, true)
	req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: x.bm25[kind]}
	res, err := bleveOf(t, x).Search(req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*search.Explanation{}
	for _, h := range res.Hits {
		out[h.ID] = h.Expl
	}
	return out
}

// termExplanation matches bleve's explanation of one term query, e.g.
// "weight(t_description:screenshot^1.500000 in t/00000042), product of:" or
// "fieldWeight(t_name:take in t/00000042), as per bm25 model, product of:".
var termExplanation = regexp.MustCompile(`^(?:weight|fieldWeight)\(([^:]+):(.+?)(?:\^[-+0-9.eE]+)? in `)

// fieldMatches sums bleve's explanation of one document by field and term.
// A disjunction multiplies its children's sum by its coordination factor
// (the share of its clauses that matched); that factor is carried down to
// the terms, so the terms add up to the document's score.
func fieldMatches(e *search.Explanation) []FieldMatch {
	var terms []bm25.Contribution
	var walk func(e *search.Explanation, factor float64)
	walk = func(e *search.Explanation, factor float64) {
		if e == nil {
			return
		}
		if m := termExplanation.FindStringSubmatch(e.Message); m != nil {
			terms = append(terms, bm25.Contribution{Field: m[1], Term: m[2], Score: e.Value * factor})
			return
		}
		factor *= coordOf(e)
		for _, c := range e.Children {
			if !strings.HasPrefix(c.Message, "coord(") {
				walk(c, factor)
			}
		}
	}
	walk(e, 1)
	return retrieval.ByField(terms)
}

// coordOf is the coordination factor among e's children, or 1.
func coordOf(e *search.Explanation) float64 {
	for _, c := range e.Children {
		if strings.HasPrefix(c.Message, "coord(") {
			return c.Value
		}
	}
	return 1
}
