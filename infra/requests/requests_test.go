package requests

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

const defaultCatalog = "../../functions/search/catalog"

// copyServer copies a server file of the default catalog into a new
// catalog directory.
func copyServer(t *testing.T, server string) (dir string, original []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(defaultCatalog, server+".json"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, server+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, data
}

// TestApplyChangesOnlyTheRequests: applying requests sets them on the
// items named, leaves every other byte of the file as it was (no requests
// at all: the same file), and the catalog loads them.
func TestApplyChangesOnlyTheRequests(t *testing.T) {
	dir, original := copyServer(t, "mcp-slack")
	if _, err := Apply(dir, &File{Server: "mcp-slack"}, "none.json"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "mcp-slack.json")); !bytes.Equal(got, original) {
		t.Fatal("applying no requests changed the file")
	}
	f := &File{Server: "mcp-slack", Items: []Item{
		{Kind: "tool", Name: "slack_post_message", Requests: []string{"tell #deploys the release is out", "¿puedes avisar al canal de que ya salió?"}},
		{Kind: "tool", Name: "slack_list_channels", Requests: []string{"which channels do we have", "show me our Slack rooms"}},
	}}
	if n, err := Apply(dir, f, "slack.json"); err != nil || n != 2 {
		t.Fatalf("got %d, %v; want 2 items set", n, err)
	}
	had := map[string][]string{} // what the catalog's items carried already
	shipped, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range shipped.Items {
		had[it.Name] = it.Requests
	}
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range cat.Items {
		want, named := map[string][]string{"slack_post_message": f.Items[0].Requests, "slack_list_channels": f.Items[1].Requests}[it.Label]
		if !named {
			want = had[it.Name]
		}
		if !slices.Equal(it.Requests, want) {
			t.Errorf("%s: requests %q, want %q", it.Label, it.Requests, want)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "mcp-slack.json"))
	before, after := itemsOf(t, original), itemsOf(t, got)
	for i := range before {
		changed := !bytes.Equal(before[i], after[i])
		named := strings.Contains(string(before[i]), `"slack_post_message"`) || strings.Contains(string(before[i]), `"slack_list_channels"`)
		if changed != named {
			t.Errorf("tool %d: changed %v, want a change only on the items named", i, changed)
		}
	}
	if !strings.Contains(string(got), "#deploys") || strings.Contains(string(got), `\u0026`) {
		t.Errorf("the requests are not written as written")
	}
}

func itemsOf(t *testing.T, data []byte) []json.RawMessage {
	t.Helper()
	var f struct{ Tools []json.RawMessage }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Tools
}

// TestApplyRefusesWritingNothing: an unknown item, an unknown kind, a
// request the catalog refuses and an unknown server are refused naming
// the file and the item, and the server file is left as it was.
func TestApplyRefusesWritingNothing(t *testing.T) {
	dir, original := copyServer(t, "mcp-slack")
	good := Item{Kind: "tool", Name: "slack_post_message", Requests: []string{"post a message"}}
	for _, test := range []struct {
		name string
		f    *File
		want []string
	}{
		{"unknown item", &File{Server: "mcp-slack", Items: []Item{good, {Kind: "tool", Name: "slack_fly", Requests: []string{"fly"}}}}, []string{"r.json", `items[1] (tool "slack_fly")`, "no such item"}},
		{"unknown kind", &File{Server: "mcp-slack", Items: []Item{{Kind: "widget", Name: "x", Requests: []string{"x"}}}}, []string{`items[0] (widget "x")`, "kind"}},
		{"two lines", &File{Server: "mcp-slack", Items: []Item{{Kind: "tool", Name: "slack_post_message", Requests: []string{"first\nsecond"}}}}, []string{"r.json", "slack_post_message", "requests[0]", "one line"}},
		{"unknown server", &File{Server: "nonesuch", Items: []Item{good}}, []string{"r.json", "server nonesuch"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := Apply(dir, test.f, "r.json")
			if err == nil {
				t.Fatal("got no error")
			}
			for _, part := range test.want {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("got %q, want it to contain %q", err, part)
				}
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "mcp-slack.json")); !bytes.Equal(got, original) {
				t.Error("the server file changed")
			}
		})
	}
}

// TestReadRefusesUnknownMembers: a requests file is read strictly.
func TestReadRefusesUnknownMembers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	for body, want := range map[string]string{
		`{"server":"a","items":[{"kind":"tool","name":"t","request":["x"]}]}`: `unknown field "request"`,
		`{"server":"../a","items":[]}`:                                        "no server name",
	} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error naming %s", body, err, want)
		}
	}
}

// TestCoverage: items without requests, requests repeating four words of
// the description, and requests two items share are reported.
func TestCoverage(t *testing.T) {
	dir := t.TempDir()
	file := `{"server":"a","tools":[
		{"name":"send","description":"Send a message to a channel of the workspace","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["send a message to a channel now","tell the team"]}},
		{"name":"post","description":"Post text","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["Tell the team!"]}},
		{"name":"bare","inputSchema":{"type":"object"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := Coverage(cat)[0]
	if c.Items != 3 || c.WithRequests != 2 || c.Requests != 3 || !slices.Equal(c.Missing, []string{"a__bare"}) {
		t.Errorf("got %+v, want 3 items, 2 with 3 requests, a__bare missing", c)
	}
	if !slices.Equal(c.Repeating, []string{"a__send: send a message to a channel now"}) {
		t.Errorf("repeating %q", c.Repeating)
	}
	if !slices.Equal(c.Shared, []string{"a__post: Tell the team!", "a__send: tell the team"}) {
		t.Errorf("shared %q", c.Shared)
	}
}
