package searchclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/mcpsearch/mcpsearch/ext/searchclient"
)

// Claude's client-side tool search: the request defines the search tool
// and, deferred, the tools it may load; Claude's tool_use of the search
// tool is answered with tool_reference blocks for the tools mcpsearch
// found. (Against mcpsearch the URL is http://127.0.0.1:8080/mcp.)
func ExampleNewClaudeToolResult() {
	url, stop := startExtension("browser", 1, browserTools...)
	defer stop()
	ctx := context.Background()
	c, err := searchclient.Connect(ctx, url, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	// Claude answered with this tool_use block of the search tool.
	toolUseID, input := "toolu_01", json.RawMessage(`{"query":"screenshot of the page","limit":2}`)
	in, err := searchclient.ParseToolSearchInput(input)
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.ToolSearch(ctx, in)
	if err != nil {
		log.Fatal(err)
	}
	deferred, err := searchclient.ClaudeDeferredTools(page.Items) // add to the next request's tools
	if err != nil {
		log.Fatal(err)
	}
	result, err := searchclient.NewClaudeToolResult(toolUseID, page) // the next user message's content
	if err != nil {
		log.Fatal(err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.Encode(searchclient.ClaudeSearchTool().Name)
	enc.Encode(deferred[0])
	enc.Encode(result)
	// Output:
	// "search_tools"
	// {"name":"browser__take_screenshot","description":"Take a screenshot of the current page","input_schema":{"type":"object"},"defer_loading":true}
	// {"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"tool_reference","tool_name":"browser__take_screenshot"},{"type":"tool_reference","tool_name":"browser__click"}]}
}

// OpenAI's client-executed tool search: the request's tools hold the
// tool_search tool; the model's tool_search_call is answered with a
// tool_search_output holding the definitions of the tools mcpsearch found.
func ExampleNewOpenAIToolSearchOutput() {
	url, stop := startExtension("browser", 1, browserTools...)
	defer stop()
	ctx := context.Background()
	c, err := searchclient.Connect(ctx, url, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	// The response held this tool_search_call (execution "client").
	callID, arguments := "call_01", json.RawMessage(`{"query":"save the page as a pdf","limit":1}`)
	in, err := searchclient.ParseToolSearchInput(arguments)
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.ToolSearch(ctx, in)
	if err != nil {
		log.Fatal(err)
	}
	output, err := searchclient.NewOpenAIToolSearchOutput(callID, page) // an item of the next request's input
	if err != nil {
		log.Fatal(err)
	}
	tool := searchclient.OpenAISearchTool()
	fmt.Println(tool.Type, tool.Execution)
	json.NewEncoder(os.Stdout).Encode(output)
	// Output:
	// tool_search client
	// {"type":"tool_search_output","call_id":"call_01","execution":"client","status":"completed","tools":[{"type":"function","name":"browser__pdf","description":"Save the page as a PDF document","parameters":{"type":"object"},"strict":false}]}
}
