package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// playgroundDir holds the browser driver (drive.mjs, playwright-core),
// installed by `npm ci --prefix infra/testenv/playground`.
const playgroundDir = "../testenv/playground"

// chromiumPath is Debian's chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

// playgroundSeen is what drive.mjs saw on the page.
type playgroundSeen struct {
	Errors          []string          `json:"errors"`
	Index           map[string]string `json:"index"`
	Results         []seenHit         `json:"results"`
	Explained       []seenHit         `json:"explained"`
	ExplainFields   []string          `json:"explainFields"`
	ExplainSignals  string            `json:"explainSignals"`
	ExplainRequests []string          `json:"explainRequests"`
	More            []string          `json:"more"`
	Filtered        []seenHit         `json:"filtered"`
	Prompts         []seenHit         `json:"prompts"`
	Markup          struct {
		Text     string `json:"text"`
		Elements int    `json:"elements"`
	} `json:"markup"`
	URL string `json:"url"`
}

type seenHit struct {
	Name, Server, Score string
	Params              []string
	Explained           bool
}

// TestPlayground runs the search function's binary on the bundled default
// catalog and drives its playground page in headless Chromium: a query,
// its ranked results, the explain toggle (with the written requests that
// matched), the server and kind filters and the index panel. The
// screenshot it takes is kept in $MCPSEARCH_TEST_ARTIFACTS (default: a
// temporary directory).
func TestPlayground(t *testing.T) {
	t.Parallel()
	driver := playgroundDriver(t)
	url := startSearchBinary(t, filepath.Join(repoRoot, "functions", "search", "catalog"))
	best := explainedBest(t, url+"mcp", screenshotQuery)
	shot := filepath.Join(artifactsDir(t), "playground.png")
	out := runNode(t, playgroundDir, "node", driver, url, shot)
	var seen playgroundSeen
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("drive.mjs printed %s: %v", out, err)
	}
	if len(seen.Errors) > 0 {
		t.Errorf("the page had errors: %q", seen.Errors)
	}
	checkPlaygroundResults(t, &seen, best)
	checkPlaygroundRequests(t, seen.ExplainRequests, best)
	checkPlaygroundIndex(t, seen.Index)
	checkScreenshot(t, shot)
}

// checkPlaygroundResults: the page shows the server's ranking (best, the
// first tool tools/search answers), and each control does its part.
func checkPlaygroundResults(t *testing.T, seen *playgroundSeen, best explainedHit) {
	t.Helper()
	want := best.Name
	if len(seen.Results) == 0 || seen.Results[0].Name != want || seen.Results[0].Server != best.Server ||
		!strings.HasPrefix(seen.Results[0].Score, "score ") || !slices.Contains(seen.Results[0].Params, "fullPage") {
		t.Errorf("results %+v: want %s first, from %s, with a score and its parameters", seen.Results, want, best.Server)
	}
	if len(seen.Explained) == 0 || seen.Explained[0].Name != want {
		t.Errorf("explained results %+v: want %s first, the ranking unchanged", seen.Explained, want)
	}
	if !slices.Contains(seen.ExplainFields, "description") || !slices.Contains(seen.ExplainFields, "name") {
		t.Errorf("explained fields %q: want description and name", seen.ExplainFields)
	}
	if !strings.Contains(seen.ExplainSignals, "name coverage") || !strings.Contains(seen.ExplainSignals, "screenshot") ||
		!strings.Contains(seen.ExplainSignals, "word-vector similarity") {
		t.Errorf("re-ranking signals %q: want the name coverage with the matched word screenshot, and the word-vector similarity", seen.ExplainSignals)
	}
	if len(seen.More) != 2*len(seen.Explained) || !distinct(seen.More) {
		t.Errorf("after More results: %q, want %d distinct tools", seen.More, 2*len(seen.Explained))
	}
	if len(seen.Filtered) == 0 || seen.Filtered[0].Name != "playwright__browser_take_screenshot" || seen.Filtered[0].Name == want {
		t.Errorf("filtered by playwright: got %+v, want playwright__browser_take_screenshot first, which is not first unfiltered (%s)", seen.Filtered, want)
	}
	if !strings.Contains(seen.Markup.Text, "all <script> tags are removed") || seen.Markup.Elements != 0 {
		t.Errorf("a description naming <script> tags: shown as %q with %d elements, want the text as written and no elements",
			seen.Markup.Text, seen.Markup.Elements)
	}
	if len(seen.Prompts) == 0 || seen.Prompts[0].Name != "asana__task-summary" {
		t.Errorf("prompts: got %+v, want asana__task-summary first", seen.Prompts)
	}
	if !strings.Contains(seen.URL, "q=take+a+screenshot+of+the+page") || !strings.Contains(seen.URL, "explain=1") {
		t.Errorf("page URL %q: want the query and explain in it, to share the search", seen.URL)
	}
}

