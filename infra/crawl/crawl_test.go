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
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/testenv/fleet"
)

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
