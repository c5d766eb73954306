package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

func main() {
	bin := os.Args[1]
	cl, err := client.NewStdioMCPClient(bin, nil)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "crawl", Version: "0"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		panic(err)
	}
	tools, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		panic(err)
	}
	prompts, _ := cl.ListPrompts(ctx, mcp.ListPromptsRequest{})
	res, _ := cl.ListResources(ctx, mcp.ListResourcesRequest{})
	tmpl, _ := cl.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	out := map[string]any{"server": "everything", "package": "@modelcontextprotocol/server-everything",
		"upstream": map[string]any{"transport": "stdio", "command": bin},
		"tools": tools.Tools, "prompts": prompts.Prompts, "resources": res.Resources, "resourceTemplates": tmpl.ResourceTemplates}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(b))
}