// explainedHit is the first tool tools/search answers, with explain on:
// its name and server, and the written request its explanation shows.
type explainedHit struct {
	Name, Server, Request string
}

// explainedBest asks the server at mcpURL for the first tool for query,
// explained; it must be a screenshot tool that a written request matched,
// so that the page's requests have something to show.
func explainedBest(t *testing.T, mcpURL, query string) explainedHit {
	t.Helper()
	q, _ := json.Marshal(query)
	answer := postJSON(t, mcpURL, `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":`+string(q)+`,"limit":1,"_meta":{"io.github.mcpsearch/explain":true}}}`)
	var got struct {
		Result struct {
			Tools []struct {
				Name string
				Meta struct {
					Server  string `json:"io.github.mcpsearch/server"`
					Explain struct {
						Request *struct{ Text string } `json:"request"`
					} `json:"io.github.mcpsearch/explain"`
				} `json:"_meta"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(answer, &got); err != nil || len(got.Result.Tools) == 0 {
		t.Fatalf("tools/search %q: got %s, want a tool", query, tail(string(answer)))
	}
	tool := got.Result.Tools[0]
	if !strings.Contains(tool.Name, "screenshot") || tool.Meta.Explain.Request == nil {
		t.Fatalf("tools/search %q: got %s, want a screenshot tool first, explained with its matched written request", query, tail(string(answer)))
	}
	return explainedHit{Name: tool.Name, Server: tool.Meta.Server, Request: tool.Meta.Explain.Request.Text}
}

// checkPlaygroundRequests: the first explained result shows its matched
// written request, with its share of the query's weight.
func checkPlaygroundRequests(t *testing.T, shown []string, best explainedHit) {
	t.Helper()
	want := []string{"matched request: " + best.Request}
	ok := len(shown) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(shown[i], want[i]+" ") && strings.HasSuffix(shown[i], " of the query's weight")
	}
	if !ok {
		t.Errorf("explained requests of %s: got %q, want %q, each with its share of the query's weight", best.Name, shown, want)
	}
}

func distinct(names []string) bool {
	s := slices.Clone(names)
	slices.Sort(s)
	return len(slices.Compact(s)) == len(names)
}

func checkPlaygroundIndex(t *testing.T, facts map[string]string) {
	t.Helper()
	want := map[string]string{"servers": "67", "tools": "4,584", "prompts": "38", "resources": "29", "templates": "6"}
	for k, v := range want {
		if facts[k] != v {
			t.Errorf("index panel %s: got %q, want %q", k, facts[k], v)
		}
	}
	if !strings.HasSuffix(facts["bundle"], " MB") || !strings.HasSuffix(facts["built"], " UTC") || len(facts["index"]) != 12 {
		t.Errorf("index panel %v: want the bundle size in MB, the build time in UTC and the index version", facts)
	}
}

func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || len(data) < 20_000 {
		t.Errorf("screenshot %s: %d bytes, want a PNG of a page with results", path, len(data))
	}
	t.Logf("screenshot: %s", path)
}

// playgroundDriver returns drive.mjs, skipping the test (failing it under
// CI, where .ci/run installs them) when node, Chromium or playwright-core
// is missing.
func playgroundDriver(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		t.Helper()
		missingTool(t, why, "install Node.js ≥ 20 and Chromium (apt-get install nodejs npm chromium) and run `npm ci --prefix infra/testenv/playground`")
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not on PATH")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		missing(chromiumPath + " is missing")
	}
	if _, err := os.Stat(filepath.Join(playgroundDir, "node_modules", "playwright-core", "package.json")); err != nil {
		missing("playwright-core is not installed")
	}
	path, err := filepath.Abs(filepath.Join(playgroundDir, "drive.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// artifactsDir is $MCPSEARCH_TEST_ARTIFACTS, created if needed, or a
// temporary directory.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MCPSEARCH_TEST_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startSearchBinary builds the search function's binary, runs it on the
// bundle of catalog (sharedBundle) as `go run ./functions/search` would
// (locally, on 127.0.0.1, the playground on by default) and returns the
// page's URL.
func startSearchBinary(t *testing.T, catalog string) string {
	t.Helper()
	bundle := sharedBundle(t, catalog)
	bin := filepath.Join(t.TempDir(), "search")
	build := exec.Command("go", "build", "-o", bin, "./functions/search")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(), "MCPSEARCH_INDEX="+bundle, "MCPSEARCH_ADDR="+addr, "MCPSEARCH_LOG_LEVEL=warn",
		"AWS_LAMBDA_RUNTIME_API=", "MCPSEARCH_PLAYGROUND=")
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	url := "http://" + addr + "/"
	waitServing(t, url, &logs)
	return url
}

// freeAddr returns a 127.0.0.1 address no one listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func waitServing(t *testing.T, url string, logs fmt.Stringer) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
	}
	t.Fatalf("%s did not answer within 20s; server log:\n%s", url, logs)
}
