package crawl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/index/catalog"
	"github.com/mcpsearch/mcpsearch/infra/testenv/fleet"
)

// secret is the token the "paged" upstream requires; it must reach the
// upstream and no file.
const secret = "s3cr3t-7d1f0c"

func lookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// mustParse parses a servers file held in a string.
func mustParse(t *testing.T, yaml string) *Config {
	t.Helper()
	cfg, err := ParseServers("servers.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func httpServer(name, url string, extra ...string) string {
	return fmt.Sprintf("  - name: %s\n    transport: streamable-http\n    url: %s\n%s", name, url, strings.Join(extra, ""))
}

// readCatalog decodes a written catalog file.
func readCatalog(t *testing.T, path string) (f struct {
	Server            string
	Upstream          map[string]any
	Capabilities      map[string]any
	Tools             []json.RawMessage
	Prompts           []json.RawMessage
	Resources         []json.RawMessage
	ResourceTemplates []json.RawMessage
	ResourceContents  []Content
}) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// sameJSON reports whether the raw objects got equal want marshalled, in
// order, comparing values (not bytes).
func sameJSON[T any](t *testing.T, what string, got []json.RawMessage, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %d objects, want %d", what, len(got), len(want))
		return
	}
	for i := range want {
		w, _ := json.Marshal(want[i])
		var a, b any
		json.Unmarshal(got[i], &a)
		json.Unmarshal(w, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s[%d]: got %s, want %s", what, i, got[i], w)
		}
	}
}

func TestCrawlFleet(t *testing.T) {
	paged := fleet.Start(t, "paged", fleet.Spec{Tools: 23, Prompts: 7, Resources: 12, Templates: 6, PageSize: 5,
		Headers: map[string]string{"Authorization": "Bearer " + secret}})
	toolsOnly := fleet.Start(t, "tools-only", fleet.Spec{Tools: 3})
	big := fleet.Start(t, "big", fleet.Spec{Resources: 2, ResourceBytes: 100 << 10, Unimplemented: []string{"resources/templates/list"}})
	cfg := mustParse(t, "servers:\n"+
		httpServer("paged", paged.URL, "    headers: {Authorization: \"Bearer ${FLEET_TOKEN}\"}\n    visibility: {groups: [dev]}\n")+
		httpServer("tools-only", toolsOnly.URL)+httpServer("big", big.URL))
	out := t.TempDir()
	results, err := Run(context.Background(), cfg, out, &Options{ReadResources: true, Lookup: lookup(map[string]string{"FLEET_TOKEN": secret})})
	if err != nil {
		t.Fatal(err)
	}

	f := readCatalog(t, results[0].File)
	sameJSON(t, "paged tools", f.Tools, paged.Tools)
	sameJSON(t, "paged prompts", f.Prompts, paged.Prompts)
	sameJSON(t, "paged resources", f.Resources, paged.Resources)
	sameJSON(t, "paged templates", f.ResourceTemplates, paged.Templates)
	if r := results[0]; r.Tools != 23 || r.Prompts != 7 || r.Resources != 12 || r.Templates != 6 || r.Contents != 12 || r.Truncated != 0 {
		t.Errorf("got result %+v, want 23 tools, 7 prompts, 12 resources, 6 templates, 12 texts, none cut", r)
	}
	for _, c := range f.ResourceContents {
		if c.Text != paged.Texts[c.URI] || c.MimeType != "text/plain" {
			t.Errorf("content of %s: got %q (%s), want %q", c.URI, c.Text, c.MimeType, paged.Texts[c.URI])
		}
	}
	if h := f.Upstream["headers"].(map[string]any)["Authorization"]; h != "Bearer ${FLEET_TOKEN}" || f.Upstream["url"] != paged.URL {
		t.Errorf("got upstream %v, want the url and the header as written", f.Upstream)
	}

	t.Run("capabilities lacking", func(t *testing.T) {
		f := readCatalog(t, results[1].File)
		sameJSON(t, "tools", f.Tools, toolsOnly.Tools)
		if f.Capabilities["prompts"] != nil || len(f.Prompts)+len(f.Resources)+len(f.ResourceTemplates) != 0 {
			t.Errorf("got capabilities %v and %d prompts, want no prompts capability and nothing else listed", f.Capabilities, len(f.Prompts))
		}
	})
	t.Run("large resources cut", func(t *testing.T) {
		f := readCatalog(t, results[2].File)
		if results[2].Templates != 0 || f.ResourceTemplates == nil {
			t.Errorf("got %d templates (%v), want an empty list from a server without resources/templates/list", results[2].Templates, f.ResourceTemplates)
		}
		if results[2].Truncated != 2 || len(f.ResourceContents) != 2 || len(f.ResourceContents[0].Text) != DefaultMaxResourceBytes {
			t.Errorf("got %d cut, %d texts, want 2 of %d bytes", results[2].Truncated, len(f.ResourceContents), DefaultMaxResourceBytes)
		}
	})
	t.Run("no secret written", func(t *testing.T) { assertNoSecret(t, out) })
	t.Run("loads, builds and finds content", func(t *testing.T) { buildAndSearch(t, out, "pagedmarker7", "fleet://paged/doc/07") })
}

