package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/crawl"
	"github.com/mcpsearch/mcpsearch/infra/testenv/fleet"
)

// TestPublishedServerThroughTheGateway is the whole gateway path with a
// server no one here wrote: crawl the published
// @modelcontextprotocol/server-everything over stdio, build the catalog,
// run the real server binary on it, search, then call a tool, get a prompt
// and read a resource through the proxy.
func TestPublishedServerThroughTheGateway(t *testing.T) {
	t.Parallel()
	command, args := fleet.Everything(t)
	catalog := crawlEverything(t, command, args)
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(catalog, bundle, nil); err != nil {
		t.Fatal(err)
	}
	url := startLocalServer(t, bundle)

	var found struct {
		Result struct{ Tools []struct{ Name string } }
	}
	decode(t, postJSON(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"echo a message back","limit":3}}`), &found)
	if len(found.Result.Tools) == 0 || found.Result.Tools[0].Name != "everything__echo" {
		t.Fatalf("tools/search: got %+v, want everything__echo first", found.Result.Tools)
	}

	call := postJSON(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"everything__echo","arguments":{"message":"hello from the fleet"}}}`)
	if !bytes.Contains(call, []byte("hello from the fleet")) || bytes.Contains(call, []byte(`"error"`)) {
		t.Errorf("tools/call through the proxy: got %s", call)
	}

	prompt := firstWithoutRequiredArguments(t, catalog)
	got := postJSON(t, url, fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":%q}}`, prompt))
	if !bytes.Contains(got, []byte(`"messages"`)) || bytes.Contains(got, []byte(`"error"`)) {
		t.Errorf("prompts/get %s through the proxy: got %s", prompt, got)
	}

	uri := firstResourceURI(t, catalog)
	read := postJSON(t, url, fmt.Sprintf(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":%q}}`, uri))
	if !bytes.Contains(read, []byte(`"contents"`)) || bytes.Contains(read, []byte(`"error"`)) {
		t.Errorf("resources/read %s through the proxy: got %s", uri, read)
	}
}

// crawlEverything crawls server-everything into a catalog directory.
func crawlEverything(t *testing.T, command string, args []string) string {
	t.Helper()
	quoted, _ := json.Marshal(args)
	cfg, err := crawl.ParseServers("servers.yaml", []byte(fmt.Sprintf(
		"servers:\n  - name: everything\n    transport: stdio\n    command: %q\n    args: %s\n", command, quoted)))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := crawl.Run(context.Background(), cfg, out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// startLocalServer runs the real functions/search binary on bundle, on a
// free loopback port, and returns its MCP endpoint once it answers.
func startLocalServer(t *testing.T, bundle string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpsearch")
	if err := artifact.Compile(repoRoot, runtime.GOARCH, "test", bin); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "MCPSEARCH_INDEX="+bundle, "MCPSEARCH_AUTH=none", "MCPSEARCH_ADDR="+addr)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	url := "http://" + addr + "/mcp"
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return url
		}
	}
	t.Fatalf("the server did not listen on %s within 20s", addr)
	return ""
}

func decode(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
}

// everythingFile reads the crawled catalog file of server-everything.
func everythingFile(t *testing.T, catalog string) map[string][]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(catalog, "everything.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	decode(t, data, &f)
	lists := map[string][]json.RawMessage{}
	for _, k := range []string{"prompts", "resources"} {
		var items []json.RawMessage
		if len(f[k]) > 0 {
			decode(t, f[k], &items)
		}
		lists[k] = items
	}
	return lists
}

// firstWithoutRequiredArguments returns the canonical name of the first
// crawled prompt that needs no argument.
func firstWithoutRequiredArguments(t *testing.T, catalog string) string {
	t.Helper()
	for _, raw := range everythingFile(t, catalog)["prompts"] {
		var p struct {
			Name      string
			Arguments []struct{ Required bool }
		}
		decode(t, raw, &p)
		required := false
		for _, a := range p.Arguments {
			required = required || a.Required
		}
		if !required {
			return "everything__" + p.Name
		}
	}
	t.Fatal("server-everything listed no prompt without required arguments")
	return ""
}

// firstResourceURI returns the URI of the first crawled text resource.
func firstResourceURI(t *testing.T, catalog string) string {
	t.Helper()
	for _, raw := range everythingFile(t, catalog)["resources"] {
		var r struct{ URI, MimeType string }
		decode(t, raw, &r)
		if strings.HasPrefix(r.MimeType, "text/") || r.MimeType == "" {
			return r.URI
		}
	}
	t.Fatal("server-everything listed no text resource")
	return ""
}
