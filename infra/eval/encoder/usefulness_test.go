package encoder

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// BenchmarkUsefulness measures, once and by hand, what the encoder alone does
// on the public eval sets: recall@10 of ranking the tools by cosine, and
// the AUC of a query's best cosine to any tool in telling the set's
// queries (answerable) from infra/eval/testdata/negatives.jsonl. A tool
// is its name split into words, then its description.
//
// It is a benchmark so that the ordinary test run leaves it out:
//
//	go test ./infra/eval/encoder -run - -bench Usefulness -benchtime 1x -timeout 60m
func BenchmarkUsefulness(b *testing.B) {
	if b.N > 1 {
		b.Skip("run it with -benchtime 1x: it measures once")
	}
	t := b
	e := mustLoad(t)
	const testdata = "../testdata"
	negatives := encodeAll(e, queryTexts(mustReadJSONL[evalQuery](t, filepath.Join(testdata, "negatives.jsonl"), 0, 0)))
	for _, set := range []struct {
		name          string
		every, offset int
	}{{"azure_mcp", 0, 0}, {"livemcpbench", 0, 0}, {"metatool", 10, 3}} {
		tools := mustReadJSONL[evalTool](t, filepath.Join(testdata, set.name, "tools.jsonl"), 0, 0)
		queries := mustReadJSONL[evalQuery](t, filepath.Join(testdata, set.name, "queries.jsonl"), set.every, set.offset)
		toolVectors := encodeAll(e, toolTexts(tools))
		queryVectors := encodeAll(e, queryTexts(queries))
		scores := map[string]*rankScores{"all": {}}
		var answerable, unanswerable []float64
		for i, q := range queries {
			ranked, best := rankTools(queryVectors[i], toolVectors)
			ids := make([]string, min(10, len(ranked)))
			for j := range ids {
				ids[j] = tools[ranked[j]].ID
			}
			scores["all"].add(q, ids)
			if q.Split != nil {
				if scores[*q.Split] == nil {
					scores[*q.Split] = &rankScores{}
				}
				scores[*q.Split].add(q, ids)
			}
			answerable = append(answerable, best)
		}
		for _, v := range negatives {
			_, best := rankTools(v, toolVectors)
			unanswerable = append(unanswerable, best)
		}
		t.Logf("%s: %d tools, %d queries, %d negatives", set.name, len(tools), len(queries), len(negatives))
		for _, split := range slices.Sorted(mapKeys(scores)) {
			t.Logf("  %-10s %s", split, scores[split])
		}
		t.Logf("  best cosine: answerable median %.3f (p10 %.3f), negatives median %.3f (p90 %.3f); AUC %.3f",
			quantile(answerable, 0.5), quantile(answerable, 0.1), quantile(unanswerable, 0.5), quantile(unanswerable, 0.9), auc(answerable, unanswerable))
		for _, threshold := range []float64{0.40, 0.45, 0.50, 0.55} {
			t.Logf("  below %.2f: %4.1f%% of answerable queries, %4.1f%% of negatives", threshold,
				100*shareBelow(answerable, threshold), 100*shareBelow(unanswerable, threshold))
		}
	}
}

// rankScores sums infra/eval's measures over queries.
type rankScores struct {
	queries                            int
	recall1, recall5, recall10, ndcg10 float64
}

func (r *rankScores) add(q evalQuery, top10 []string) {
	groups := q.groups()
	r.queries++
	r.recall1 += recallAt(groups, top10, 1)
	r.recall5 += recallAt(groups, top10, 5)
	r.recall10 += recallAt(groups, top10, 10)
	r.ndcg10 += ndcgAt10(groups, top10)
}

func (r *rankScores) String() string {
	n := float64(r.queries)
	return fmt.Sprintf("R@1 %.3f  R@5 %.3f  R@10 %.3f  nDCG@10 %.3f  (%d queries)", r.recall1/n, r.recall5/n, r.recall10/n, r.ndcg10/n, r.queries)
}

func shareBelow(values []float64, threshold float64) float64 {
	n := 0
	for _, v := range values {
		if v < threshold {
			n++
		}
	}
	return float64(n) / float64(len(values))
}

type evalTool struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

