package retrieval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// TestLongTaskFindsEachStep: a task of two steps, each served by a tool of
// its own server, finds both at the head of the ranking (one vector of the
// whole text found the Slack tool and a GitHub repository search first).
//
// Over the default catalog without its written requests: with them,
// GitHub's list_commits, whose requests never name GitHub, falls behind
// GitHub tools whose requests do (16th), and the clause lift no longer puts
// it in the first three — a loss the closing note of the written-requests
// issue reports. This test keeps the clauses' own contract.
func TestLongTaskFindsEachStep(t *testing.T) {
	t.Parallel()
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cat.Items {
		cat.Items[i].Requests = nil
	}
	b := retrievaltest.New(t, cat)
	q := "Look up the latest commits in my GitHub repository, summarise what changed, and then post the summary to the team channel on Slack so everyone knows."
	got := b.Names(t, ext.Query{Kind: ext.KindTool, Text: q, Limit: 3}, ext.Access{All: true}, 3)
	for _, step := range []struct{ about, server, word string }{
		{"the commits", "mcp-github__", "commits"},
		{"the Slack post", "mcp-slack__", "post"},
	} {
		if !slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, step.server) && strings.Contains(n, step.word) }) {
			t.Errorf("%s: top 3 %v, want a %s*%s* tool", step.about, got, step.server, step.word)
		}
	}
}
