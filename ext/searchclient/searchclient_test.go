package searchclient_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/searchclient"
)

func connect(t *testing.T, url string, opts *searchclient.Options) *searchclient.Client {
	t.Helper()
	c, err := searchclient.Connect(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// pages collects every page of a search as item names.
func pages(t *testing.T, c *searchclient.Client, query string, limit int) (got [][]string, fallback bool) {
	t.Helper()
	for page, err := range c.Search(context.Background(), ext.KindTool, query, &searchclient.SearchOptions{Limit: limit}) {
		if err != nil {
			t.Fatal(err)
		}
		var ns []string
		for _, it := range page.Items {
			if it.Score <= 0 || len(it.Object) == 0 {
				t.Errorf("item %q: score %v, object %s", it.Name, it.Score, it.Object)
			}
			ns = append(ns, it.Name)
		}
		got, fallback = append(got, ns), page.Fallback
	}
	return got, fallback
}

func TestSearchExtensionPages(t *testing.T) {
	url, stop := startExtension("browser", 1, browserTools...)
	defer stop()
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			c := connect(t, url, &searchclient.Options{ProtocolVersion: version})
			if got := c.MCP().ProtocolVersion(); got != version {
				t.Errorf("negotiated %s, want %s", got, version)
			}
			if !c.HasExtension(ext.KindTool) || c.Name() != "browser" {
				t.Fatalf("got extension %v, name %q; want the extension of server browser", c.HasExtension(ext.KindTool), c.Name())
			}
			got, fallback := pages(t, c, "page", 2)
			const want = "[[browser__take_screenshot browser__click] [browser__pdf]]"
			if fmt.Sprint(got) != want || fallback {
				t.Errorf("got pages %v (fallback %v), want %s from the extension", got, fallback, want)
			}
		})
	}
}

// TestSearchFallback searches a plain mcp-go server, which lacks the
// extension: every page of tools/list is walked and ranked locally, and
// the results come in the same Page and Item shape.
func TestSearchFallback(t *testing.T) {
	url, stop := startPlain("browser", browserTools...)
	defer stop()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			c := connect(t, url, &searchclient.Options{ProtocolVersion: version})
			if c.HasExtension(ext.KindTool) {
				t.Fatal("a plain mcp-go server: got the extension, want none")
			}
			got, fallback := pages(t, c, "screenshot of the page", 2)
			const want = "[[take_screenshot click] [pdf]]"
			if fmt.Sprint(got) != want || !fallback {
				t.Errorf("got pages %v (fallback %v), want %s ranked locally", got, fallback, want)
			}
			if got, _ := pages(t, c, "kubernetes pods", 2); fmt.Sprint(got) != "[[]]" {
				t.Errorf("a query no tool shares a word with: got %v, want one empty page", got)
			}
		})
	}
}

// TestSearchFallbackFilter applies the filter locally: the server name
// against the client's, and annotations with their MCP defaults.
func TestSearchFallbackFilter(t *testing.T) {
	url, stop := startPlain("browser", browserTools...)
	defer stop()
	c := connect(t, url, nil)
	for _, test := range []struct {
		name   string
		filter ext.Filter
		want   int
	}{
		{"this server", ext.Filter{Servers: []string{"browser"}}, 3},
		{"another server", ext.Filter{Servers: []string{"gitlab"}}, 0},
		{"destructive by default", ext.Filter{Annotations: map[string]any{"destructiveHint": true}}, 3},
		{"read-only", ext.Filter{Annotations: map[string]any{"readOnlyHint": true}}, 0},
	} {
		t.Run(test.name, func(t *testing.T) {
			n := 0
			for page, err := range c.Search(context.Background(), ext.KindTool, "page", &searchclient.SearchOptions{Filter: &test.filter}) {
				if err != nil {
					t.Fatal(err)
				}
				n += len(page.Items)
			}
			if n != test.want {
				t.Errorf("got %d items, want %d", n, test.want)
			}
		})
	}
}

// TestFanOut searches two extension servers with different score scales,
// a plain server and a broken one: the merged page is ordered by
// normalised score and the broken server is reported without failing the
// search.
func TestFanOut(t *testing.T) {
	browserURL, stop1 := startExtension("browser", 1, browserTools...)
	defer stop1()
	gitURL, stop2 := startExtension("git", 100, gitTools...)
	defer stop2()
	plainURL, stop3 := startPlain("docs", tool{"render_screenshot", "Render a screenshot of a page"},
		tool{"search_docs", "Search the documentation, screenshots included"}, tool{"lint", "Lint a file"})
	defer stop3()
	goneURL, stop4 := startExtension("gone", 1, browserTools...)
	clients := []*searchclient.Client{connect(t, browserURL, nil), connect(t, gitURL, nil), connect(t, plainURL, nil), connect(t, goneURL, nil)}
	stop4() // connected, then gone: its search fails

	res, err := searchclient.FanOut(context.Background(), clients, ext.KindTool, "screenshot", &searchclient.SearchOptions{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, it := range res.Items {
		got = append(got, fmt.Sprintf("%s:%.2f", it.Name, it.Score))
		if i > 0 && it.Score > res.Items[i-1].Score {
			t.Errorf("item %d scores %v, above the one before it", i, it.Score)
		}
	}
	// Each server's best scores 1 whatever its scale (git's are 100 times
	// browser's); ties go by server name; docs was ranked locally.
	const want = "[browser__take_screenshot:1.00 render_screenshot:1.00 git__screenshot_diff:1.00 search_docs:0.58]"
	if fmt.Sprint(got) != want {
		t.Errorf("merged page: got %v, want %s", got, want)
	}
	if len(res.Failures) != 1 || res.Failures["gone"] == nil {
		t.Errorf("failures: got %v, want one for gone", res.Failures)
	}
}

// TestSearchAdvertisedButMissing: a server that advertises the extension
// but answers tools/search with -32601 (HTTP 404 on 2026-07-28) is searched
// by the fallback.
func TestSearchAdvertisedButMissing(t *testing.T) {
	srv := httptest.NewServer(liarHandler("liar", browserTools...))
	defer srv.Close()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			c := connect(t, srv.URL+"/mcp", &searchclient.Options{ProtocolVersion: version})
			if !c.HasExtension(ext.KindTool) {
				t.Fatal("got no extension, want the advertised one")
			}
			got, fallback := pages(t, c, "screenshot", 10)
			if fmt.Sprint(got) != "[[take_screenshot]]" || !fallback {
				t.Errorf("got %v (fallback %v), want [[take_screenshot]] ranked locally", got, fallback)
			}
		})
	}
}

