package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"
)

// Set is a benchmark loaded and indexed.
type Set struct {
	idx  *index.Index
	ids  map[string]string // canonical tool name → benchmark tool id
	dir  string
	Size int // tools
}

// Build writes the tools as a catalog under a temporary directory, builds
// and opens its bundle. Close removes the bundle.
func Build(tools []Tool) (*Set, error) { return BuildWith(tools, nil) }

// BuildWith is Build with build options (hosted vectors: opts.Hosted).
func BuildWith(tools []Tool, opts *index.BuildOptions) (*Set, error) {
	dir, err := os.MkdirTemp("", "mcpsearch-eval-catalog-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ids, err := writeCatalog(tools, dir)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		return nil, err
	}
	return openBundle(cat, ids, opts)
}

// BuildCatalog loads the catalog directory dir as the server does
// (catalog.LoadDir), builds and opens its bundle. Its tools are known by their
// canonical names (<server>__<tool>), which are the gold ids of its queries.
// Close removes the bundle.
func BuildCatalog(dir string) (*Set, error) { return BuildCatalogWith(dir, nil) }

// BuildCatalogWith is BuildCatalog with build options (hosted vectors:
// opts.Hosted).
func BuildCatalogWith(dir string, opts *index.BuildOptions) (*Set, error) {
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool {
			ids[it.Name] = it.Name
		}
	}
	return openBundle(cat, ids, opts)
}

// openBundle builds cat into a temporary bundle with index.Build, the
// production path, and opens it; ids maps canonical tool names to gold ids.
func openBundle(cat *catalog.Catalog, ids map[string]string, opts *index.BuildOptions) (s *Set, err error) {
	dir, err := os.MkdirTemp("", "mcpsearch-eval-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	bundle := filepath.Join(dir, "bundle")
	if _, err := index.Build(cat, bundle, opts); err != nil {
		return nil, err
	}
	x, err := index.Open(bundle)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", bundle, err)
	}
	return &Set{idx: x, ids: ids, dir: dir, Size: len(ids)}, nil
}

// CheckGold fails naming the first query whose gold (relevant or
// relevant_groups) holds an id that is no tool of the set: such a query
// could never be answered, and its figures would measure the typo in its
// gold.
func (s *Set) CheckGold(queries []Query) error {
	known := make(map[string]bool, len(s.ids))
	for _, id := range s.ids {
		known[id] = true
	}
	for _, q := range queries {
		for _, group := range append([][]string{q.Relevant}, q.RelevantGroups...) {
			for _, id := range group {
				if !known[id] {
					return fmt.Errorf("query %s: gold id %q is not a tool of the catalog", q.QID, id)
				}
			}
		}
	}
	return nil
}

// Index is the set's index, to serve or search directly.
func (s *Set) Index() *index.Index { return s.idx }

// GoldID is the benchmark id of the tool with the canonical name, or ""
// when the set has no such tool.
func (s *Set) GoldID(canonical string) string { return s.ids[canonical] }

// Close releases the index and removes its files.
func (s *Set) Close() error {
	err := s.idx.Close()
	os.RemoveAll(s.dir)
	return err
}

// writeCatalog writes one server file per server and returns the map from
// canonical name to tool id.
func writeCatalog(tools []Tool, dir string) (map[string]string, error) {
	byServer := map[string][]map[string]any{}
	ids := map[string]string{}
	for _, t := range tools {
		server := serverSlug(t.Server)
		schema := t.InputSchema
		if len(schema) == 0 || string(schema) == "null" {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		obj := map[string]any{"name": t.Name, "description": t.Description, "inputSchema": schema}
		if t.Category != nil && *t.Category != "" {
			obj["annotations"] = map[string]any{"category": *t.Category}
		}
		if len(t.Requests) > 0 {
			obj["_meta"] = map[string]any{catalog.MetaRequests: t.Requests}
		}
		byServer[server] = append(byServer[server], obj)
		canonical := server + catalog.DefaultSeparator + t.Name
		if prev, dup := ids[canonical]; dup {
			return nil, fmt.Errorf("tools %s and %s both become %s", prev, t.ID, canonical)
		}
		ids[canonical] = t.ID
	}
	for server, list := range byServer {
		data, err := json.Marshal(map[string]any{"server": server, "tools": list})
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, server+".json"), data, 0o644); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// Result is what one query returned.
type Result struct {
	Query  Query
	Ranked []string // tool ids, best first
	Hint   string   // the page's hint, if any
	// Decision is the no-match decision the search reached
	// (index.PageExplanation: "fit-model empty", "kept"), "" where the
	// index took none (a query of no searchable words).
	Decision string
	Latency  time.Duration
}

// Search answers q as tools/search does, returning the ids of the top depth
// tools. A query longer than the protocol allows is cut to its limits, as a
// client would have to.
func (s *Set) Search(ctx context.Context, q Query, depth int) (Result, error) {
	text := clip(q.Query)
	start := time.Now()
	page, err := s.idx.Search(ctx, ext.Query{Kind: ext.KindTool, Text: text, Limit: depth})
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, fmt.Errorf("query %s: %w", q.QID, err)
	}
	r := Result{Query: q, Hint: page.Hint, Latency: elapsed}
	if e, ok := page.Explain.(*index.PageExplanation); ok && e != nil {
		r.Decision = e.Decision
	}
	for _, h := range page.Items {
		var obj struct{ Name string }
		if err := json.Unmarshal(h.Object, &obj); err != nil {
			return Result{}, err
		}
		r.Ranked = append(r.Ranked, s.ids[obj.Name])
	}
	return r, nil
}

