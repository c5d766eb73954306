// Package fleet starts upstream MCP servers on 127.0.0.1 for tests: real
// mcp-go servers over Streamable HTTP with as many tools, prompts,
// resources and templates as a Spec asks (paginated, so a client must
// follow cursors), servers that hang or die, and the published
// @modelcontextprotocol/server-everything over stdio (Everything).
//
// Every helper takes a testing.TB and stops what it started when the test
// ends. Items are generated deterministically from the server's name and
// the Spec, and the Upstream records each one as registered, so a test can
// compare what a client saw with what the server holds. Every item can be
// used too: a tool answers tools/call with its name and its arguments as
// JSON ("tool_003 {\"query\":\"x\"}"), a prompt its description and
// argument, a resource its Texts entry — enough for a proxy test to see
// that a call went through to the right upstream.
package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Spec says what an upstream serves. The zero Spec serves nothing and
// declares no capabilities.
type Spec struct {
	Tools, Prompts, Resources, Templates int
	// PageSize is the page size of every list. If zero, lists are not
	// paginated.
	PageSize int
	// ResourceBytes is the length of each resource's text. If zero, a
	// sentence.
	ResourceBytes int
	// Headers must be on every request, with these values; a request
	// without them gets 401.
	Headers map[string]string
	// Unimplemented methods are answered with JSON-RPC error -32601
	// (method not found), as servers that declare a capability but lack
	// one of its methods do.
	Unimplemented []string
}

// Upstream is a running server.
type Upstream struct {
	Name string
	// URL is the Streamable HTTP endpoint.
	URL    string
	Server *server.MCPServer
	// What the server holds, sorted by name (URI for resources), which is
	// the order its paginated lists follow.
	Tools     []mcp.Tool
	Prompts   []mcp.Prompt
	Resources []mcp.Resource
	Templates []mcp.ResourceTemplate
	// Texts maps each resource URI to the text resources/read returns.
	Texts map[string]string
	// Requests counts the HTTP requests received.
	Requests atomic.Int64
	http     *httptest.Server
}

// Start starts an upstream serving spec on 127.0.0.1.
func Start(tb testing.TB, name string, spec Spec) *Upstream {
	tb.Helper()
	u := newUpstream(name, spec)
	u.serve(tb, requireHeaders(spec.Headers, unimplemented(spec.Unimplemented, server.NewStreamableHTTPServer(u.Server))))
	return u
}

// StartDying starts an upstream that answers its first n requests and then
// drops the connection of every later one, as a process that dies
// mid-crawl.
func StartDying(tb testing.TB, name string, spec Spec, n int) *Upstream {
	tb.Helper()
	u := newUpstream(name, spec)
	h := server.NewStreamableHTTPServer(u.Server)
	u.serve(tb, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u.Requests.Load() > int64(n) {
			panic(http.ErrAbortHandler) // net/http closes the connection, answering nothing
		}
		h.ServeHTTP(w, r)
	}))
	return u
}

