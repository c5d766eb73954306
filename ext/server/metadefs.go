package server

import (
	"encoding/json"
	"strings"
)

// searchToolsDefinition is search_tools' definition; it names call_tool
// only when call_tool is listed (proxy).
func searchToolsDefinition(proxy bool) json.RawMessage {
	if proxy {
		return json.RawMessage(searchToolsDef)
	}
	return json.RawMessage(strings.Replace(searchToolsDef, callWithCallTool, callByName, 1))
}

// The sentence of search_tools' description that says how to call what
// it found, with call_tool and without it.
const (
	callWithCallTool = "Then call the one that fits with call_tool."
	callByName       = "Then call the one that fits by its exact name."
)
