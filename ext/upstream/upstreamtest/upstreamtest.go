// Package upstreamtest runs a small MCP server, for tests of the gateway,
// and writes its catalog file the way a crawl would: the server's own list
// answers plus an "upstream" object.
//
// The server has the tools create_merge_request (echoes its title),
// whoami (returns the Authorization header it received and its digest,
// see WhoamiText), fail (answers
// with isError), hang (blocks until its request ends) and pid (returns its
// process id, to tell processes apart) and sample (answers a sample
// result of each content type, see SampleKinds); the prompt
// review (argument topic); the resource memo://readme; and the template
// memo://notes/{id}.
package upstreamtest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Readme is the text of memo://readme.
const Readme = "the upstream readme"

type authKey struct{}

// NewMCPServer returns the test server.
func NewMCPServer() *server.MCPServer {
	s := server.NewMCPServer("upstreamtest", "1.0.0", server.WithToolCapabilities(false),
		server.WithPromptCapabilities(false), server.WithResourceCapabilities(false, false))
	s.AddTool(mcp.NewTool("create_merge_request", mcp.WithDescription("Open a merge request in a GitLab project"),
		mcp.WithString("title", mcp.Required(), mcp.Description("title of the merge request"))),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("created merge request: " + r.GetString("title", "")), nil
		})
	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Show the credentials the upstream received")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			auth, _ := ctx.Value(authKey{}).(string)
			return mcp.NewToolResultText(WhoamiText(auth, auth)), nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Always fails")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("the upstream refused: quota exceeded"), nil
		})
	s.AddTool(mcp.NewTool("hang", mcp.WithDescription("Never answers")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(mcp.NewTool("pid", mcp.WithDescription("Show the process id of the upstream")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strconv.Itoa(os.Getpid())), nil
		})
	addSampleTool(s)
	s.AddPrompt(mcp.NewPrompt("review", mcp.WithPromptDescription("Review code on a topic"),
		mcp.WithArgument("topic", mcp.ArgumentDescription("what to review"))),
		func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("review", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("please review "+r.Params.Arguments["topic"])),
			}), nil
		})
	s.AddResource(mcp.NewResource("memo://readme", "readme", mcp.WithResourceDescription("The project readme")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "memo://readme", Text: Readme}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("memo://notes/{id}", "note", mcp.WithTemplateDescription("A note by id")),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			id := strings.TrimPrefix(r.Params.URI, "memo://notes/")
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, Text: "note " + id}}, nil
		})
	return s
}

// WhoamiText is the text whoami answers for the Authorization header auth,
// shown as shown: the header as it may reach a client (redacted), and the
// first bytes of its SHA-256 digest, which tell that the upstream received
// auth whatever the header became on its way back.
func WhoamiText(auth, shown string) string {
	sum := sha256.Sum256([]byte(auth))
	return fmt.Sprintf("authorization: %s (sha256 %x)", shown, sum[:8])
}

// Start serves the test server over streamable HTTP on 127.0.0.1 until tb
// ends, and returns its URL.
func Start(tb testing.TB) string {
	tb.Helper()
	h := server.NewStreamableHTTPServer(NewMCPServer(), server.WithStateLess(true),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			return context.WithValue(ctx, authKey{}, r.Header.Get("Authorization"))
		}))
	return serve(tb, rawSamples(h))
}

// serve serves h on 127.0.0.1 until tb ends, and returns its MCP URL.
func serve(tb testing.TB, h http.Handler) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	tb.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String() + "/mcp"
}

// CatalogFile returns the catalog file of the test server under the name
// server, with the given upstream object (nil for none) and the extra
// tools (listed, but unknown to the upstream: a stale catalog).
func CatalogFile(tb testing.TB, serverName string, upstream any, extraTools ...string) []byte {
	tb.Helper()
	s := NewMCPServer()
	file := map[string]any{"server": serverName}
	if upstream != nil {
		file["upstream"] = upstream
	}
	for method, key := range map[string]string{"tools/list": "tools", "prompts/list": "prompts",
		"resources/list": "resources", "resources/templates/list": "resourceTemplates"} {
		file[key] = list(tb, s, method, key)
	}
	for _, name := range extraTools {
		file["tools"] = append(file["tools"].([]any), map[string]any{"name": name, "description": "A tool the upstream no longer has",
			"inputSchema": map[string]any{"type": "object"}})
	}
	out, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// list asks s for one list answer, as a crawl would.
func list(tb testing.TB, s *server.MCPServer, method, key string) []any {
	ctx := context.Background()
	s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	resp := s.HandleMessage(ctx, json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q}`, method)))
	raw, err := json.Marshal(resp)
	if err != nil {
		tb.Fatal(err)
	}
	var msg struct{ Result map[string][]any }
	if err := json.Unmarshal(raw, &msg); err != nil || msg.Result == nil {
		tb.Fatalf("%s of the test upstream: %s", method, raw)
	}
	return msg.Result[key]
}
