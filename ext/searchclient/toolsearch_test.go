package searchclient_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/searchclient"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsearch/*.json")

// foundPage is a search page of two tools, as mcpsearch answers it (score
// and server in _meta, which no API definition carries).
func foundPage() *searchclient.Page {
	return &searchclient.Page{Items: []searchclient.Item{
		{Name: "chrome-devtools__take_screenshot", Object: json.RawMessage(`{"_meta":{"io.github.mcpsearch/score":1.88,"io.github.mcpsearch/server":"chrome-devtools"},` +
			`"name":"chrome-devtools__take_screenshot","title":"Screenshot","description":"Take a screenshot of the page or element.",` +
			`"inputSchema":{"type":"object","properties":{"fullPage":{"type":"boolean"}}},"annotations":{"readOnlyHint":true}}`)},
		{Name: "playwright__browser_take_screenshot", Object: json.RawMessage(`{"name":"playwright__browser_take_screenshot","description":"Take a screenshot"}`)},
	}}
}

// shape is what an SDK type says of an object's members: those it
// requires, those it allows besides, and the literal values of its
// discriminators.
type shape struct {
	sdkType  string
	required []string
	optional []string
	literals map[string]any
}

// The SDK types the wire objects must fit, written from the .d.ts files of
// @anthropic-ai/sdk 1.15.0 (resources/messages/messages.d.ts) and openai
// 7.59.0 (resources/responses/responses.d.ts). TestTypeScriptExamples has
// tsc check the same objects against the installed types.
var (
	claudeTool          = shape{"Anthropic Tool", []string{"name", "input_schema"}, []string{"description", "defer_loading", "allowed_callers", "cache_control", "eager_input_streaming", "input_examples", "strict", "type"}, nil}
	claudeToolResult    = shape{"Anthropic ToolResultBlockParam", []string{"type", "tool_use_id"}, []string{"content", "is_error", "cache_control"}, map[string]any{"type": "tool_result"}}
	claudeToolReference = shape{"Anthropic ToolReferenceBlockParam", []string{"type", "tool_name"}, []string{"cache_control"}, map[string]any{"type": "tool_reference"}}
	claudeText          = shape{"Anthropic TextBlockParam", []string{"type", "text"}, []string{"cache_control", "citations"}, map[string]any{"type": "text"}}
	openAISearchTool    = shape{"OpenAI ToolSearchTool", []string{"type"}, []string{"description", "execution", "parameters"}, map[string]any{"type": "tool_search", "execution": "client"}}
	openAIOutput        = shape{"OpenAI ResponseToolSearchOutputItemParam", []string{"type", "tools"}, []string{"id", "call_id", "execution", "status"}, map[string]any{"type": "tool_search_output", "execution": "client", "status": "completed"}}
	openAIFunction      = shape{"OpenAI FunctionTool", []string{"type", "name", "parameters", "strict"}, []string{"allowed_callers", "async", "defer_loading", "description", "output_schema"}, map[string]any{"type": "function"}}
)

// check reports each member of obj the shape does not allow, each one it
// requires and obj lacks, and each discriminator of another value.
func (s shape) check(t *testing.T, where string, obj map[string]any) {
	t.Helper()
	for _, k := range s.required {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s: no %q, which %s requires", where, k, s.sdkType)
		}
	}
	for k := range obj {
		if !slices.Contains(s.required, k) && !slices.Contains(s.optional, k) {
			t.Errorf("%s: member %q, which %s does not have", where, k, s.sdkType)
		}
	}
	for k, want := range s.literals {
		if got := obj[k]; got != want {
			t.Errorf("%s: %q is %v, want %v (%s)", where, k, got, want, s.sdkType)
		}
	}
}

func decodeObject(t *testing.T, v any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// objects returns the member key of obj as a list of objects.
func objects(t *testing.T, obj map[string]any, key string) []map[string]any {
	t.Helper()
	list, ok := obj[key].([]any)
	if !ok {
		t.Fatalf("%q is %T, want an array", key, obj[key])
	}
	var out []map[string]any
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("an item of %q is %T, want an object", key, v)
		}
		out = append(out, m)
	}
	return out
}

// wireObjects are the objects the tool search functions make from
// foundPage, by golden file name.
func wireObjects(t *testing.T) map[string]any {
	t.Helper()
	deferred, err := searchclient.ClaudeDeferredTools(foundPage().Items)
	if err != nil {
		t.Fatal(err)
	}
	result, err := searchclient.NewClaudeToolResult("toolu_01", foundPage())
	if err != nil {
		t.Fatal(err)
	}
	output, err := searchclient.NewOpenAIToolSearchOutput("call_01", foundPage())
	if err != nil {
		t.Fatal(err)
	}
	empty, err := searchclient.NewClaudeToolResult("toolu_02", &searchclient.Page{Hint: "no item fits this query well"})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"claude_search_tool":        searchclient.ClaudeSearchTool(),
		"claude_deferred_tool":      deferred[0],
		"claude_tool_result":        result,
		"claude_tool_result_empty":  empty,
		"claude_tool_error":         searchclient.NewClaudeToolError("toolu_03", errors.New("searchclient: tool search input: query is empty")),
		"openai_search_tool":        searchclient.OpenAISearchTool(),
		"openai_tool_search_output": output,
	}
}

// TestToolSearchGolden: each wire object is its golden file, byte for
// byte (go test -update rewrites them).
func TestToolSearchGolden(t *testing.T) {
	for name, v := range wireObjects(t) {
		got, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "toolsearch", name+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: got\n%s\nwant\n%s", path, got, want)
		}
	}
}

