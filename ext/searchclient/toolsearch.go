package searchclient

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The APIs' client-side tool search: the Claude Messages API and the
// OpenAI Responses API each let an application run the search for tools
// itself, through a tool it defines, and answer with the tools found. The
// types below are the wire shapes of those answers, written from the
// official SDKs' types (@anthropic-ai/sdk 1.15.0, openai 7.59.0; see
// ext/README.md, "The APIs' client-side tool search"), in the standard
// library's JSON: they marshal to exactly the objects those APIs take.

// SearchToolName is the name of the tool search tool ClaudeSearchTool
// defines; OpenAI's client-executed tool search tool has no name (its type
// is "tool_search").
const SearchToolName = "search_tools"

// searchToolDescription tells the model what the tool search tool does,
// for both APIs.
const searchToolDescription = "Find tools for a task among the many this application can use: they are not loaded, search them first. " +
	"Describe what you want to do in plain words (\"open a merge request\", \"take a screenshot of the page\"), not a guessed tool name. " +
	"The tools found are loaded and can be called next. Search again with other words if none fits."

// searchToolSchema is the JSON Schema of the tool search tool's input.
var searchToolSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"query":{"type":"string","description":"What you want to do, in plain words."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":50,"description":"How many tools to load (default 5)."}},` +
	`"required":["query"]}`)

// DefaultToolSearchLimit is the number of tools a tool search loads when
// the model gives no limit: fewer than a search page's default, since each
// one loaded costs context.
const DefaultToolSearchLimit = 5

// ToolSearchInput is what the model sends the tool search tool: the input
// of Claude's tool_use block, or the arguments of OpenAI's
// tool_search_call.
type ToolSearchInput struct {
	Query string `json:"query"`
	// Limit is the number of tools to load, 1 to ext.MaxLimit. If zero,
	// DefaultToolSearchLimit.
	Limit int `json:"limit,omitempty"`
}

// ParseToolSearchInput decodes the model's input to the tool search tool.
// An input that is not an object, an empty query or a limit out of range
// is an error, whose text can go back to the model as an error result.
func ParseToolSearchInput(raw json.RawMessage) (in ToolSearchInput, err error) {
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("searchclient: tool search input: %w", err)
	}
	switch {
	case strings.TrimSpace(in.Query) == "":
		return in, errors.New("searchclient: tool search input: query is empty")
	case in.Limit == 0:
		in.Limit = DefaultToolSearchLimit
	case in.Limit < 1 || in.Limit > ext.MaxLimit:
		return in, fmt.Errorf("searchclient: tool search input: limit %d not in [1,%d]", in.Limit, ext.MaxLimit)
	}
	return in, nil
}

// ToolSearch runs the search in a tool search tool's input: the first
// page, of in.Limit tools, of c.Search for in.Query (tools/search, or the
// fallback's local ranking).
func (c *Client) ToolSearch(ctx context.Context, in ToolSearchInput) (*Page, error) {
	for page, err := range c.Search(ctx, ext.KindTool, in.Query, &SearchOptions{Limit: cmp.Or(in.Limit, DefaultToolSearchLimit)}) {
		return page, err
	}
	return &Page{}, nil
}

// toolNamePattern is the tool names both APIs accept: Claude's
// ^[a-zA-Z0-9_-]{1,64}$ and OpenAI's function names (letters, digits,
// underscores and dashes, at most 64).
var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// mcpTool is the part of an MCP tool that becomes an API tool definition.
type mcpTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// toolOf reads the MCP tool of a search item. A name the APIs refuse is an
// error naming it (mcpsearch build --separator "." makes such names); a
// tool without an input schema takes any object.
func toolOf(it Item) (mcpTool, error) {
	var t mcpTool
	if err := json.Unmarshal(it.Object, &t); err != nil {
		return t, fmt.Errorf("searchclient: tool %q: %w", it.Name, err)
	}
	if !toolNamePattern.MatchString(t.Name) {
		return t, fmt.Errorf("searchclient: tool %q: the APIs take tool names of 1 to 64 letters, digits, '_' and '-' only", t.Name)
	}
	if len(t.InputSchema) == 0 || string(t.InputSchema) == "null" {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	return t, nil
}

// toolsOf reads the MCP tools of the items, in order.
func toolsOf(items []Item) ([]mcpTool, error) {
	out := make([]mcpTool, 0, len(items))
	for _, it := range items {
		t, err := toolOf(it)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
