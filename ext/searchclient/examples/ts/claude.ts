// Claude Messages API with a client-side tool search over mcpsearch
// (@anthropic-ai/sdk 1.15.0): the request holds a search tool the
// application runs; when Claude calls it, the application asks mcpsearch
// (tools/search) and answers with tool_reference blocks. Every tool a
// tool_reference names must be in the request's tools with
// defer_loading: true, so each tool found is added, deferred, before the
// next request. Run: ANTHROPIC_API_KEY=… node --experimental-strip-types claude.ts
import Anthropic from "@anthropic-ai/sdk";
import { callTool, searchTools, toolSearchDescription, toolSearchSchema, type McpTool, type ToolSearchInput } from "./mcpsearch.ts";

const client = new Anthropic();
const model = process.env.CLAUDE_MODEL ?? "claude-sonnet-4-6";

const searchTool: Anthropic.Messages.Tool = {
  name: "search_tools",
  description: toolSearchDescription,
  input_schema: toolSearchSchema,
};

/** The tools found so far, deferred: Claude loads one when a tool_reference names it. */
const deferred = new Map<string, Anthropic.Messages.Tool>();

function deferredTool(t: McpTool): Anthropic.Messages.Tool {
  return {
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema ?? { type: "object" },
    defer_loading: true,
  };
}

async function answer(block: Anthropic.Messages.ToolUseBlock): Promise<Anthropic.Messages.ToolResultBlockParam> {
  if (block.name !== searchTool.name) {
    return { type: "tool_result", tool_use_id: block.id, content: await callTool(block.name, block.input) };
  }
  const { tools, hint } = await searchTools(block.input as ToolSearchInput);
  if (tools.length === 0) {
    return { type: "tool_result", tool_use_id: block.id, content: [{ type: "text", text: hint ?? "no tool fits this query" }] };
  }
  for (const t of tools) deferred.set(t.name, deferredTool(t));
  const references: Anthropic.Messages.ToolReferenceBlockParam[] = tools.map((t) => ({ type: "tool_reference", tool_name: t.name }));
  return { type: "tool_result", tool_use_id: block.id, content: references };
}

export async function run(task: string): Promise<string> {
  const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: task }];
  for (;;) {
    const response = await client.messages.create({
      model,
      max_tokens: 4096,
      tools: [searchTool, ...deferred.values()],
      messages,
    });
    messages.push({ role: "assistant", content: response.content });
    if (response.stop_reason !== "tool_use") {
      return response.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    }
    const results: Anthropic.Messages.ToolResultBlockParam[] = [];
    for (const block of response.content) {
      if (block.type === "tool_use") results.push(await answer(block));
    }
    messages.push({ role: "user", content: results });
  }
}

if (process.argv[2]) console.log(await run(process.argv.slice(2).join(" ")));
