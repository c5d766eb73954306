package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
)

// TestRulesOffSetting: MCPSEARCH_RULES_OFF reaches the index the function
// serves. On the bundled catalog, whose items carry written requests,
// everyday errands get no items; with errand-model off (a catalog that
// serves everyday life, functions/search/README.md "When nothing fits")
// they get their best matches again.
func TestRulesOffSetting(t *testing.T) {
	t.Parallel()
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

// TestLocalBuildNamesErrandServers: building a catalog at start (locally,
// MCPSEARCH_CATALOG) says which servers' written requests read as everyday
// errands and what to set; once built, the cached bundle says nothing more.
func TestLocalBuildNamesErrandServers(t *testing.T) {
	t.Parallel()
	slack, err := os.ReadFile("catalog/mcp-slack.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// written here, in no training or evaluation set
	files := map[string]string{"mcp-slack.json": string(slack), "chores.json": `{"server":"chores","tools":[
{"name":"plants","description":"Plant care","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["water the plants on sunday morning","repot the basil, its roots poke out"]}},
{"name":"dinner","description":"Meal ideas","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["what should I cook for dinner tonight","knit a warm scarf for my grandmother"]}}]}`}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	var progress strings.Builder
	if _, err := cachedBundle(dir, cache, &progress); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "mcpsearch: no-match: the errand model reads these servers' written requests as everyday errands (chores ") ||
		!strings.Contains(progress.String(), "MCPSEARCH_RULES_OFF=errand-model") {
		t.Errorf("building at start said:\n%s\nwant chores named, and the setting", progress.String())
	}
	progress.Reset()
	if _, err := cachedBundle(dir, cache, &progress); err != nil || progress.Len() != 0 {
		t.Errorf("the cached bundle: %v, said %q; want nothing", err, progress.String())
	}
}

// TestStartLogsVersions: the "index open" line of a start names the
// bundle's build identity and the query-time rules' (index.QueryID), which
// no bundle records: an answer that changed over one bundle is traced to
// the release whose rules changed.
func TestStartLogsVersions(t *testing.T) {
	dir, err := cachedBundle(writeTestCatalog(t), t.TempDir(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	idx, err := openIndex(mustConfig(t, map[string]string{"MCPSEARCH_INDEX": dir}), slog.New(slog.NewTextHandler(&logs, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	want := "build=" + index.BuildID + " rules=" + index.QueryID
	if !strings.Contains(logs.String(), "msg=\"index open\"") || !strings.Contains(logs.String(), want) {
		t.Errorf("logged %q, want an index open line with %s", logs.String(), want)
	}
}
