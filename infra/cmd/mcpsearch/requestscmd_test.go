package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestBuildNamesErrandServers: the build names a server whose written
// requests the errand model reads as everyday errands, and what to set;
// a catalog of software requests (the bundled catalog's Slack server) gets
// no such line, and the bundled catalog names no server.
func TestBuildNamesErrandServers(t *testing.T) {
	bundled, err := catalog.LoadDir("../../../functions/search/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	var named bytes.Buffer
	if err := warnErrandServers(bundled, &named, ""); err != nil || named.Len() > 0 {
		t.Errorf("the bundled catalog: %v, %s; want no server named", err, named.String())
	}
	data, err := os.ReadFile("../../../functions/search/catalog/mcp-slack.json")
	if err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	writeFile(t, filepath.Join(plain, "mcp-slack.json"), string(data))
	if code, out, errOut := runCLI("build", "--catalog", plain, "--out", filepath.Join(t.TempDir(), "b")); code != 0 || strings.Contains(out, "no-match:") {
		t.Errorf("software requests: exit %d, %s%s; want no no-match line", code, out, errOut)
	}
	// written here, in no training or evaluation set; every tool of the
	// server carries one, so its searches ask the errand model
	withChores := t.TempDir()
	writeFile(t, filepath.Join(withChores, "mcp-slack.json"), string(data))
	writeFile(t, filepath.Join(withChores, "chores.json"), `{"server":"chores","tools":[
{"name":"plants","description":"Plant care","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["water the plants on sunday morning","repot the basil, its roots poke out"]}},
{"name":"dinner","description":"Meal ideas","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["what should I cook for dinner tonight","knit a warm scarf for my grandmother"]}}]}`)
	code, out, errOut := runCLI("build", "--catalog", withChores, "--out", filepath.Join(t.TempDir(), "b"))
	if code != 0 || !strings.Contains(out, "no-match: the errand model reads these servers' written requests as everyday errands (chores ") ||
		!strings.Contains(out, "MCPSEARCH_RULES_OFF=errand-model") || strings.Contains(out, "mcp-slack ") {
		t.Errorf("exit %d, %s%s; want chores named, and the setting", code, out, errOut)
	}
}
