package searchclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tsDir holds the TypeScript examples and the npm packages they are
// checked against (make test-deps installs them: NPM_DIRS).
const tsDir = "examples/ts"

// sdkTypes names, for each golden wire object, the SDK type tsc checks it
// against.
var sdkTypes = map[string]string{
	"claude_search_tool":        "Anthropic.Messages.Tool",
	"claude_deferred_tool":      "Anthropic.Messages.Tool",
	"claude_tool_result":        "Anthropic.Messages.ToolResultBlockParam",
	"claude_tool_result_empty":  "Anthropic.Messages.ToolResultBlockParam",
	"claude_tool_error":         "Anthropic.Messages.ToolResultBlockParam",
	"openai_search_tool":        "OpenAI.Responses.ToolSearchTool",
	"openai_tool_search_output": "OpenAI.Responses.ResponseToolSearchOutputItemParam",
}

// TestTypeScriptExamples runs tsc --noEmit over the TypeScript examples
// (claude.ts, openai.ts), over the wire objects this package makes, each
// written as an object literal of its SDK type and used in a request, and
// over ext/README.md's MCP connector snippet, as a beta Messages request —
// so a member the SDK does not know, a missing one or a wrong literal
// fails (object literals get excess-property checks). Without node or the
// packages it is skipped, saying so; under CI=true it fails.
func TestTypeScriptExamples(t *testing.T) {
	tsc := tsTool(t, "node_modules/typescript/bin/tsc")
	tsTool(t, "node_modules/@anthropic-ai/sdk/package.json")
	tsTool(t, "node_modules/openai/package.json")
	gen := filepath.Join(tsDir, "gen")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(gen) })
	if err := os.WriteFile(filepath.Join(gen, "wire.ts"), wireTypeScript(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", tsc, "-p", tsDir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("tsc -p %s: %v\n%s", tsDir, err, out.String())
	}
}

// wireTypeScript writes each golden wire object as a constant of its SDK
// type, and the objects into a Messages request and a Responses request.
func wireTypeScript(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("// Written by TestTypeScriptExamples from ext/searchclient's wire objects.\n")
	b.WriteString("import type Anthropic from \"@anthropic-ai/sdk\";\nimport type OpenAI from \"openai\";\n\n")
	objs := wireObjects(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range objs {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		typ, ok := sdkTypes[name]
		if !ok {
			t.Fatalf("wire object %s has no SDK type in sdkTypes", name)
		}
		raw, err := json.MarshalIndent(objs[name], "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "export const %s: %s = %s;\n\n", name, typ, raw)
	}
	connector := connectorSnippet(t)
	fmt.Fprintf(&b, `// ext/README.md's MCP connector snippet ("Claude API"), as a beta request.
export const connectorRequest: Anthropic.Beta.Messages.MessageCreateParamsNonStreaming = {
  model: "claude-sonnet-4-6",
  max_tokens: 1024,
  betas: ["mcp-client-2025-11-20"],
  messages: [{ role: "user", content: "Take a screenshot of the page" }],
  %s
};

`, connector)
	b.WriteString(`export const messagesRequest: Anthropic.Messages.MessageCreateParamsNonStreaming = {
  model: "claude-sonnet-4-6",
  max_tokens: 1024,
  tools: [claude_search_tool, claude_deferred_tool],
  messages: [{ role: "user", content: [claude_tool_result, claude_tool_result_empty, claude_tool_error] }],
};

export const responsesRequest: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
  model: "gpt-5.4",
  tools: [openai_search_tool],
  input: [openai_tool_search_output],
};
`)
	return b.Bytes()
}

// tsTool returns the absolute path of rel under tsDir; without node or the
// file it skips the test, or fails it under CI=true.
func tsTool(t *testing.T, rel string) string {
	t.Helper()
	install := "install Node.js ≥ 20 (apt-get install nodejs npm) and run `npm ci --prefix ext/searchclient/examples/ts` (make test-deps)"
	missing := func(why string) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s: %s (CI installs them: .ci/run, make test)", why, install)
		}
		t.Skipf("%s: %s", why, install)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not on PATH")
	}
	path, err := filepath.Abs(filepath.Join(tsDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		missing(strings.TrimPrefix(rel, "node_modules/") + " is not installed")
	}
	return path
}

// connectorSnippet returns the members of ext/README.md's MCP connector
// snippet (the JSON block of "Clients people use" with mcp_servers),
// without the braces around them, to write into a request literal.
func connectorSnippet(t *testing.T) string {
	t.Helper()
	for _, block := range jsonBlocks(readmeSection(t, "../README.md", "Clients people use")) {
		if strings.Contains(block, `"mcp_servers"`) {
			block = strings.TrimSpace(block)
			return strings.TrimSuffix(strings.TrimPrefix(block, "{"), "}")
		}
	}
	t.Fatal("ext/README.md's \"Clients people use\" has no MCP connector snippet (mcp_servers)")
	return ""
}
