package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

// An example's sh block may prepare what its server serves before the
// `go run ./functions/search` line: make a catalog directory, crawl a
// server into it. Those commands are run as a reader on a clean clone
// runs them, and the server then serves the catalog MCPSEARCH_CATALOG
// names.

// setupCommands returns the commands of an sh block other than its
// curl requests and its `go run ./functions/search` line.
func setupCommands(sh string) []string {
	var out []string
	for _, cmd := range strings.Split(strings.ReplaceAll(sh, "\\\n", " "), "\n") {
		trimmed := strings.TrimSpace(cmd)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "curl ") ||
			strings.Contains(cmd, "go run ./functions/search") {
			continue
		}
		out = append(out, trimmed)
	}
	return out
}

// handlerAfterSetup runs ex's setup commands with bash in a clean clone
// (cleanClone), then serves the catalog ex's MCPSEARCH_CATALOG names there
// with ex's environment.
func (s *docServers) handlerAfterSetup(t *testing.T, ex docExample) http.Handler {
	t.Helper()
	clone := cleanClone(t)
	if strings.Contains(strings.Join(ex.setup, "\n"), "npx ") {
		t.Setenv("PATH", npxFromFleet(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	for _, cmd := range ex.setup {
		c := exec.Command("bash", "-euo", "pipefail", "-c", cmd)
		c.Dir = clone
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s:%d: %s: on a clean clone, `%s` fails (%v):\n%s", ex.doc, ex.line, ex.name, cmd, err, out)
		}
	}
	catalog := ex.env["MCPSEARCH_CATALOG"]
	if catalog == "" {
		t.Fatalf("%s:%d: %s: the example prepares something but serves no MCPSEARCH_CATALOG", ex.doc, ex.line, ex.name)
	}
	bundle, err := cachedBundle(filepath.Join(clone, catalog), t.TempDir(), io.Discard)
	if err != nil {
		t.Fatalf("%s:%d: %s: MCPSEARCH_CATALOG=%s after the example's commands: %v", ex.doc, ex.line, ex.name, catalog, err)
	}
	idx, err := index.Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	h, err := newHandler(mustConfig(t, ex.env), idx, quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// cleanClone is a directory that holds the repository as a fresh clone
// does (every top-level entry, linked), without dist/, where the docs'
// examples write.
func cleanClone(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	clone := t.TempDir()
	for _, e := range entries {
		if e.Name() == "dist" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(clone, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return clone
}

// npxFromFleet returns a directory holding an npx that runs
// @modelcontextprotocol/server-everything from the copy `npm ci --prefix
// infra/testenv/fleet` installed, so that nothing is fetched at test time.
// Without node or that install the test is skipped, saying what it needs,
// as the other tests of published servers are (infra/testenv/fleet).
func npxFromFleet(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: install Node.js ≥ 20 (apt-get install nodejs) and run `npm ci --prefix infra/testenv/fleet`")
	}
	bin, err := filepath.Abs(filepath.Join(repoRoot, "infra/testenv/fleet/node_modules/.bin/mcp-server-everything"))
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		t.Skipf("@modelcontextprotocol/server-everything is not installed (%v): run `npm ci --prefix infra/testenv/fleet`", err)
	}
	dir := t.TempDir()
	script := fmt.Sprintf(`#!/bin/sh
# npx of the doc test: runs what npm ci installed in infra/testenv/fleet, fetches nothing
[ "$1" = "-y" ] && shift
[ "$1" = "@modelcontextprotocol/server-everything" ] || { echo "npx (doc test): $1 is not installed in infra/testenv/fleet" >&2; exit 1; }
shift
exec %q %q "$@"
`, node, bin)
	if err := os.WriteFile(filepath.Join(dir, "npx"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
