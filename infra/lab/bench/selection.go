package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/searchclient"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// SelectionOutcome is what searchclient.Select gave one query at each
// budget of tools.
type SelectionOutcome struct {
	Query eval.Query
	// Needed is the number of tools the query needs (its relevant groups).
	Needed int
	// Landed is, by budget, how many of them the selection held (a group
	// lands when one of its members is selected).
	Landed map[int]int
	// Tokens is, by budget, what the selected definitions cost.
	Tokens map[int]int
	// Latency is the time of each Select call, one a budget.
	Latency []time.Duration
}

// MeasureSelection runs searchclient.Select for every query at every
// budget of tools (no pins, no token bound), against clients, and checks
// the selection against the query's gold; goldID maps a selected tool's
// canonical name to the set's tool id. A server failure fails the
// measurement.
func MeasureSelection(ctx context.Context, clients []*searchclient.Client, queries []eval.Query, goldID func(string) string, budgets []int) ([]SelectionOutcome, error) {
	var out []SelectionOutcome
	for _, q := range queries {
		o := SelectionOutcome{Query: q, Needed: len(q.Groups()), Landed: map[int]int{}, Tokens: map[int]int{}}
		for _, k := range budgets {
			start := time.Now()
			sel, err := searchclient.Select(ctx, clients, q.Query, searchclient.Budget{Tools: k}, nil)
			o.Latency = append(o.Latency, time.Since(start))
			if err == nil && len(sel.Failures) > 0 {
				err = fmt.Errorf("failures: %v", sel.Failures)
			}
			if err != nil {
				return nil, fmt.Errorf("selecting for query %s at %d tools: %w", q.QID, k, err)
			}
			o.Landed[k], o.Tokens[k] = landed(q, sel, goldID), sel.Tokens
		}
		out = append(out, o)
	}
	return out, nil
}

// landed counts the query's groups with a member in the selection.
func landed(q eval.Query, sel *searchclient.Selection, goldID func(string) string) int {
	n := 0
	for _, group := range q.Groups() {
		if slices.ContainsFunc(sel.Tools, func(t searchclient.Tool) bool { return slices.Contains(group, goldID(t.Canonical)) }) {
			n++
		}
	}
	return n
}

// SelectionSummary sums the outcomes of a group of queries.
type SelectionSummary struct {
	Queries, Needed int
	// Landed, Complete (queries all of whose needed tools landed) and
	// Tokens are by budget.
	Landed, Complete, Tokens map[int]int
	// Recall is by budget the mean over the queries of the share of their
	// needed tools that landed: eval's recall@k when budget k.
	Recall map[int]float64
	P50    time.Duration // of a Select call
}

// SummariseSelection sums outcomes at the budgets.
func SummariseSelection(outcomes []SelectionOutcome, budgets []int) SelectionSummary {
	s := SelectionSummary{Queries: len(outcomes), Landed: map[int]int{}, Complete: map[int]int{}, Tokens: map[int]int{}, Recall: map[int]float64{}}
	var latencies []time.Duration
	for _, o := range outcomes {
		s.Needed += o.Needed
		for _, k := range budgets {
			s.Landed[k] += o.Landed[k]
			s.Tokens[k] += o.Tokens[k]
			if o.Landed[k] == o.Needed {
				s.Complete[k]++
			}
			if o.Needed > 0 {
				s.Recall[k] += float64(o.Landed[k]) / float64(o.Needed) / float64(len(outcomes))
			}
		}
		latencies = append(latencies, o.Latency...)
	}
	if len(latencies) > 0 {
		slices.Sort(latencies)
		s.P50 = latencies[len(latencies)/2]
	}
	return s
}

// ListTokens is what the definitions of every tool cost by
// searchclient.EstimateTokens, each as the tools/list of the handler h
// gives it, walked to its last page in process.
func ListTokens(h http.Handler) (tools, tokens int, err error) {
	all, err := ListTools(h)
	for _, def := range all {
		tokens += searchclient.EstimateTokens(def)
	}
	return len(all), tokens, err
}

// ListTools walks every page of the tools/list of the handler h in
// process and returns the tools as it sent them.
func ListTools(h http.Handler) ([]json.RawMessage, error) {
	var all []json.RawMessage
	params := map[string]any{}
	for {
		body, err := Call(h, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var r struct {
			Result struct {
				Tools      []json.RawMessage `json:"tools"`
				NextCursor string            `json:"nextCursor"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, fmt.Errorf("decoding tools/list: %w", err)
		}
		all = append(all, r.Result.Tools...)
		if r.Result.NextCursor == "" {
			return all, nil
		}
		params = map[string]any{"cursor": r.Result.NextCursor}
	}
}

// Call sends one JSON-RPC request to h in process and returns the response
// body; an HTTP status other than 200 or a JSON-RPC error is an error.
func Call(h http.Handler, method string, params map[string]any) ([]byte, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var r struct{ Error *ext.Error }
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || r.Error != nil || rec.Code != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %s", method, rec.Code, rec.Body.Bytes())
	}
	return rec.Body.Bytes(), nil
}
