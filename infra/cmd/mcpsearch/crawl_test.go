package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpsearch/mcpsearch/infra/testenv/fleet"
)

func TestCrawlCommand(t *testing.T) {
	up := fleet.Start(t, "notes", fleet.Spec{Tools: 7, PageSize: 3, Resources: 2})
	down := fleet.Start(t, "gone", fleet.Spec{Tools: 1})
	down.Stop()
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.yaml")
	writeFile(t, servers, "servers:\n"+
		"  - {name: notes, transport: streamable-http, url: "+up.URL+"}\n"+
		"  - {name: gone, transport: streamable-http, url: "+down.URL+"}\n")
	out := filepath.Join(dir, "catalog")
	code, stdout, stderr := runCLI("crawl", "--servers", servers, "--out", out, "--timeout", "5s", "--read-resources")
	if code != 1 || !strings.Contains(stderr, "1 of 2 servers failed (gone)") {
		t.Errorf("got exit %d, stderr %q; want 1 naming gone", code, stderr)
	}
	if !strings.Contains(stderr, "crawl [1/2] ") || !strings.Contains(stderr, "crawl [2/2] ") {
		t.Errorf("got stderr %q, want a plain progress line per server (not a terminal)", stderr)
	}
	for _, want := range []string{"server  tools  prompts  resources  templates  texts  truncated", " notes      7        0          2          0      2          0", "FAILED"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary %q lacks %q", stdout, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "notes.json")); err != nil {
		t.Error(err)
	}
	if code, _, stderr := runCLI("build", "--catalog", out, "--out", filepath.Join(dir, "bundle")); code != 0 {
		t.Errorf("build of the crawled catalog: exit %d, %s", code, stderr)
	}
	code, _, stderr = runCLI("crawl", "--servers", filepath.Join(dir, "missing.yaml"), "--out", out)
	if code != 1 || !strings.Contains(stderr, "missing.yaml") {
		t.Errorf("missing servers file: got exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI("crawl", "--out", out); code != 2 || !strings.Contains(stderr, "--servers is required") {
		t.Errorf("no --servers: got exit %d, %q", code, stderr)
	}
}

// TestCrawlSaysLibraryCoverage: a crawl says what the library will give
// the catalog it wrote at build (here nothing: a server no library file
// knows), and with --library=off says nothing of it.
func TestCrawlSaysLibraryCoverage(t *testing.T) {
	up := fleet.Start(t, "notes", fleet.Spec{Tools: 2})
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.yaml")
	writeFile(t, servers, "servers:\n  - {name: notes, transport: streamable-http, url: "+up.URL+"}\n")
	code, stdout, stderr := runCLI("crawl", "--servers", servers, "--out", filepath.Join(dir, "a"), "--timeout", "5s")
	if code != 0 || !strings.Contains(stdout, "at build, requests (library ") || !strings.Contains(stdout, "0 the library's (0 matched by description), 2 none; 1 server without: notes\n") {
		t.Errorf("exit %d, %s%s; want the coverage at build", code, stdout, stderr)
	}
	code, stdout, _ = runCLI("crawl", "--servers", servers, "--out", filepath.Join(dir, "b"), "--timeout", "5s", "--library=off")
	if code != 0 || strings.Contains(stdout, "requests (") {
		t.Errorf("--library=off: exit %d, %s; want no coverage line", code, stdout)
	}
}

// startAirtable serves, on 127.0.0.1, the tools of the default catalog's
// Airtable server under the serverInfo.name infoName.
func startAirtable(t *testing.T, infoName string) string {
	t.Helper()
	data, err := os.ReadFile("../../../functions/search/catalog/airtable.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	s := server.NewMCPServer(infoName, "9.9.9")
	for _, tool := range f.Tools {
		s.AddTool(mcp.NewToolWithRawSchema(tool.Name, tool.Description, tool.InputSchema), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	}
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestCrawlPackageIdentifies: the operator's package, from the servers
// file, is what the library knows a crawled server by, and the crawl
// writes it into the catalog file; the name an upstream gives itself
// identifies a server only when the operator named no package — so an
// upstream that claims a public server's serverInfo.name gets none of its
// requests under the team's own package.
func TestCrawlPackageIdentifies(t *testing.T) {
	for _, test := range []struct {
		name, infoName, pkg, want string
	}{
		{"the operator's package", "airtable-internal", "airtable-mcp-server@1.20.0", "0 items their own, 16 the library's"},
		{"no package: serverInfo.name", "airtable-mcp-server", "", "0 items their own, 16 the library's"},
		{"a claimed serverInfo.name under the team's package", "airtable-mcp-server", "@team/records-mcp@1.0.0", "0 items their own, 0 the library's"},
	} {
		t.Run(test.name, func(t *testing.T) {
			url := startAirtable(t, test.infoName)
			dir := t.TempDir()
			servers := filepath.Join(dir, "servers.yaml")
			entry := "  - {name: records, transport: streamable-http, url: " + url
			if test.pkg != "" {
				entry += ", package: \"" + test.pkg + "\""
			}
			writeFile(t, servers, "servers:\n"+entry+"}\n")
			out := filepath.Join(dir, "catalog")
			code, stdout, stderr := runCLI("crawl", "--servers", servers, "--out", out, "--timeout", "10s")
			if code != 0 || !strings.Contains(stdout, test.want) {
				t.Fatalf("crawl: exit %d, %s%s; want %q", code, stdout, stderr, test.want)
			}
			var file struct {
				Package string `json:"package"`
			}
			data, err := os.ReadFile(filepath.Join(out, "records.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &file); err != nil || file.Package != test.pkg {
				t.Errorf("catalog file's package %q (%v), want %q", file.Package, err, test.pkg)
			}
		})
	}
}
