package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestLongTaskFindsEachStep: a task of two steps, each served by a tool of
// its own server, finds both at the head of the ranking (one vector of the
// whole text found the Slack tool and a GitHub repository search first).
func TestLongTaskFindsEachStep(t *testing.T) {
	x := defaultIndex(t)
	q := "Look up the latest commits in my GitHub repository, summarise what changed, and then post the summary to the team channel on Slack so everyone knows."
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range page.Items {
		var obj hitInfo
		decode(t, h.Object, &obj)
		got = append(got, obj.Name)
	}
	for _, step := range []struct{ about, server, word string }{
		{"the commits", "mcp-github__", "commits"},
		{"the Slack post", "mcp-slack__", "post"},
	} {
		if !slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, step.server) && strings.Contains(n, step.word) }) {
			t.Errorf("%s: top 3 %v, want a %s*%s* tool", step.about, got, step.server, step.word)
		}
	}
}
