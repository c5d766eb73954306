package index

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestOpenAndSearchReadNoServerList: Open and an ordinary first search
// (one whose words name no server) leave the list of servers unread — a
// cold start at 100,000 tools spent 5–7 ms decoding it in the manifest
// before its first answer; Describe reads it, once.
func TestOpenAndSearchReadNoServerList(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t) // opened afresh: nothing read yet
	if _, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "take a screenshot of the page", Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if x.serverList.servers != nil || x.serverList.err != nil {
		t.Fatal("Open and a search naming no server read the list of servers")
	}
	info, err := x.Describe()
	if err != nil || len(info.Servers) != 67 {
		t.Fatalf("Describe: %d servers, %v; want the 67 of the default catalog", len(info.Servers), err)
	}
	if len(x.serverList.servers) != 67 {
		t.Errorf("the list read holds %d servers, want 67", len(x.serverList.servers))
	}
}

// damageServerList overwrites the bundle's list of servers with as many
// bytes that are not JSON, so that its size (which Open checks) holds.
func damageServerList(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, ServersFile)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Repeat([]byte{'#'}, int(st.Size())), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedServerListFailsWhenNeeded: a list of servers damaged without
// a change of size opens and serves searches, those whose words name a
// server too (no search reads it); what needs it (Describe, Directory, a
// lookup's upstream) fails with an error naming the bundle and the file,
// found by the file's hash, never a crash; Verify finds it by hash too. A
// missing list fails Open.
func TestDamagedServerListFailsWhenNeeded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := BuildDir("testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	damageServerList(t, dir)
	x, err := Open(dir)
	if err != nil {
		t.Fatalf("Open: %v, want the damage found when the list is needed", err)
	}
	defer x.Close()
	ctx := context.Background()
	for _, text := range []string{"get the forecast for a city", "weather forecast"} {
		if page, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: text, Limit: 5}); err != nil || len(page.Items) == 0 {
			t.Fatalf("a search for %q: %v, %v; want its items", text, page, err)
		}
	}
	want := dir + ": list of servers: file " + ServersFile + " does not have the SHA-256 the manifest records: the file is damaged"
	_, describeErr := x.Describe()
	_, directoryErr := x.Directory(ctx)
	_, resolveErr := x.Resolve(ctx, ext.KindTool, "notes__create_note")
	for what, err := range map[string]error{"Describe": describeErr, "Directory": directoryErr, "Resolve": resolveErr} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", what, err, want)
		}
	}
	if _, err := Verify(dir); err == nil || !strings.Contains(err.Error(), "file "+ServersFile+" has SHA-256") {
		t.Errorf("Verify: got %v, want the list's hash mismatch", err)
	}
	if err := os.Remove(filepath.Join(dir, ServersFile)); err != nil {
		t.Fatal(err)
	}
	if x, err := Open(dir); err == nil || !strings.Contains(err.Error(), "file "+ServersFile+" listed in the manifest") {
		if x != nil {
			x.Close()
		}
		t.Errorf("Open without the list: got %v, want an error naming %s", err, ServersFile)
	}
}
