// OpenAI Responses API with a client-executed tool search over mcpsearch
// (openai 7.59.0): the request holds a tool_search tool with execution
// "client"; when the model searches, the response holds a
// tool_search_call, and the application asks mcpsearch (tools/search) and
// answers with a tool_search_output holding the definitions of the tools
// found. Run (the openai package needs Node ≥ 22):
// OPENAI_API_KEY=… node --experimental-strip-types openai.ts
import OpenAI from "openai";
import { callTool, searchTools, toolSearchDescription, toolSearchSchema, type McpTool, type ToolSearchInput } from "./mcpsearch.ts";

const client = new OpenAI();
const model = process.env.OPENAI_MODEL ?? "gpt-5.4";

const tools: OpenAI.Responses.Tool[] = [
  { type: "tool_search", execution: "client", description: toolSearchDescription, parameters: toolSearchSchema },
];

function functionTool(t: McpTool): OpenAI.Responses.FunctionTool {
  return {
    type: "function",
    name: t.name,
    description: t.description,
    parameters: t.inputSchema ?? { type: "object" },
    strict: false,
  };
}

async function toolSearchOutput(call: OpenAI.Responses.ResponseToolSearchCall): Promise<OpenAI.Responses.ResponseToolSearchOutputItemParam> {
  const found = await searchTools(call.arguments as ToolSearchInput);
  return {
    type: "tool_search_output",
    call_id: call.call_id,
    execution: "client",
    status: "completed",
    tools: found.tools.map(functionTool),
  };
}

export async function run(task: string): Promise<string> {
  let input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: task }];
  let previous: string | undefined;
  for (;;) {
    const response = await client.responses.create({ model, tools, input, previous_response_id: previous });
    const next: OpenAI.Responses.ResponseInputItem[] = [];
    for (const item of response.output) {
      if (item.type === "tool_search_call" && item.execution === "client") {
        next.push(await toolSearchOutput(item));
      } else if (item.type === "function_call") {
        next.push({ type: "function_call_output", call_id: item.call_id, output: await callTool(item.name, JSON.parse(item.arguments)) });
      }
    }
    if (next.length === 0) return response.output_text;
    input = next;
    previous = response.id;
  }
}

if (process.argv[2]) console.log(await run(process.argv.slice(2).join(" ")));