type evalQuery struct {
	Query          string     `json:"query"`
	Relevant       []string   `json:"relevant"`
	RelevantGroups [][]string `json:"relevant_groups"`
	Split          *string    `json:"split"`
}

// mustReadJSONL reads the lines of path, keeping with every > 0 those whose
// index i has i % every == offset (mcpsearch eval --sample every:offset).
func mustReadJSONL[T any](tb testing.TB, path string, every, offset int) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for i := 0; sc.Scan(); i++ {
		if every > 0 && i%every != offset {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

var (
	nameSeparators = regexp.MustCompile(`[_\-./:]+`)
	camelBoundary  = regexp.MustCompile(`([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z]{2,})`)
)

// splitName turns "list_meetingRecordings" into "list meeting Recordings".
func splitName(name string) string {
	name = camelBoundary.ReplaceAllString(name, "$1$3 $2$4")
	return strings.Join(strings.Fields(nameSeparators.ReplaceAllString(name, " ")), " ")
}

func toolTexts(tools []evalTool) []string {
	texts := make([]string, len(tools))
	for i, tool := range tools {
		texts[i] = splitName(tool.Name) + ". " + tool.Description
	}
	return texts
}

func queryTexts(queries []evalQuery) []string {
	texts := make([]string, len(queries))
	for i, q := range queries {
		texts[i] = q.Query
	}
	return texts
}

// encodeAll encodes texts on all cores.
func encodeAll(e *Encoder, texts []string) [][]float32 {
	out := make([][]float32, len(texts))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				out[i] = e.Encode(texts[i])
			}
		})
	}
	for i := range texts {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// rankTools returns the tools' indexes by descending cosine, and the best.
func rankTools(query []float32, tools [][]float32) (ranked []int, best float64) {
	scores := make([]float64, len(tools))
	ranked = make([]int, len(tools))
	for i, v := range tools {
		scores[i], ranked[i] = dotProduct(query, v), i
	}
	sort.SliceStable(ranked, func(a, b int) bool { return scores[ranked[a]] > scores[ranked[b]] })
	return ranked, scores[ranked[0]]
}

func (q evalQuery) groups() [][]string {
	if len(q.RelevantGroups) > 0 {
		return q.RelevantGroups
	}
	groups := make([][]string, len(q.Relevant))
	for i, id := range q.Relevant {
		groups[i] = []string{id}
	}
	return groups
}

// groupOf returns the first group holding id, or -1.
func groupOf(groups [][]string, id string) int {
	for g, members := range groups {
		if slices.Contains(members, id) {
			return g
		}
	}
	return -1
}

// recallAt is the share of groups with a member in the first k, as
// infra/eval scores it.
func recallAt(groups [][]string, ranked []string, k int) float64 {
	hit := map[int]bool{}
	for _, id := range ranked[:min(k, len(ranked))] {
		if g := groupOf(groups, id); g >= 0 {
			hit[g] = true
		}
	}
	return float64(len(hit)) / float64(max(len(groups), 1))
}

// ndcgAt10 credits the first member of each group, as infra/eval does.
func ndcgAt10(groups [][]string, ranked []string) float64 {
	credited := map[int]bool{}
	var dcg, ideal float64
	for i, id := range ranked[:min(10, len(ranked))] {
		if g := groupOf(groups, id); g >= 0 && !credited[g] {
			credited[g] = true
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(len(groups), 10) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// auc is the probability that a random positive scores above a random
// negative, ties counting half.
func auc(positives, negatives []float64) float64 {
	var wins float64
	for _, p := range positives {
		for _, n := range negatives {
			switch {
			case p > n:
				wins++
			case p == n:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(positives)*len(negatives))
}

func quantile(values []float64, q float64) float64 {
	sorted := slices.Sorted(slices.Values(values))
	return sorted[int(q*float64(len(sorted)-1))]
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestSplitName(t *testing.T) {
	for name, want := range map[string]string{
		"list_meetingRecordings":   "list meeting Recordings",
		"getURLs":                  "get URLs",
		"kubectl-apply":            "kubectl apply",
		"azureaibestpractices_get": "azureaibestpractices get",
		"HTTPServer.start":         "HTTP Server start",
	} {
		if got := splitName(name); got != want {
			t.Errorf("splitName(%q) = %q, want %q", name, got, want)
		}
	}
}