func assertNoSecret(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds the secret", e.Name())
		}
	}
}

// buildAndSearch loads the crawled catalog, builds its index and finds the
// resource wantURI by word, which only its content holds.
func buildAndSearch(t *testing.T, catalogDir, word, wantURI string) {
	t.Helper()
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.Build(cat, bundle, nil); err != nil {
		t.Fatal(err)
	}
	x, err := index.Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	dev := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"dev"}}) // the fleet's paged server is visible to dev only
	page, err := x.Search(dev, ext.Query{Kind: ext.KindResource, Text: word, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range page.Items {
		var r struct{ URI string }
		json.Unmarshal(h.Object, &r)
		got = append(got, r.URI)
	}
	if len(got) == 0 || got[0] != wantURI {
		t.Errorf("search %q: got %v, want %s first", word, got, wantURI)
	}
}

// childEnv makes the test binary act as a stdio upstream that never
// answers ("hang"), dies at once ("exit"), or dies at once saying why on
// stderr, as npx does of a package that does not exist ("npm404").
const childEnv = "MCPSEARCH_CRAWL_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "hang":
		time.Sleep(time.Hour)
	case "exit":
		os.Exit(3)
	case "npm404": // as npx says of a package that does not exist
		fmt.Fprintf(os.Stderr, "npm warn Unknown user config \"nodedir\".\nnpm error code E404\n"+
			"npm error 404 Not Found - GET https://registry.npmjs.org/%s\nnpm error 404\n"+
			"npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log\n", strings.Join(os.Args[1:], " "))
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// childServer is a servers-file entry running the test binary as a stdio
// upstream that behaves as mode says.
func childServer(t *testing.T, name, mode string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("  - name: %s\n    transport: stdio\n    command: %q\n    env: {%s: %s}\n", name, exe, childEnv, mode)
}

func TestCrawlFailures(t *testing.T) {
	good := fleet.Start(t, "good", fleet.Spec{Tools: 4, PageSize: 3})
	killed := fleet.Start(t, "killed", fleet.Spec{Tools: 2})
	hanging := fleet.StartHanging(t, "hanging")
	dying := fleet.StartDying(t, "dying", fleet.Spec{Tools: 9, PageSize: 2}, 2)
	cfg := mustParse(t, "servers:\n"+httpServer("good", good.URL)+httpServer("killed", killed.URL)+
		httpServer("hanging", hanging.URL)+httpServer("dying", dying.URL)+
		httpServer("unset", "http://127.0.0.1:1/mcp", "    headers: {X-Key: \"${CRAWL_TEST_UNSET}\"}\n")+
		childServer(t, "stdio-hang", "hang")+childServer(t, "stdio-exit", "exit"))
	out := t.TempDir()
	// A first crawl of the killed server, while it lives, leaves its file.
	first := &Config{File: cfg.File, Servers: cfg.Servers[1:2]}
	if _, err := Run(context.Background(), first, out, nil); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, filepath.Join(out, "killed.json"))
	for _, name := range []string{"hanging", "dying"} { // and older files of the others
		os.WriteFile(filepath.Join(out, name+".json"), []byte(`{"server":"`+name+`"}`), 0o644)
	}
	killed.Stop()

	const timeout = 2 * time.Second
	start := time.Now()
	results, err := Run(context.Background(), cfg, out, &Options{Timeout: timeout, Lookup: lookup(nil)})
	if took := time.Since(start); took > timeout+3*time.Second {
		t.Errorf("crawl took %s, want about the %s timeout", took, timeout)
	}
	if err == nil {
		t.Fatal("got no error, want the failed servers named")
	}
	t.Log(err)
	if want := "6 of 7 servers failed (killed, hanging, dying, unset, stdio-hang, stdio-exit)"; !strings.Contains(err.Error(), want) {
		t.Errorf("got %q, want it to say %q", err, want)
	}
	for _, want := range []string{"hanging: no complete answer within 2s", "stdio-hang: no complete answer within 2s", "unset: servers[4].headers.X-Key: environment variable CRAWL_TEST_UNSET is not set",
		"killed: initializing: unreachable: cannot connect: connection refused\n", "dying: tools/list: unreachable: the connection closed before the answer\n",
		"stdio-exit: initializing: unreachable: the process exited (exit status 3) and wrote nothing to stderr"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("got %q, want it to say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "failed to send request") || strings.Contains(err.Error(), "transport error") {
		t.Errorf("got %q, want one cause a server, without mcp-go's layers", err)
	}
	if results[0].Err != nil || results[0].Tools != 4 {
		t.Errorf("good: got %+v, want 4 tools and no error", results[0])
	}
	sameJSON(t, "good tools", readCatalog(t, filepath.Join(out, "good.json")).Tools, good.Tools)
	if after := mustRead(t, filepath.Join(out, "killed.json")); !bytes.Equal(before, after) {
		t.Errorf("killed.json changed although its crawl failed")
	}
	for _, name := range []string{"hanging", "dying"} {
		if got := string(mustRead(t, filepath.Join(out, name+".json"))); got != `{"server":"`+name+`"}` {
			t.Errorf("%s.json: got %s, want the older file untouched", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "unset.json")); err == nil {
		t.Errorf("unset.json written for a server that failed")
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 4 {
		t.Errorf("got %d files in the output, want 4 (no temporary files left)", len(entries))
	}
}

// TestCrawlStdioStderr: a stdio server that dies at start is reported with
// its exit status and the end of its stderr (npm's own message), with the
// values of ${VAR} references redacted.
func TestCrawlStdioStderr(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := mustParse(t, fmt.Sprintf("servers:\n  - name: missing\n    transport: stdio\n    command: %q\n"+
		"    args: [\"@acme/server-${CRAWL_TOKEN}\"]\n    env: {%s: npm404}\n", exe, childEnv))
	_, err = Run(context.Background(), cfg, t.TempDir(), &Options{Lookup: lookup(map[string]string{"CRAWL_TOKEN": secret})})
	if err == nil {
		t.Fatal("got no error, want the server's failure")
	}
	want := "missing: initializing: unreachable: the process exited (exit status 1); its stderr ends:\n" +
		"npm warn Unknown user config \"nodedir\".\nnpm error code E404\n" +
		"npm error 404 Not Found - GET https://registry.npmjs.org/@acme/server-[redacted]\n"
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "transport closed") {
		t.Errorf("got %q, want it to say %q", err, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestCrawlEverything(t *testing.T) {
	command, args := fleet.Everything(t)
	quoted, _ := json.Marshal(args)
	cfg := mustParse(t, fmt.Sprintf("servers:\n  - name: everything\n    transport: stdio\n    command: %q\n    args: %s\n    env: {CRAWL_PROBE: \"${CRAWL_PROBE}\"}\n", command, quoted))
	out := t.TempDir()
	results, err := Run(context.Background(), cfg, out, &Options{ReadResources: true, Lookup: lookup(map[string]string{"CRAWL_PROBE": secret})})
	if err != nil {
		t.Fatal(err)
	}
	f := readCatalog(t, results[0].File)
	for _, l := range []struct {
		method, key string
		got         []json.RawMessage
	}{
		{"tools/list", "tools", f.Tools}, {"prompts/list", "prompts", f.Prompts},
		{"resources/list", "resources", f.Resources}, {"resources/templates/list", "resourceTemplates", f.ResourceTemplates},
	} {
		want := rawStdioList(t, command, args, l.method, l.key)
		if len(want) == 0 {
			t.Errorf("%s: the server listed nothing", l.method)
		}
		sameJSON(t, l.key, l.got, want)
	}
	if results[0].Contents == 0 {
		t.Errorf("got %+v, want text contents read", results[0])
	}
	assertNoSecret(t, out)
	if _, err := catalog.LoadDir(out, nil); err != nil {
		t.Error(err)
	}
}

// rawStdioList runs the server and lists method page by page, by hand:
// what the server says, independent of the crawler's client.
func rawStdioList(t *testing.T, command string, args []string, method, key string) []json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, command, args...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 16<<20)
	call := func(id int, method string, params any) json.RawMessage {
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		stdin.Write(append(msg, '\n'))
		for lines.Scan() {
			var resp struct {
				ID     *int
				Result json.RawMessage
				Error  json.RawMessage
			}
			if json.Unmarshal(lines.Bytes(), &resp) == nil && resp.ID != nil && *resp.ID == id {
				if resp.Error != nil {
					t.Fatalf("%s: %s", method, resp.Error)
				}
				return resp.Result
			}
		}
		t.Fatalf("%s: no answer: %v", method, lines.Err())
		return nil
	}
	call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	var all []json.RawMessage
	cursor := ""
	for id := 2; ; id++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			NextCursor string `json:"nextCursor"`
		}
		res := call(id, method, params)
		var m map[string]json.RawMessage
		json.Unmarshal(res, &m)
		var items []json.RawMessage
		json.Unmarshal(m[key], &items)
		json.Unmarshal(res, &page)
		all = append(all, items...)
		if cursor = page.NextCursor; cursor == "" {
			return all
		}
	}
}

// BenchmarkCrawlFleet crawls 8 upstreams of 500 tools each, 50 a page (80
// list requests per crawl).
func BenchmarkCrawlFleet(b *testing.B) {
	var yaml strings.Builder
	yaml.WriteString("servers:\n")
	for i := range 8 {
		u := fleet.Start(b, fmt.Sprintf("s%d", i), fleet.Spec{Tools: 500, PageSize: 50})
		yaml.WriteString(httpServer(u.Name, u.URL))
	}
	cfg, err := ParseServers("servers.yaml", []byte(yaml.String()))
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	for b.Loop() {
		if _, err := Run(context.Background(), cfg, out, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCrawlRefusesWhatWouldNotBuild: an upstream listing a tool whose name
// the build refuses (here a right-to-left override) fails its crawl with
// the build's error, naming the server, the file, the item and the field;
// its previous file stays and the other servers are written. (Before, the
// file was written and the next build failed on it.) Resource texts cut
// past the index's limit are refused before anything is crawled.
func TestCrawlRefusesWhatWouldNotBuild(t *testing.T) {
	good := fleet.Start(t, "good", fleet.Spec{Tools: 2})
	hostile := fleet.Start(t, "hostile", fleet.Spec{Tools: 2})
	hostile.Server.AddTool(mcp.NewTool("txt.exe\u202egnp"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("x"), nil
	})
	cfg := mustParse(t, "servers:\n"+httpServer("good", good.URL)+httpServer("hostile", hostile.URL))
	out := t.TempDir()
	previous := []byte(`{"server":"hostile"}`)
	os.WriteFile(filepath.Join(out, "hostile.json"), previous, 0o644)
	results, err := Run(context.Background(), cfg, out, nil)
	want := `1 of 2 servers failed (hostile)`
	detail := `hostile: the upstream's answer would not build: ` + filepath.Join(out, "hostile.json") + `: tools[2] "txt.exe\u202egnp": field name: character U+202E`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), detail) {
		t.Errorf("got %v, want it to say %q and %q", err, want, detail)
	}
	if results[0].Err != nil || results[1].Err == nil {
		t.Errorf("got %v and %v, want good to pass and hostile to fail", results[0].Err, results[1].Err)
	}
	if got := mustRead(t, filepath.Join(out, "hostile.json")); !bytes.Equal(got, previous) {
		t.Errorf("hostile.json: got %s, want the previous file", got)
	}
	if _, err := catalog.LoadDir(out, nil); err != nil {
		t.Errorf("the catalog left by the crawl does not load: %v", err)
	}
	if _, err := Run(context.Background(), cfg, out, &Options{MaxResourceBytes: catalog.MaxContentBytes + 1}); err == nil || !strings.Contains(err.Error(), "the index takes at most") {
		t.Errorf("cut past the index's limit: got %v", err)
	}
}
