package searchclient

import "encoding/json"

// OpenAI Responses API: a client-executed tool search. The request's tools
// hold a tool_search tool with execution "client" ([OpenAISearchTool]);
// when the model searches, the response holds a tool_search_call item
// with execution "client", a call_id and the arguments, and the
// application answers in the next request's input with a
// tool_search_output item of the same call_id holding the definitions of
// the tools found ([NewOpenAIToolSearchOutput]). Unlike Claude's
// references, the output carries the definitions themselves: the tools
// found need not be in the request's tools.
//
// The shapes are openai 7.59.0's ToolSearchTool,
// ResponseToolSearchOutputItemParam and FunctionTool (resources/responses).

// OpenAIToolSearchTool is the tool_search tool of a request (the SDK's
// ToolSearchTool), executed by the client, with the description and
// parameters the model sees.
type OpenAIToolSearchTool struct {
	Type        string          `json:"type"`
	Execution   string          `json:"execution"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// OpenAIFunctionTool is a function tool definition (the SDK's
// FunctionTool). Strict is always sent: the SDK's type requires it, and
// MCP input schemas seldom meet strict mode's rules, so it is false.
type OpenAIFunctionTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// OpenAIToolSearchOutput is the tool_search_output input item (the SDK's
// ResponseToolSearchOutputItemParam) that answers a client-executed
// tool_search_call.
type OpenAIToolSearchOutput struct {
	Type      string               `json:"type"`
	CallID    string               `json:"call_id"`
	Execution string               `json:"execution"`
	Status    string               `json:"status"`
	Tools     []OpenAIFunctionTool `json:"tools"`
}

// OpenAISearchTool is the client-executed tool_search tool.
func OpenAISearchTool() OpenAIToolSearchTool {
	return OpenAIToolSearchTool{Type: "tool_search", Execution: "client", Description: searchToolDescription, Parameters: searchToolSchema}
}

// NewOpenAIToolSearchOutput answers the tool_search_call callID with the
// tools of page, best first, as function definitions: the name,
// description and inputSchema (as parameters) of each. A page without
// items answers no tools (the output has no place for the server's hint).
// A name the API refuses is an error.
func NewOpenAIToolSearchOutput(callID string, page *Page) (OpenAIToolSearchOutput, error) {
	out := OpenAIToolSearchOutput{Type: "tool_search_output", CallID: callID, Execution: "client", Status: "completed", Tools: []OpenAIFunctionTool{}}
	tools, err := toolsOf(page.Items)
	if err != nil {
		return out, err
	}
	for _, t := range tools {
		out.Tools = append(out.Tools, OpenAIFunctionTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	return out, nil
}
