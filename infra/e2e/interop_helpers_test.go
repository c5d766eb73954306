package e2e

import (
	"bytes"
	"context"
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