// TestToolSearchShapes: every object fits its SDK type, member by member,
// and carries what the API needs of it.
func TestToolSearchShapes(t *testing.T) {
	objs := map[string]map[string]any{}
	for name, v := range wireObjects(t) {
		objs[name] = decodeObject(t, v)
	}
	claudeTool.check(t, "ClaudeSearchTool", objs["claude_search_tool"])
	if _, deferred := objs["claude_search_tool"]["defer_loading"]; deferred {
		t.Error("ClaudeSearchTool is deferred: the search tool must be loaded")
	}
	claudeTool.check(t, "ClaudeDeferredTools", objs["claude_deferred_tool"])
	if objs["claude_deferred_tool"]["defer_loading"] != true {
		t.Error("ClaudeDeferredTools: defer_loading is not true")
	}
	for _, name := range []string{"claude_tool_result", "claude_tool_result_empty", "claude_tool_error"} {
		claudeToolResult.check(t, name, objs[name])
		for _, block := range objects(t, objs[name], "content") {
			if block["type"] == "tool_reference" {
				claudeToolReference.check(t, name+" content", block)
			} else {
				claudeText.check(t, name+" content", block)
			}
		}
	}
	var names []any
	for _, block := range objects(t, objs["claude_tool_result"], "content") {
		names = append(names, block["tool_name"])
	}
	if want := []any{"chrome-devtools__take_screenshot", "playwright__browser_take_screenshot"}; !slices.Equal(names, want) {
		t.Errorf("tool_reference names %v, want %v (the page's, best first)", names, want)
	}
	openAISearchTool.check(t, "OpenAISearchTool", objs["openai_search_tool"])
	openAIOutput.check(t, "NewOpenAIToolSearchOutput", objs["openai_tool_search_output"])
	fns := objects(t, objs["openai_tool_search_output"], "tools")
	for _, fn := range fns {
		openAIFunction.check(t, "NewOpenAIToolSearchOutput tools", fn)
	}
	if len(fns) != 2 || fns[0]["name"] != "chrome-devtools__take_screenshot" || fns[1]["parameters"].(map[string]any)["type"] != "object" {
		t.Errorf("tool_search_output tools %v: want both tools, best first, each with object parameters", fns)
	}
}

// TestToolSearchEmptyPage: with nothing found, Claude is told why in a
// text block and OpenAI gets an empty list, never null.
func TestToolSearchEmptyPage(t *testing.T) {
	empty := &searchclient.Page{Hint: "no item fits this query well: the best match lacks pizza"}
	res, err := searchclient.NewClaudeToolResult("toolu_01", empty)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" || !strings.HasPrefix(res.Content[0].Text, empty.Hint) {
		t.Errorf("Claude answer to an empty page: got %+v, want one text block with the hint", res.Content)
	}
	out, err := searchclient.NewOpenAIToolSearchOutput("call_01", empty)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := json.Marshal(out); !strings.Contains(string(raw), `"tools":[]`) {
		t.Errorf("OpenAI answer to an empty page: got %s, want \"tools\":[]", raw)
	}
}

// TestToolSearchNamesRefused: a name the APIs refuse is an error naming
// it, not a request the API rejects later.
func TestToolSearchNamesRefused(t *testing.T) {
	for _, name := range []string{"files.read_file", "", strings.Repeat("a", 65), "read file"} {
		obj, _ := json.Marshal(map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}})
		page := &searchclient.Page{Items: []searchclient.Item{{Name: name, Object: obj}}}
		if _, err := searchclient.NewClaudeToolResult("toolu_01", page); err == nil || !strings.Contains(err.Error(), "64 letters") {
			t.Errorf("Claude, tool %q: got %v, want the name refused", name, err)
		}
		if _, err := searchclient.NewOpenAIToolSearchOutput("call_01", page); err == nil {
			t.Errorf("OpenAI, tool %q: no error, want the name refused", name)
		}
		if _, err := searchclient.ClaudeDeferredTools(page.Items); err == nil {
			t.Errorf("ClaudeDeferredTools, tool %q: no error, want the name refused", name)
		}
	}
}

func TestParseToolSearchInput(t *testing.T) {
	for _, test := range []struct {
		name, input string
		want        searchclient.ToolSearchInput
		err         string
	}{
		{"query", `{"query":"take a screenshot"}`, searchclient.ToolSearchInput{Query: "take a screenshot", Limit: 5}, ""},
		{"limit", `{"query":"x","limit":50}`, searchclient.ToolSearchInput{Query: "x", Limit: 50}, ""},
		{"empty query", `{"query":"  "}`, searchclient.ToolSearchInput{}, "query is empty"},
		{"no query", `{}`, searchclient.ToolSearchInput{}, "query is empty"},
		{"limit too large", `{"query":"x","limit":51}`, searchclient.ToolSearchInput{}, "limit 51 not in [1,50]"},
		{"negative limit", `{"query":"x","limit":-1}`, searchclient.ToolSearchInput{}, "limit -1 not in [1,50]"},
		{"not an object", `"screenshot"`, searchclient.ToolSearchInput{}, "cannot unmarshal"},
	} {
		t.Run(test.name, func(t *testing.T) {
			got, err := searchclient.ParseToolSearchInput(json.RawMessage(test.input))
			if test.err != "" {
				if err == nil || !strings.Contains(err.Error(), test.err) {
					t.Errorf("got %v, want an error with %q", err, test.err)
				}
				return
			}
			if err != nil || got != test.want {
				t.Errorf("got %+v, %v, want %+v", got, err, test.want)
			}
		})
	}
}