// clip cuts text to ext.MaxQueryTerms words and ext.MaxQueryBytes bytes.
func clip(text string) string {
	words := strings.Fields(text)
	words = words[:min(len(words), ext.MaxQueryTerms)]
	for len(strings.Join(words, " ")) > ext.MaxQueryBytes {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " ")
}

// Metrics are the figures of a set of results.
type Metrics struct {
	Queries int
	Recall  map[int]float64 // k → share of relevant groups in the top k
	NDCG10  float64
	MRR     float64
	// Empty is the share of queries that got no items: the no-match rate
	// of queries no tool answers, the emptied rate of queries some tool
	// does.
	Empty float64
	// RightFirst are the queries whose first item is relevant, and
	// HintedRightFirst the share of them whose page carries a hint
	// (issue 36: a hint belongs where something is missing, not on a
	// page whose first item is the one asked for); 0 when none is.
	RightFirst       int
	HintedRightFirst float64
}

// Score computes the metrics of results at the cut-offs ks.
func Score(results []Result, ks []int) Metrics {
	m := Metrics{Queries: len(results), Recall: map[int]float64{}}
	if len(results) == 0 {
		return m
	}
	for _, r := range results {
		for _, k := range ks {
			m.Recall[k] += recallAt(r, k)
		}
		m.NDCG10 += ndcgAt(r, 10)
		m.MRR += reciprocalRank(r, 10)
		if len(r.Ranked) == 0 {
			m.Empty++
		}
		if len(r.Ranked) > 0 && Relevant(r.Query, r.Ranked[0]) {
			m.RightFirst++
			if r.Hint != "" {
				m.HintedRightFirst++
			}
		}
	}
	if m.RightFirst > 0 {
		m.HintedRightFirst /= float64(m.RightFirst)
	}
	n := float64(len(results))
	for _, k := range ks {
		m.Recall[k] /= n
	}
	m.NDCG10 /= n
	m.MRR /= n
	m.Empty /= n
	return m
}

// Relevant reports whether id answers q.
func Relevant(q Query, id string) bool { return groupOf(q, id) >= 0 }

// groupOf returns the index of the first relevant group holding id, or -1.
func groupOf(q Query, id string) int {
	for g, members := range q.Groups() {
		if slices.Contains(members, id) {
			return g
		}
	}
	return -1
}

// Groups are the tools the query needs, one any-of group each: its
// relevant_groups, or each of its relevant ids on its own.
func (q Query) Groups() [][]string {
	if len(q.RelevantGroups) > 0 {
		return q.RelevantGroups
	}
	out := make([][]string, len(q.Relevant))
	for i, id := range q.Relevant {
		out[i] = []string{id}
	}
	return out
}

// recallAt is the share of the query's groups with a member in the top k.
func recallAt(r Result, k int) float64 {
	groups := r.Query.Groups()
	if len(groups) == 0 {
		return 0
	}
	hit := map[int]bool{}
	for _, id := range r.Ranked[:min(k, len(r.Ranked))] {
		if g := groupOf(r.Query, id); g >= 0 {
			hit[g] = true
		}
	}
	return float64(len(hit)) / float64(len(groups))
}

// ndcgAt uses binary gains: a result earns 1 when it is the first of its
// group in the ranking; the ideal ranking puts one member of each group on
// top.
func ndcgAt(r Result, k int) float64 {
	groups := r.Query.Groups()
	credited := map[int]bool{}
	dcg := 0.0
	for i, id := range r.Ranked[:min(k, len(r.Ranked))] {
		if g := groupOf(r.Query, id); g >= 0 && !credited[g] {
			credited[g] = true
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	ideal := 0.0
	for i := range min(len(groups), k) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// reciprocalRank is 1/rank of the first relevant result in the top k.
func reciprocalRank(r Result, k int) float64 {
	for i, id := range r.Ranked[:min(k, len(r.Ranked))] {
		if groupOf(r.Query, id) >= 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}