// StartHanging starts an upstream that accepts every request and never
// answers, until the request is cancelled or the test ends.
func StartHanging(tb testing.TB, name string) *Upstream {
	tb.Helper()
	u := &Upstream{Name: name}
	stop := make(chan struct{})
	u.serve(tb, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	tb.Cleanup(func() { close(stop) }) // runs before the server's Close
	return u
}

// Stop kills the upstream: open connections are cut and the port refuses
// new ones. Stopping twice is harmless.
func (u *Upstream) Stop() {
	u.http.CloseClientConnections()
	u.http.Close()
}

func (u *Upstream) serve(tb testing.TB, h http.Handler) {
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.Requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	u.http = httptest.NewServer(mux) // listens on 127.0.0.1
	u.URL = u.http.URL + "/mcp"
	tb.Cleanup(u.Stop)
}

// requireHeaders answers 401 to requests that lack one of want.
func requireHeaders(want map[string]string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range want {
			if r.Header.Get(k) != v {
				http.Error(w, fmt.Sprintf("header %s missing or wrong", k), http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// unimplemented answers -32601 to requests for methods, passing the others
// to next.
func unimplemented(methods []string, next http.Handler) http.Handler {
	if len(methods) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && len(msg.ID) > 0 && slices.Contains(methods, msg.Method) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found: %s"}}`, msg.ID, msg.Method)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

func newUpstream(name string, spec Spec) *Upstream {
	var opts []server.ServerOption
	if spec.PageSize > 0 {
		opts = append(opts, server.WithPaginationLimit(spec.PageSize))
	}
	u := &Upstream{Name: name, Server: server.NewMCPServer(name, "1.0.0", opts...), Texts: map[string]string{}}
	u.addTools(spec.Tools)
	u.addPrompts(spec.Prompts)
	u.addResources(spec.Resources, spec.ResourceBytes)
	u.addTemplates(spec.Templates)
	return u
}

// topics make the generated items' descriptions differ, so a search over
// them has something to tell apart.
var topics = []string{"invoices", "deployments", "weather forecasts", "merge requests", "calendar events", "support tickets", "log lines"}

func topic(i int) string { return topics[i%len(topics)] }

func (u *Upstream) addTools(n int) {
	for i := range n {
		name := fmt.Sprintf("tool_%03d", i)
		var t mcp.Tool
		if i%5 == 4 { // a raw schema with keywords mcp-go's typed schema lacks
			t = mcp.NewToolWithRawSchema(name, "Export "+topic(i)+" as CSV.", json.RawMessage(
				`{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"since":{"type":"string","format":"date"}},"additionalProperties":false}`))
		} else {
			t = mcp.NewTool(name, mcp.WithDescription(fmt.Sprintf("List %s of %s (tool %d).", topic(i), u.Name, i)),
				mcp.WithString("query", mcp.Description("words to look for"), mcp.Required()),
				mcp.WithNumber("limit", mcp.Description("most results")),
				mcp.WithReadOnlyHintAnnotation(i%2 == 0))
		}
		u.Server.AddTool(t, echoTool)
		u.Tools = append(u.Tools, t)
	}
	slices.SortFunc(u.Tools, func(a, b mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
}

// echoTool answers a call with the tool's name and its arguments, so a
// proxy test can see that a call went through.
func echoTool(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, _ := json.Marshal(req.GetArguments())
	return mcp.NewToolResultText(req.Params.Name + " " + string(args)), nil
}

func (u *Upstream) addPrompts(n int) {
	for i := range n {
		p := mcp.NewPrompt(fmt.Sprintf("prompt_%02d", i), mcp.WithPromptDescription("Summarise "+topic(i)+"."),
			mcp.WithArgument("period", mcp.ArgumentDescription("which days"), mcp.RequiredArgument()))
		u.Server.AddPrompt(p, func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult(p.Description, []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(p.Description+" "+req.Params.Arguments["period"])),
			}), nil
		})
		u.Prompts = append(u.Prompts, p)
	}
	slices.SortFunc(u.Prompts, func(a, b mcp.Prompt) int { return strings.Compare(a.Name, b.Name) })
}

func (u *Upstream) addResources(n, size int) {
	for i := range n {
		uri := fmt.Sprintf("fleet://%s/doc/%02d", u.Name, i)
		r := mcp.NewResource(uri, fmt.Sprintf("doc_%02d", i), mcp.WithResourceDescription("Notes on "+topic(i)+"."), mcp.WithMIMEType("text/plain"))
		u.Texts[uri] = ResourceText(u.Name, i, size)
		text := u.Texts[uri]
		u.Server.AddResource(r, func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/plain", Text: text}}, nil
		})
		u.Resources = append(u.Resources, r)
	}
	slices.SortFunc(u.Resources, func(a, b mcp.Resource) int { return strings.Compare(a.Name, b.Name) })
}

// ResourceText is the text of resource i of server name: a sentence with
// the word "<name>marker<i>" (found nowhere else), repeated to size bytes
// when size is larger.
func ResourceText(name string, i, size int) string {
	s := fmt.Sprintf("Resource %d of %s mentions %smarker%d and the café. ", i, name, strings.ReplaceAll(name, "-", ""), i)
	if size <= len(s) {
		return s
	}
	return strings.Repeat(s, size/len(s)+1)[:size]
}

func (u *Upstream) addTemplates(n int) {
	for i := range n {
		t := mcp.NewResourceTemplate(fmt.Sprintf("fleet://%s/items/%02d/{id}", u.Name, i), fmt.Sprintf("item_%02d", i),
			mcp.WithTemplateDescription("One of the "+topic(i)+" by id."), mcp.WithTemplateMIMEType("application/json"))
		u.Server.AddResourceTemplate(t, func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: `{}`}}, nil
		})
		u.Templates = append(u.Templates, t)
	}
	slices.SortFunc(u.Templates, func(a, b mcp.ResourceTemplate) int { return strings.Compare(a.Name, b.Name) })
}
