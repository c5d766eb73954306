package requests

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestHoldOut: the copy's tools lack exactly their first n requests, which
// come back as the held-out queries with their tool; tools with n requests
// or fewer, and the other kinds, keep theirs; the catalog itself is not
// changed, and the copy loads.
func TestHoldOut(t *testing.T) {
	dir, _ := copyServer(t, "mcp-slack")
	before, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// one tool with as many requests as are held out: it keeps them
	few := before.Items[0].UpstreamName
	if _, err := Apply(dir, &File{Server: "mcp-slack", Items: []Item{{Kind: "tool", Name: few, Requests: []string{"first of two", "second of two"}}}}, "few.json"); err != nil {
		t.Fatal(err)
	}
	if before, err = catalog.LoadDir(dir, nil); err != nil {
		t.Fatal(err)
	}
	withFew, _ := os.ReadFile(filepath.Join(dir, "mcp-slack.json"))
	out := filepath.Join(t.TempDir(), "out")
	held, err := HoldOut(dir, out, 2)
	if err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "mcp-slack.json")); string(now) != string(withFew) {
		t.Fatal("holding out changed the catalog itself")
	}
	after, err := catalog.LoadDir(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	heldOf := map[string][]string{}
	for _, h := range held {
		if h.Server != "mcp-slack" {
			t.Errorf("%+v: server %q", h, h.Server)
		}
		heldOf[h.Tool] = append(heldOf[h.Tool], h.Request)
	}
	for i, it := range before.Items {
		got := after.Items[i]
		switch {
		case it.Kind != ext.KindTool || len(it.Requests) <= 2:
			if !slices.Equal(got.Requests, it.Requests) || heldOf[it.Name] != nil {
				t.Errorf("%s (%d requests): kept %q, held out %q; want all kept", it.Name, len(it.Requests), got.Requests, heldOf[it.Name])
			}
		default:
			if !slices.Equal(heldOf[it.Name], it.Requests[:2]) || !slices.Equal(got.Requests, it.Requests[2:]) {
				t.Errorf("%s: held out %q, kept %q; want the first two held out", it.Name, heldOf[it.Name], got.Requests)
			}
		}
	}
	if len(heldOf) == 0 || heldOf[before.Items[0].Name] != nil {
		t.Errorf("held out the requests of %d tools (the tool with two: %q)", len(heldOf), heldOf[before.Items[0].Name])
	}
}

// TestHoldOutRefuses: holding out into the catalog itself, over a server
// file the directory already holds, or no request at all is refused, and
// nothing is written.
func TestHoldOutRefuses(t *testing.T) {
	dir, original := copyServer(t, "mcp-slack")
	taken := t.TempDir()
	if err := os.WriteFile(filepath.Join(taken, "mcp-slack.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, test := range []struct {
		out  string
		n    int
		want string
	}{
		{dir, 2, "that is the catalog itself"},
		{taken, 2, "mcp-slack.json exists"},
		{filepath.Join(t.TempDir(), "new"), 0, "want at least 1"},
	} {
		if _, err := HoldOut(dir, test.out, test.n); err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("into %s, n %d: got %v, want %q", test.out, test.n, err, test.want)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "mcp-slack.json")); string(now) != string(original) {
		t.Error("a refused hold-out changed the catalog")
	}
	if now, _ := os.ReadFile(filepath.Join(taken, "mcp-slack.json")); string(now) != "{}" {
		t.Error("a refused hold-out wrote over a file")
	}
}
