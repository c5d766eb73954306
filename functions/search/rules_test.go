package main

import (
	"context"
	"io"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestRulesOffSetting: MCPSEARCH_RULES_OFF reaches the index the function
// serves. On the bundled catalog, whose items carry written requests,
// everyday errands get no items; with errand-model off (a catalog that
// serves everyday life, functions/search/README.md "When nothing fits")
// they get their best matches again.
func TestRulesOffSetting(t *testing.T) {
	dir, err := cachedBundle("", t.TempDir(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// written here, in no training or evaluation set
	errands := []string{"where can I get my bike tyre fixed", "how long should I boil an egg for a soft yolk", "book me a haircut for saturday morning"}
	withItems := func(off string) int {
		t.Helper()
		idx, err := openIndex(mustConfig(t, map[string]string{"MCPSEARCH_INDEX": dir, "MCPSEARCH_RULES_OFF": off}), quiet, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer idx.Close()
		n := 0
		for _, q := range errands {
			page, err := idx.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) > 0 {
				n++
			}
		}
		return n
	}
	if n := withItems(""); n != 0 {
		t.Errorf("every rule on: %d of %d errands get items, want none", n, len(errands))
	}
	if n := withItems("errand-model"); n == 0 {
		t.Errorf("MCPSEARCH_RULES_OFF=errand-model: no errand gets items, want their best matches")
	}
}
