package index

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestHiddenServersRanking measures what a caller who sees a quarter of
// the default catalog (writeRestrictedCatalog) can still tell of the other
// three quarters from its search results: it compares each of the
// everyday and off-catalog requests (infra/lab/eval/testdata) searched by
// that caller with the same search over a catalog of that quarter alone.
// It requires the no-match decision (items or none) to be the same for
// every request, and reports how often the hint, the first item, the page
// of ten (names in order) and the scores are (README "What is not
// hidden"):
//
//	go test ./index -run TestHiddenServersRanking -v
func TestHiddenServersRanking(t *testing.T) {
	t.Parallel()
	full, quarter := restrictedDefaultIndex(t), mustBuild(t, quarterOf(t, restrictedDefault(t), "team0"))
	caller := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"team0"}})
	var n, sameHint, sameTop, samePage, sameScores int
	maxScoreDiff := 0.0
	for _, query := range evalQueries(t) {
		q := ext.Query{Kind: ext.KindTool, Text: query, Limit: 10}
		got, want := mustSearch(t, full, caller, q), mustSearch(t, quarter, caller, q)
		if (len(got.Items) == 0) != (len(want.Items) == 0) {
			t.Errorf("%q: got %d items (hint %q), want the quarter's %d (%q)", query, len(got.Items), got.Hint, len(want.Items), want.Hint)
		}
		if got.Hint == want.Hint {
			sameHint++
		}
		n++
		gotNames, wantNames := hitNames(t, got), hitNames(t, want)
		if len(gotNames) > 0 && len(wantNames) > 0 && gotNames[0] == wantNames[0] || len(gotNames)+len(wantNames) == 0 {
			sameTop++
		}
		if fmtJSON(gotNames) == fmtJSON(wantNames) {
			samePage++
			same := true
			for i := range got.Items {
				d := math.Abs(got.Items[i].Score - want.Items[i].Score)
				maxScoreDiff = max(maxScoreDiff, d)
				same = same && d < 1e-4
			}
			if same {
				sameScores++
			}
		}
	}
	t.Logf("%d requests: same hint %d (%.1f%%), same first item %d (%.1f%%), same page of ten %d (%.1f%%), same scores too %d (%.1f%%); largest score difference on a same page %.4f",
		n, sameHint, pct(sameHint, n), sameTop, pct(sameTop, n), samePage, pct(samePage, n), sameScores, pct(sameScores, n), maxScoreDiff)
}

// raceSample is the share of evalQueries searched under the race
// detector: one in raceSample.
const raceSample = 5

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(1, b)) }

func fmtJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func mustSearch(tb testing.TB, x *Index, ctx context.Context, q ext.Query) *ext.Page {
	tb.Helper()
	p, err := x.Search(ctx, q)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func hitNames(tb testing.TB, p *ext.Page) []string {
	names := make([]string, len(p.Items))
	for i, h := range p.Items {
		var obj struct{ Name string }
		decode(tb, h.Object, &obj)
		names[i] = obj.Name
	}
	return names
}

// quarterOf copies the files of catalog dir whose visibility names group.
func quarterOf(tb testing.TB, dir, group string) string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	out := tb.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var m struct {
			Visibility struct{ Groups []string } `json:"visibility"`
		}
		decode(tb, data, &m)
		if len(m.Visibility.Groups) == 1 && m.Visibility.Groups[0] == group {
			if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// evalQueries are the requests of the everyday and off-catalog sets;
// under the race detector, which makes a search several times slower,
// every fifth of them (raceSample), which the visibility tests still
// compare one by one.
func evalQueries(tb testing.TB) []string {
	tb.Helper()
	var out []string
	n := 0
	for _, set := range []string{"everyday", "offcatalog"} {
		f, err := os.Open(filepath.Join("..", "infra", "lab", "eval", "testdata", set, "queries.jsonl"))
		if err != nil {
			tb.Fatal(err)
		}
		s := bufio.NewScanner(f)
		s.Buffer(nil, 1<<20)
		for s.Scan() {
			var q struct{ Query string }
			decode(tb, s.Bytes(), &q)
			if n++; !raceEnabled || n%raceSample == 0 {
				out = append(out, q.Query)
			}
		}
		f.Close()
	}
	return out
}
