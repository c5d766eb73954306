package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// searchToolsDefinition is search_tools' definition; it names call_tool
// only when call_tool is listed (proxy). Without it, nothing the search
// finds can be called through this server, and the description says what
// the results are for instead: no word of it promises a call.
func searchToolsDefinition(proxy bool) json.RawMessage {
	if proxy {
		return json.RawMessage(searchToolsDef)
	}
	return json.RawMessage(strings.NewReplacer(offeredHere, indexedHereTools, callWithCallTool, resultsAreFor, lacksWhatItNeeds, lacksForYou).Replace(searchToolsDef))
}

// The sentences of search_tools' description that differ with call_tool
// (the first of each pair) and without it.
const (
	offeredHere      = "Find tools for a task among the many this server offers: they are not listed, search them first."
	indexedHereTools = "Find tools for a task among the many this server indexes: they are not listed, search them first."
	callWithCallTool = "Then call the one that fits with call_tool."
	resultsAreFor    = "It does not run them: the results say which tools exist and what they take."
	lacksWhatItNeeds = "do not call a tool for that part of the task."
	lacksForYou      = "no tool here does that part of the task."
)

// searchToolsFor is search_tools as the caller in ctx sees it: its
// description ends with the caller's directory of servers.
func searchToolsFor(ctx context.Context, h *Handler, proxy bool) (json.RawMessage, error) {
	tool := searchToolsDefinition(proxy)
	dir, err := h.directoryFor(ctx)
	if err != nil || dir == "" {
		return tool, err
	}
	var def struct {
		Meta        json.RawMessage `json:"_meta"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations json.RawMessage `json:"annotations"`
	}
	if err := json.Unmarshal(tool, &def); err != nil {
		return nil, fmt.Errorf("search_tools definition: %w", err)
	}
	def.Description += "\n\n" + dir
	return json.Marshal(def)
}

const searchToolsDef = `{"_meta":{"anthropic/alwaysLoad":true},"name":"search_tools","description":"Find tools for a task among the many this server offers: they are not listed, search them first. Describe what you want to do in plain words (\"open a merge request\", \"list failing pipelines\"), not a guessed tool name. Returns the best matching tools, best first, with their exact names, descriptions and input schemas. Then call the one that fits with call_tool. A hint names what the task asks that no tool here holds, or why nothing fits: do not call a tool for that part of the task. Search again with other words if none fits. To load tools whose exact names you know, query select:name1,name2.","inputSchema":{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in plain words."},"limit":{"type":"integer","minimum":1,"maximum":50,"description":"How many tools to return (default 10)."}},"required":["query"]},"annotations":{"title":"Search tools","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}`

const callToolDef = `{"_meta":{"anthropic/alwaysLoad":true},"name":"call_tool","description":"Call a tool that search_tools returned: name is its exact name from the results (such as \"gitlab__create_merge_request\"), arguments an object that matches its inputSchema. Returns that tool's result.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"The exact name of a tool that search_tools returned."},"arguments":{"type":"object","description":"The tool's arguments, matching its inputSchema."}},"required":["name"]},"annotations":{"title":"Call a tool"}}`
