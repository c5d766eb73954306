package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index"
)

// interopDir holds the Node clients (package.json, package-lock.json),
// installed by `npm ci --prefix infra/testenv/interop`.
const interopDir = "../testenv/interop"

// catalogServer is a server over the bundle of a catalog.
type catalogServer struct {
	url    string
	idx    *index.Index
	counts map[ext.Kind]int
}

// startCatalogServer serves the bundle of catalog (sharedBundle: built
// once per run) on 127.0.0.1, as functions/search does: server.Handler at
// /mcp with the bundle's cursor key.
func startCatalogServer(t *testing.T, catalog string) *catalogServer {
	t.Helper()
	idx, err := index.Open(sharedBundle(t, catalog))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return &catalogServer{url: serve(t, idx, nil), idx: idx, counts: idx.Manifest().Counts}
}

// serve serves idx at /mcp on 127.0.0.1 and returns the URL.
func serve(t *testing.T, idx *index.Index, meta *server.MetaTools) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.New(idx, &server.Options{CursorKey: idx.CursorKey(), Meta: meta}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// nodeTool returns the path of a file npm installed under infra/testenv/interop,
// skipping the test (failing it under CI, where .ci/run installs them) when
// node or the install is missing.
func nodeTool(t *testing.T, rel string) string {
	t.Helper()
	missing := func(why string) {
		t.Helper()
		missingTool(t, why, "install Node.js ≥ 20 (apt-get install nodejs npm) and run `npm ci --prefix infra/testenv/interop`")
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not on PATH")
	}
	path, err := filepath.Abs(filepath.Join(interopDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		missing(rel + " is not installed")
	}
	return path
}

// missingTool skips the test for lack of an outside tool, saying how to
// install it; under CI, whose .ci/run installs every such tool, it fails.
func missingTool(t *testing.T, why, install string) {
	t.Helper()
	msg := why + ": " + install
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI installs them: .ci/run)")
	}
	t.Skipf("%s (not installed here; .ci/run installs it)", msg)
}

// runNode runs node (or bin) with args in dir and returns stdout; it fails
// the test with stderr when the command fails.
func runNode(t *testing.T, dir, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), err, tail(stdout.String()), tail(stderr.String()))
	}
	return stdout.Bytes()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

func postJSON(t *testing.T, url, body string) []byte {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	return buf.Bytes()
}

// screenshotQuery is the query the interop clients search tools with.
const screenshotQuery = "take a screenshot of the page"

// searchPage is one tools/search page as the server answers a plain
// JSON-RPC POST: the reference a client's view of the same search is
// checked against, so that the tests check what they are about (the
// client gets the server's ranking, its scores and its pages) and not
// which tool the ranking puts first, which the index's own tests judge.
type searchPage struct {
	Names      []string
	NextCursor string
}

// toolsSearch posts tools/search for query (limit items, after cursor)
// to the server and returns the page it answered.
func (s *catalogServer) toolsSearch(t *testing.T, query string, limit int, cursor string) searchPage {
	t.Helper()
	params := map[string]any{"query": query, "limit": limit}
	if cursor != "" {
		params["cursor"] = cursor
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/search", "params": params})
	if err != nil {
		t.Fatal(err)
	}
	answer := postJSON(t, s.url, string(body))
	var got struct {
		Result *struct {
			Tools      []struct{ Name string } `json:"tools"`
			NextCursor string                  `json:"nextCursor"`
		} `json:"result"`
	}
	if err := json.Unmarshal(answer, &got); err != nil || got.Result == nil || len(got.Result.Tools) == 0 {
		t.Fatalf("tools/search %q: got %s, want a page of tools", query, tail(string(answer)))
	}
	page := searchPage{NextCursor: got.Result.NextCursor}
	for _, tool := range got.Result.Tools {
		page.Names = append(page.Names, tool.Name)
	}
	return page
}

// screenshotSearch is the server's first page of limit tools for
// screenshotQuery, whose first tool must be a screenshot tool (whichever
// server's): a client that shows this page shows a search that works.
func (s *catalogServer) screenshotSearch(t *testing.T, limit int) searchPage {
	t.Helper()
	page := s.toolsSearch(t, screenshotQuery, limit, "")
	if !strings.Contains(page.Names[0], "screenshot") {
		t.Fatalf("tools/search %q: got %v, want a screenshot tool first", screenshotQuery, page.Names)
	}
	return page
}
