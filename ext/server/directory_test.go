package server

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// entries makes n directory entries: server-000 … with items falling as
// the number rises, and a phrase for every server but each seventh.
func entries(n int) []ext.ServerEntry {
	out := make([]ext.ServerEntry, n)
	for i := range out {
		out[i] = ext.ServerEntry{Name: fmt.Sprintf("server-%03d", i), Items: 1000 - i}
		if i%7 != 6 {
			out[i].About = fmt.Sprintf("topic %d, another topic, a third one", i)
		}
	}
	return out
}

// TestDirectoryShapes: within the budget, every server with its phrase;
// then every name, phrases for the largest servers; then the largest
// servers' names and a count of the rest. Never over the budget, always
// in catalog order.
func TestDirectoryShapes(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		n, budget             int
		lines, named, unnamed int // servers on a line, named in all, counted only
		contains, notContains string
	}{
		{5, DefaultDirectoryChars, 5, 5, 0, "- server-000: topic 0, another topic, a third one", "Also"},
		{7, DefaultDirectoryChars, 6, 7, 0, "Also: server-006.", "more"},
		{67, 6000, 58, 67, 0, "- server-066: topic 66", "more"},
		{67, DefaultDirectoryChars, 14, 67, 0, "- server-015: topic 15", "server-016: topic"},
		{500, 6000, 0, 492, 8, "server-491, and 8 more: search to find them.", "topic"},
		{500, DefaultDirectoryChars, 0, 109, 391, "server-108, and 391 more: search to find them.", "topic"},
		{500, 400, 0, 25, 475, "those with the most items: server-000, server-001,", "server-025"},
		{3, 10, 0, 0, 3, "", "server"},
	} {
		t.Run(fmt.Sprintf("%d servers in %d", test.n, test.budget), func(t *testing.T) {
			e := entries(test.n)
			text := DirectoryText(e, test.budget)
			if runes(text) > test.budget {
				t.Errorf("%d characters, over the budget of %d", runes(text), test.budget)
			}
			lines, named := 0, 0
			for _, s := range e {
				if strings.Contains(text, "- "+s.Name+": ") {
					lines++
				}
				if strings.Contains(text, s.Name) {
					named++
				}
			}
			if lines != test.lines || named != test.named || test.named > 0 && !strings.Contains(text, fmt.Sprintf("(%d)", test.n)) {
				t.Errorf("got %d on a line, %d named, want %d and %d, and the count %d:\n%s", lines, named, test.lines, test.named, test.n, text)
			}
			if !strings.Contains(text, test.contains) || strings.Contains(text, test.notContains) {
				t.Errorf("want %q and not %q in:\n%s", test.contains, test.notContains, text)
			}
			for _, part := range strings.Split(text, "Also:") {
				if names := serverNames.FindAllString(part, -1); !slices.IsSorted(names) {
					t.Errorf("servers out of catalog order: %v", names)
				}
			}
		})
	}
	long := []ext.ServerEntry{{Name: "a", About: strings.Repeat("word ", 40), Items: 1}}
	if line := strings.Split(DirectoryText(long, 1000), "\n")[1]; runes(line) > len("- a: ")+MaxAboutChars || !strings.HasSuffix(line, "word…") {
		t.Errorf("a long phrase: got %q, want it cut after a word within %d characters", line, MaxAboutChars)
	}
	if got := DirectoryText([]ext.ServerEntry{{Name: "a", Items: 1}, {Name: "b", Items: 2}}, 1000); got != "Servers indexed here (2): a, b." {
		t.Errorf("servers without phrases: got %q", got)
	}
	if got := ReachableDirectoryText([]ext.ServerEntry{{Name: "a", Items: 1}, {Name: "b", Items: 2}}, 1000); got != "Servers you can reach here (2): a, b." {
		t.Errorf("reachable servers without phrases: got %q", got)
	}
}

var serverNames = regexp.MustCompile(`server-\d+`)

// accessCatalog gives each caller a directory of its own groups, and
// counts how many it was asked for.
type accessCatalog struct {
	*memCatalog
	asked atomic.Int32
}