// TestSearchBadInput: bad input is refused before anything is sent, the
// server's own refusals come back as errors, and a fan-out of which every
// server fails is an error.
func TestSearchBadInput(t *testing.T) {
	url, stop := startExtension("browser", 1, browserTools...)
	defer stop()
	c := connect(t, url, nil)
	for _, test := range []struct {
		name, kind, query string
		limit             int
		want              string
	}{
		{"unknown kind", "widgets", "page", 0, `unknown kind "widgets"`},
		{"empty query", "tool", "  ", 0, "empty query"},
		{"limit too large", "tool", "page", 51, "limit 51 not in [1,50]"},
		{"negative limit", "tool", "page", -1, "limit -1 not in [1,50]"},
		{"refused by the server", "tool", strings.Repeat("word ", 200), 0, "invalid params"},
	} {
		t.Run(test.name, func(t *testing.T) {
			var got error
			for _, err := range c.Search(context.Background(), ext.Kind(test.kind), test.query, &searchclient.SearchOptions{Limit: test.limit}) {
				got = err
			}
			if got == nil || !strings.Contains(got.Error(), test.want) {
				t.Errorf("got %v, want an error saying %q", got, test.want)
			}
		})
	}
	if _, err := searchclient.FanOut(context.Background(), nil, ext.KindTool, "page", nil); err == nil {
		t.Error("fan-out over no servers: got no error")
	}
	stop()
	if res, err := searchclient.FanOut(context.Background(), []*searchclient.Client{c}, ext.KindTool, "page", nil); err == nil || res.Failures["browser"] == nil {
		t.Errorf("fan-out whose only server is gone: got %v, %v; want an error and the failure named", res, err)
	}
}

// TestSearchCapabilityFlags: a server that advertises search only by the
// capability flags (tools.search) is searched through the extension by a
// client made with Connect, which reads the flags from the wire; New sees
// only what mcp-go's typed capabilities keep, and falls back.
func TestSearchCapabilityFlags(t *testing.T) {
	url, stop := startFlagsOnly("flags", browserTools...)
	defer stop()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			c := connect(t, url, &searchclient.Options{ProtocolVersion: version})
			caps := c.MCP().GetServerCapabilities()
			if caps.Extensions != nil || caps.Experimental != nil {
				t.Fatalf("the test server still advertises the extension: %v %v", caps.Extensions, caps.Experimental)
			}
			if !c.HasExtension(ext.KindTool) || !c.HasExtension(ext.KindPrompt) || c.HasExtension(ext.KindResourceTemplate) {
				t.Errorf("Connect: tools %v prompts %v templates %v; want the flagged tools/search and prompts/search only",
					c.HasExtension(ext.KindTool), c.HasExtension(ext.KindPrompt), c.HasExtension(ext.KindResourceTemplate))
			}
			if got, fallback := pages(t, c, "screenshot", 10); fmt.Sprint(got) != "[[flags__take_screenshot]]" || fallback {
				t.Errorf("got %v (fallback %v), want [[flags__take_screenshot]] from tools/search", got, fallback)
			}
			if searchclient.New(c.MCP(), "flags", nil).HasExtension(ext.KindTool) {
				t.Error("New over mcp-go's typed capabilities: got the extension, want none (the flags are dropped)")
			}
		})
	}
}

// TestSearchFallbackListedServer: the fallback over a list that names each
// item's server in _meta (a gateway's) reports that server, as the
// extension does, and filters by it.
func TestSearchFallbackListedServer(t *testing.T) {
	url, stop := startExtension("browser", 1, browserTools...)
	defer stop()
	c := connect(t, url, &searchclient.Options{Name: "gateway", ForceFallback: true})
	for _, test := range []struct {
		servers []string
		want    string
	}{
		{nil, "[browser__take_screenshot:browser]"},
		{[]string{"browser"}, "[browser__take_screenshot:browser]"},
		{[]string{"gateway"}, "[]"},
	} {
		var got []string
		for page, err := range c.Search(context.Background(), ext.KindTool, "screenshot", &searchclient.SearchOptions{Filter: &ext.Filter{Servers: test.servers}}) {
			if err != nil {
				t.Fatal(err)
			}
			if !page.Fallback {
				t.Fatal("got a page from the extension, want the fallback")
			}
			for _, it := range page.Items {
				got = append(got, it.Name+":"+it.Server)
			}
		}
		if fmt.Sprint(got) != test.want {
			t.Errorf("filter %v: got %v, want %s", test.servers, got, test.want)
		}
	}
}
