package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
)

// TestEvalHosted: eval --embed-… builds the tools with the hosted model's
// vectors and embeds each query with it, and says how many searches used
// the hosted vector and how many fell back: a hosted model's figures are
// never the word vectors' without a word.
func TestEvalHosted(t *testing.T) {
	srv := embedtest.New(t, 32)
	srv.APIKey = "sk-eval"
	t.Setenv("TEST_EMBED_KEY", srv.APIKey)
	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	writeFile(t, queries, `{"qid":"q1","query":"weather forecast for Paris","relevant_groups":[["weather__get_forecast"]],"split":"dev"}
{"qid":"q2","query":"write a new note","relevant_groups":[["notes__create_note"]],"split":"test"}
`)
	flags := []string{"--embed-backend", "openai", "--embed-endpoint", srv.URL + "/v1", "--embed-model", "hashed", "--embed-dims", "32", "--embed-api-key-env", "TEST_EMBED_KEY"}
	code, out, errOut := runCLI(append([]string{"eval", "--catalog", testCatalog, "--queries", queries}, flags...)...)
	if code != 0 || !strings.Contains(out, "hosted vectors: 2 searches ranked with the query's hosted vector, 0 fell back") {
		t.Fatalf("eval: exit %d, %s%s; want both searches ranked with the hosted vectors", code, out, errOut)
	}
	if srv.Texts.Load() < 10+2 {
		t.Errorf("%d texts embedded, want the 10 items and the 2 queries", srv.Texts.Load())
	}
	code, out, _ = runCLI(append([]string{"eval", "--catalog", testCatalog, "--queries", queries, "--json"}, flags...)...)
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got["hosted_searches"] != 2.0 || got["hosted_fallbacks"] != 0.0 {
		t.Errorf("--json: exit %d (%v), got %v; want hosted_searches 2, hosted_fallbacks 0", code, err, got)
	}
	if code, _, errOut := runCLI(append([]string{"eval", "--ablate"}, flags...)...); code != 2 || !strings.Contains(errOut, "--embed-… do not apply") {
		t.Errorf("--ablate with --embed-…: exit %d %q, want a usage error", code, errOut)
	}
}
