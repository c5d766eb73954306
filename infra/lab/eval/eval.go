// Package eval measures retrieval quality on tool-retrieval benchmarks in the
// shared format: tools.jsonl ({"id","name","description","input_schema",
// "server","category"} a line, optionally "requests" written for the tool),
// queries.jsonl ({"qid","query","relevant",
// "relevant_groups","split"}, optionally "lang", "typo" and "domain") and
// optionally negatives.jsonl ({"qid","query"} that no tool answers, with the
// same optional fields).
//
// The tools are turned into a catalog (one server file per server, the
// category as the tool's "category" annotation) and built with index.Build,
// the production path; a catalog directory (BuildCatalog) is built as it is,
// its gold ids being canonical tool names. Queries are answered by
// index.Search as the server answers tools/search.
//
// The retrieval gate is data (GateFile, LoadGate): every set the gate and
// the ablation measure, its files and splits, and the floors and ceilings
// of its figures, checked on loading (an unknown field or figure, a bound
// outside [0, 1], a bound on the split tuned on are errors naming the file
// and field). The README tables of the gate's figures are rendered
// (RenderTable, RewriteTables) from it and a run's results (FiguresFile,
// LoadMeasured).
package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Tool is one line of tools.jsonl.
type Tool struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Server      *string         `json:"server"`
	Category    *string         `json:"category"`
	// Requests are requests written for the tool, if any: they go into its
	// catalog entry's _meta (catalog.MetaRequests), as evidence for the
	// index, the way written requests reach a catalog.
	Requests []string `json:"requests,omitempty"`
}

// Query is one line of queries.jsonl or negatives.jsonl.
type Query struct {
	QID            string     `json:"qid"`
	Query          string     `json:"query"`
	Relevant       []string   `json:"relevant"`
	RelevantGroups [][]string `json:"relevant_groups"`
	Split          *string    `json:"split"`
	// Lang is the language of the query ("en", "de", "zh" …); empty when
	// the set does not say.
	Lang string `json:"lang,omitempty"`
	// Typo marks a query written with the misspellings people make.
	Typo bool `json:"typo,omitempty"`
	// Domain is what the request is about ("calendar", "kubernetes" …),
	// the stratum its split was drawn in.
	Domain string `json:"domain,omitempty"`
	// Kind is what sort of request a negative is: "errand", "near-miss"
	// (the right action on a product the catalog does not hold) or
	// "long-chat"; empty when the set does not say.
	Kind string `json:"kind,omitempty"`
	// Missing is, for a near miss, the word of the query a hint should
	// name: the product the catalog does not hold.
	Missing string `json:"missing,omitempty"`
}

// readJSONL decodes every non-empty line of path into a T, naming the line
// of any error.
func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// LoadTools reads tools.jsonl.
func LoadTools(path string) ([]Tool, error) { return readJSONL[Tool](path) }

// LoadQueries reads queries.jsonl (or negatives.jsonl). With every > 0 it
// keeps only the lines whose 0-based index i has i % every == offset.
func LoadQueries(path string, every, offset int) ([]Query, error) {
	all, err := readJSONL[Query](path)
	if err != nil || every <= 0 {
		return all, err
	}
	var kept []Query
	for i, q := range all {
		if i%every == offset {
			kept = append(kept, q)
		}
	}
	return kept, nil
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// serverSlug turns a free-form server name ("Azure MCP Server") into a
// catalog server name ("azure-mcp-server").
func serverSlug(s *string) string {
	if s == nil || strings.TrimSpace(*s) == "" {
		return "tools"
	}
	slug := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(*s), "-"), "-")
	if slug == "" {
		return "tools"
	}
	return slug
}
