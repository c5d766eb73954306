package index

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestHintsNameWhatIsMissing: a kept page's hint names what no item the
// caller sees holds, or a product (missing-hints, issue 36), not the
// words of a task its right first item need not hold. The Slack request's
// first item posts to Slack: no hint; with the rule off its hint names
// "done, deploy, team, tell". A product the catalog lacks (Trello) and a
// product code (s3) are still named.
func TestHintsNameWhatIsMissing(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	off := defaultIndex(t) // an Index of its own: its rules are its own
	if err := off.SetRulesOff("missing-hints"); err != nil {
		t.Fatal(err)
	}
	page := func(x *Index, q string) *ext.Page {
		t.Helper()
		p, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) == 0 {
			t.Fatalf("%q: no items (hint %q), want some", q, p.Hint)
		}
		return p
	}
	const slack = "tell the team on slack the deploy is done"
	if p := page(x, slack); p.Hint != "" || !strings.Contains(string(p.Items[0].Object), "slack_post_message") {
		t.Errorf("%q: first %s, hint %q; want slack_post_message and no hint", slack, p.Items[0].Object, p.Hint)
	}
	if p := page(off, slack); !strings.Contains(p.Hint, "deploy") {
		t.Errorf("%q with missing-hints off: hint %q, want it to name deploy (the test shows nothing of the rule)", slack, p.Hint)
	}
	for q, product := range map[string]string{
		"create a card on trello for the launch": "trello",
		"read a file from s3":                    "s3",
	} {
		if p := page(x, q); !strings.Contains(p.Hint, "lacks "+product) {
			t.Errorf("%q: hint %q, want it to name %s", q, p.Hint, product)
		}
	}
}
