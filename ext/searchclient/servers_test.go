package searchclient_test

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpsearch/mcpsearch/ext"
	extserver "github.com/mcpsearch/mcpsearch/ext/server"
)

// wordCatalog is an ext.Searcher for tests: it scores an item by scale times
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

// startExtension serves tools through the search extension (extserver.Handler)
// on 127.0.0.1 and returns its /mcp URL and a function that stops it.
func startExtension(server string, scale float64, tools ...tool) (url string, stop func()) {
	srv := httptest.NewServer(extensionHandler(server, scale, tools...))
	return srv.URL + "/mcp", srv.Close
}

func extensionHandler(server string, scale float64, tools ...tool) http.Handler {
	cat := &wordCatalog{version: "v-" + server, scale: scale}
	for _, t := range tools {
		obj, _ := json.Marshal(map[string]any{"name": server + "__" + t.name, "description": t.description,
			"inputSchema": map[string]any{"type": "object"}})
		cat.items = append(cat.items, ext.Hit{Object: obj, Server: server})
	}
	return extserver.New(cat, &extserver.Options{Name: server, PageSize: 2})
}

// startFlagsOnly serves tools through the extension but advertises it by
// the capability flags alone (tools.search, …), as a server that follows
// the search RFC without the extensions entry would: the extensions and
// experimental entries are cut from its handshake answers.
func startFlagsOnly(server string, tools ...tool) (url string, stop func()) {
	h := extensionHandler(server, 1, tools...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var msg struct {
			JSONRPC string                     `json:"jsonrpc"`
			ID      any                        `json:"id"`
			Result  map[string]json.RawMessage `json:"result"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Result["capabilities"] != nil {
			var caps map[string]json.RawMessage
			json.Unmarshal(msg.Result["capabilities"], &caps)
			delete(caps, "extensions")
			delete(caps, "experimental")
			msg.Result["capabilities"], _ = json.Marshal(caps)
			body, _ = json.Marshal(msg)
		}
		maps.Copy(w.Header(), rec.Header())
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
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