func (c *accessCatalog) Directory(ctx context.Context) ([]ext.ServerEntry, error) {
	c.asked.Add(1)
	var out []ext.ServerEntry
	for _, g := range ext.AccessFrom(ctx).Groups {
		out = append(out, ext.ServerEntry{Name: g + "-server", About: "the tools of " + g, Items: 1})
	}
	return out, nil
}

func instructionsOf(t *testing.T, s *Handler, groups ...string) string {
	t.Helper()
	ctx := ext.WithAccess(context.Background(), ext.Access{Groups: groups})
	text, err := s.instructionsFor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestDirectoryPerCaller: the instructions end with the caller's own
// directory, computed once for each access key, and none for a caller
// who sees no server; a negative budget turns the directory off.
func TestDirectoryPerCaller(t *testing.T) {
	t.Parallel()
	c := &accessCatalog{memCatalog: newMemCatalog("v1", 3)}
	s := newTestServer(t, c, nil)
	red, blue := instructionsOf(t, s, "red"), instructionsOf(t, s, "blue", "red")
	if !strings.HasSuffix(red, "\n\nServers indexed here (1), with what each is about:\n- red-server: the tools of red") || strings.Contains(red, "blue") {
		t.Errorf("red's instructions:\n%s", red)
	}
	if !strings.Contains(blue, "- blue-server: the tools of blue\n- red-server") {
		t.Errorf("blue and red's instructions:\n%s", blue)
	}
	if none := instructionsOf(t, s); none != defaultInstructions {
		t.Errorf("a caller who sees no server: got %q, want the bare instructions", none)
	}
	if again := instructionsOf(t, s, "red", "red"); again != red || c.asked.Load() != 3 {
		t.Errorf("the same access again: asked the catalog %d times, want 3 (cached)", c.asked.Load())
	}
	for i := range ext.DefaultMemoLimit + 10 {
		instructionsOf(t, s, fmt.Sprint("g", i))
	}
	if n := s.directories.Len(); n > ext.DefaultMemoLimit {
		t.Errorf("the cache holds %d texts, want at most %d", n, ext.DefaultMemoLimit)
	}
	off := newTestServer(t, c, &Options{DirectoryChars: -1, Instructions: "Mine."})
	if got := instructionsOf(t, off, "red"); got != "Mine." {
		t.Errorf("directory off: got %q", got)
	}
}

// TestDirectoryInInitialize: initialize and server/discover carry the
// directory, search_tools' description too in meta-tool mode.
func TestDirectoryInInitialize(t *testing.T) {
	t.Parallel()
	c := describedCatalog{newMemCatalog("v1", 3)}
	meta, err := NewMetaTools(context.Background(), c, MetaOptions{Mode: ListMeta})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, c, &Options{Meta: meta})
	r := call(t, s, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	want := "- srv: screenshots, merges and deploys"
	if got, _ := r.Result["instructions"].(string); !strings.HasSuffix(got, want) {
		t.Errorf("initialize instructions: got %q, want it to end %q", got, want)
	}
	list := call(t, s, "tools/list", nil)
	if got, _ := path(list.Result, "tools", 0, "description").(string); !strings.HasPrefix(got, "Find tools") || !strings.HasSuffix(got, want) {
		t.Errorf("search_tools description: got %q", got)
	}
	if got := path(list.Result, "tools", 0, "annotations", "readOnlyHint"); got != true {
		t.Errorf("search_tools lost its annotations: %v", list.Result)
	}
}

// TestDirectoryFitsClaudeCode: the default instructions and search_tools'
// description, each followed by a directory of the default budget, are
// not cut by Claude Code.
func TestDirectoryFitsClaudeCode(t *testing.T) {
	t.Parallel()
	var def, alone struct{ Description string }
	if err := json.Unmarshal(searchToolsDefinition(true), &def); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(searchToolsDefinition(false), &alone); err != nil {
		t.Fatal(err)
	}
	if alone.Description == def.Description {
		t.Errorf("search_tools without call_tool is described as with it: %q", def.Description)
	}
	for name, base := range map[string]string{"instructions": defaultInstructions, "search_tools": def.Description, "search_tools without call_tool": alone.Description} {
		if n := runes(base) + len("\n\n") + DefaultDirectoryChars; n > ClientTextChars {
			t.Errorf("%s: %d characters with a full directory, Claude Code keeps %d", name, n, ClientTextChars)
		}
	}
}
