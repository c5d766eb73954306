package fleet

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestCallsAnswer checks what a proxy test relies on: each kind of item
// answers through a real client.
func TestCallsAnswer(t *testing.T) {
	u := Start(t, "calls", Spec{Tools: 3, Prompts: 1, Resources: 1})
	c, err := client.NewStreamableHttpClient(u.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name, call.Params.Arguments = "tool_001", map[string]any{"query": "x"}
	res, err := c.CallTool(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(mcp.TextContent).Text; got != `tool_001 {"query":"x"}` {
		t.Errorf("tools/call: got %q, want the name and arguments", got)
	}
	read, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: u.Resources[0].URI}})
	if err != nil {
		t.Fatal(err)
	}
	if got := read.Contents[0].(mcp.TextResourceContents).Text; got != u.Texts[u.Resources[0].URI] {
		t.Errorf("resources/read: got %q, want %q", got, u.Texts[u.Resources[0].URI])
	}
	get := mcp.GetPromptRequest{}
	get.Params.Name, get.Params.Arguments = "prompt_00", map[string]string{"period": "today"}
	prompt, err := c.GetPrompt(ctx, get)
	if err != nil {
		t.Fatal(err)
	}
	if got := prompt.Messages[0].Content.(mcp.TextContent).Text; got != "Summarise invoices. today" {
		t.Errorf("prompts/get: got %q", got)
	}
}
