package searchclient

import (
	"cmp"
	"encoding/json"
)

// Claude Messages API: a client-side tool search. The request's tools hold
// the tool search tool ([ClaudeSearchTool], loaded) and the tools it may
// find, each with defer_loading: true ([ClaudeDeferredTools]); when Claude
// calls the search tool (a tool_use block), the application searches
// mcpsearch and answers with a tool_result whose content is one
// tool_reference block a tool found ([NewClaudeToolResult]). Claude then
// sees those tools' definitions and can call them. Every tool a
// tool_reference names must be defined, deferred, in the tools of the
// request that carries the tool_result: send the whole catalog deferred,
// or add the definitions of the tools found before the next request.
//
// The shapes are @anthropic-ai/sdk 1.15.0's Tool, ToolResultBlockParam,
// ToolReferenceBlockParam and TextBlockParam (resources/messages).

// ClaudeTool is a tool definition of a Messages API request (the SDK's
// Tool): a custom tool, defer_loading set for a tool that tool search
// loads.
type ClaudeTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	DeferLoading bool            `json:"defer_loading,omitempty"`
}

// ClaudeContentBlock is one block of a tool_result's content: a
// tool_reference (the SDK's ToolReferenceBlockParam) naming a tool to
// load, or a text (TextBlockParam).
type ClaudeContentBlock struct {
	Type     string `json:"type"`
	ToolName string `json:"tool_name,omitempty"`
	Text     string `json:"text,omitempty"`
}

// ClaudeToolResult is the tool_result block (the SDK's
// ToolResultBlockParam) that answers the tool search tool's tool_use, in
// the content of the next user message.
type ClaudeToolResult struct {
	Type      string               `json:"type"`
	ToolUseID string               `json:"tool_use_id"`
	Content   []ClaudeContentBlock `json:"content"`
	IsError   bool                 `json:"is_error,omitempty"`
}

// ClaudeSearchTool is the definition of the tool search tool, named
// SearchToolName, that the application runs; it is not deferred.
func ClaudeSearchTool() ClaudeTool {
	return ClaudeTool{Name: SearchToolName, Description: searchToolDescription, InputSchema: searchToolSchema}
}

// ClaudeDeferredTools turns the MCP tools of items (a search page's, or a
// tools/list walk's) into deferred tool definitions, in order: the name,
// description and inputSchema of each, with defer_loading: true. A name
// the API refuses is an error.
func ClaudeDeferredTools(items []Item) ([]ClaudeTool, error) {
	tools, err := toolsOf(items)
	if err != nil {
		return nil, err
	}
	out := make([]ClaudeTool, len(tools))
	for i, t := range tools {
		out[i] = ClaudeTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, DeferLoading: true}
	}
	return out, nil
}

// NewClaudeToolResult answers the tool_use toolUseID of the tool search
// tool with the tools of page, best first, as tool_reference blocks. A
// page without items answers one text block instead — the server's hint,
// or that no tool fits — since there is nothing to load. A name the API
// refuses is an error.
func NewClaudeToolResult(toolUseID string, page *Page) (ClaudeToolResult, error) {
	res := ClaudeToolResult{Type: "tool_result", ToolUseID: toolUseID, Content: []ClaudeContentBlock{}}
	tools, err := toolsOf(page.Items)
	if err != nil {
		return res, err
	}
	for _, t := range tools {
		res.Content = append(res.Content, ClaudeContentBlock{Type: "tool_reference", ToolName: t.Name})
	}
	if len(tools) == 0 {
		res.Content = append(res.Content, ClaudeContentBlock{Type: "text", Text: noToolText(page)})
	}
	return res, nil
}

// NewClaudeToolError answers the tool_use toolUseID with err (a bad input,
// a failed search) as an error result the model reads.
func NewClaudeToolError(toolUseID string, err error) ClaudeToolResult {
	return ClaudeToolResult{Type: "tool_result", ToolUseID: toolUseID, IsError: true,
		Content: []ClaudeContentBlock{{Type: "text", Text: err.Error()}}}
}

// noToolText says why a page holds no tool.
func noToolText(page *Page) string {
	return cmp.Or(page.Hint, "no tool fits this query") + ": search again with other words"
}
