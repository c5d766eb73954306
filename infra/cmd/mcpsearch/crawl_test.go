package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
