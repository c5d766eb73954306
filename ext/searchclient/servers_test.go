package searchclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/searchclient"
	extserver "github.com/mcpsearch/mcpsearch/ext/server"
)

// wordCatalog is an ext.Searcher for tests: it scores an item by scale times
// the number of times the query's words occur as words of its JSON, so two
// catalogs can score on different scales. Words are runs of letters, in
// queries too: it reads "select:a,b" as words, as a server without the
// select: feature does.
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
		text := letterWords(string(h.Object))
		for _, w := range letterWords(q.Text) {
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

// letterWords splits s at anything but a letter, lower-cased, as an index
// reads both text and queries.
func letterWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
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
	return extserver.New(newWordCatalog(server, scale, tools...), &extserver.Options{Name: server, PageSize: 2, Logger: quiet})
}

// newWordCatalog holds tools of server, named canonically.
func newWordCatalog(server string, scale float64, tools ...tool) *wordCatalog {
	cat := &wordCatalog{version: "v-" + server, scale: scale}
	for _, t := range tools {
		obj, _ := json.Marshal(map[string]any{"name": server + "__" + t.name, "description": t.description,
			"inputSchema": map[string]any{"type": "object"}})
		cat.items = append(cat.items, ext.Hit{Object: obj, Server: server})
	}
	return cat
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
	srv := httptest.NewServer(plainHandler(name, tools...))
	return srv.URL + "/mcp", srv.Close
}

func plainHandler(name string, tools ...tool) http.Handler {
	return mcpgoHandler(name, tools, server.WithToolCapabilities(false), server.WithPaginationLimit(2))
}

// liarHandler serves tools from a plain mcp-go server that advertises the
// extension's tools/search but answers it -32601.
func liarHandler(name string, tools ...tool) http.Handler {
	return mcpgoHandler(name, tools, server.WithToolCapabilities(false),
		server.WithExtensions(map[string]any{ext.ExtensionID: map[string]any{"methods": []string{"tools/search"}}}))
}

func mcpgoHandler(name string, tools []tool, opts ...server.ServerOption) http.Handler {
	s := server.NewMCPServer(name, "1", opts...)
	for _, t := range tools {
		s.AddTool(mcp.NewTool(t.name, mcp.WithDescription(t.description)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			})
	}
	return server.NewStreamableHTTPServer(s, server.WithStateLess(true))
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

// selectingCatalog is a wordCatalog that finds tools by name, as an
// ext.Selector: the server answers select: queries with it.
type selectingCatalog struct{ *wordCatalog }

func (c selectingCatalog) Select(_ context.Context, k ext.Kind, name string) ([]ext.Hit, error) {
	var hits []ext.Hit
	for _, h := range c.items {
		var obj struct{ Name string }
		json.Unmarshal(h.Object, &obj)
		if k == ext.KindTool && obj.Name == name {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// withoutSelect makes h a server from before select:, which searches a
// select query as any other: it rewrites the query's select: prefix and
// commas into words, or into a word no tool has when nothing is true.
func withoutSelect(h http.Handler, nothing bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg map[string]any
		if json.Unmarshal(body, &msg) == nil {
			params, _ := msg["params"].(map[string]any)
			if q, ok := params["query"].(string); ok && strings.HasPrefix(q, "select:") {
				params["query"] = strings.NewReplacer("select:", "select ", ",", " ").Replace(q)
				if nothing {
					params["query"] = "zyzzyva"
				}
				body, _ = json.Marshal(msg)
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		h.ServeHTTP(w, r)
	})
}

// selectingHandler is extensionHandler whose catalog finds tools by name.
func selectingHandler(server string, scale float64, tools ...tool) http.Handler {
	return extserver.New(selectingCatalog{newWordCatalog(server, scale, tools...)}, &extserver.Options{Name: server, PageSize: 2, Logger: quiet})
}

// traffic records the requests a test server received, as "method" or,
// for a search, "method query".
type traffic struct {
	mu    sync.Mutex
	calls []string
}

func (t *traffic) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.calls, "; ")
}

// count returns how many requests began with prefix.
func (t *traffic) count(prefix string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, c := range t.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

// serve starts h on 127.0.0.1, recording its traffic; a request whose
// method is in hang waits until the client gives up.
func serve(h http.Handler, hang ...string) (url string, log *traffic, stop func()) {
	log = &traffic{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string
			Params struct{ Query string }
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method != "" {
			log.mu.Lock()
			log.calls = append(log.calls, strings.TrimSpace(msg.Method+" "+msg.Params.Query))
			log.mu.Unlock()
		}
		if slices.Contains(hang, msg.Method) {
			<-r.Context().Done()
			return
		}
		h.ServeHTTP(w, r)
	}))
	return srv.URL + "/mcp", log, srv.Close
}

// quiet discards the test servers' request logs.
var quiet = slog.New(slog.DiscardHandler)

// connectAll connects to every URL, failing the example on an error, and
// returns the clients and a function that closes them.
func connectAll(ctx context.Context, urls ...string) ([]*searchclient.Client, func()) {
	var clients []*searchclient.Client
	for _, url := range urls {
		c, err := searchclient.Connect(ctx, url, nil)
		if err != nil {
			log.Fatal(err)
		}
		clients = append(clients, c)
	}
	return clients, func() {
		for _, c := range clients {
			c.Close()
		}
	}
}
