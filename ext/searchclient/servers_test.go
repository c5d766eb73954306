package searchclient_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpsearch/mcpsearch/ext"
)

// wordCatalog is an ext.Catalog for tests: it scores an item by scale times
// the number of times the query's words occur as words of its JSON, so two catalogs can score on
// different scales.
type wordCatalog struct {
	version string
	scale   float64
	items   []ext.Hit
}

func (c *wordCatalog) Version() string { return c.version }

func (c *wordCatalog) Search(_ context.Context, q ext.Query) (*ext.Page, error) {
	var hits []ext.Hit
	if q.Kind != ext.KindTool {
		return &ext.Page{}, nil
	}
	for _, h := range c.items {
		n := 0
		text := strings.FieldsFunc(strings.ToLower(string(h.Object)), func(r rune) bool { return !unicode.IsLetter(r) })
		for _, w := range strings.Fields(strings.ToLower(q.Text)) {
			for _, t := range text {
				if t == w {
					n++
				}
			}
		}
		if n > 0 {
			h.Score = c.scale * float64(n)
			hits = append(hits, h)
		}
	}
	slices.SortStableFunc(hits, func(a, b ext.Hit) int { return int(b.Score - a.Score) })
	return pageOf(hits, q.Offset, q.Limit), nil
}

func (c *wordCatalog) List(_ context.Context, k ext.Kind, offset, limit int) (*ext.Page, error) {
	if k != ext.KindTool {
		return &ext.Page{}, nil
	}
	return pageOf(c.items, offset, limit), nil
}

func pageOf(all []ext.Hit, offset, limit int) *ext.Page {
	if offset >= len(all) {
		return &ext.Page{}
	}
	end := min(offset+limit, len(all))
	return &ext.Page{Items: all[offset:end], More: end < len(all)}
}

// tool is a name and a description.
type tool struct{ name, description string }

// startExtension serves tools through the search extension (ext.Server)
// on 127.0.0.1 and returns its /mcp URL and a function that stops it.
func startExtension(server string, scale float64, tools ...tool) (url string, stop func()) {
	cat := &wordCatalog{version: "v-" + server, scale: scale}
	for _, t := range tools {
		obj, _ := json.Marshal(map[string]any{"name": server + "__" + t.name, "description": t.description,
			"inputSchema": map[string]any{"type": "object"}})
		cat.items = append(cat.items, ext.Hit{Object: obj, Server: server})
	}
	srv := httptest.NewServer(ext.NewServer(cat, &ext.Options{Name: server, PageSize: 2}))
	return srv.URL + "/mcp", srv.Close
}

// startPlain serves tools from a plain mcp-go server, without the
// extension, two a page.
func startPlain(name string, tools ...tool) (url string, stop func()) {
	s := server.NewMCPServer(name, "1", server.WithToolCapabilities(false), server.WithPaginationLimit(2))
	for _, t := range tools {
		s.AddTool(mcp.NewTool(t.name, mcp.WithDescription(t.description)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			})
	}
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithStateLess(true)))
	return srv.URL + "/mcp", srv.Close
}

var browserTools = []tool{
	{"take_screenshot", "Take a screenshot of the current page"},
	{"navigate", "Open a URL in the browser"},
	{"click", "Click an element of the page"},
	{"pdf", "Save the page as a PDF document"},
}

var gitTools = []tool{
	{"create_merge_request", "Open a merge request from a branch"},
	{"list_branches", "List the branches of a repository"},
	{"screenshot_diff", "Render a screenshot of a diff"},
}
