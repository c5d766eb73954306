package crawl

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/infra/testenv/fleet"
)

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
