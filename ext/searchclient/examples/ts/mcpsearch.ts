// The two calls both examples make to mcpsearch, as plain JSON-RPC over
// HTTP: mcpsearch answers each POST /mcp with one JSON body and needs no
// session (ext/README.md, "The protocol").

/** An MCP tool as tools/search answers it. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema?: { type: "object"; [key: string]: unknown };
  _meta?: Record<string, unknown>;
}

/** The tool search tool's input, as the model sends it. */
export interface ToolSearchInput {
  query: string;
  limit?: number;
}

/** The JSON Schema of that input, for both APIs' tool search tools. */
export const toolSearchSchema = {
  type: "object" as const,
  properties: {
    query: { type: "string", description: "What you want to do, in plain words." },
    limit: { type: "integer", minimum: 1, maximum: 50, description: "How many tools to load (default 5)." },
  },
  required: ["query"],
};

export const toolSearchDescription =
  "Find tools for a task among the many this application can use: they are not loaded, search them first. " +
  "Describe what you want to do in plain words, not a guessed tool name. The tools found are loaded and can be called next.";

const url = process.env.MCPSEARCH_URL ?? "http://127.0.0.1:8080/mcp";
let nextId = 1;

async function rpc<T>(method: string, params: object): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const msg = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (msg.error) throw new Error(`mcpsearch ${method}: ${msg.error.code} ${msg.error.message}`);
  return msg.result as T;
}

/** tools/search: the best tools for the query, best first, and the server's hint. */
export async function searchTools(input: ToolSearchInput): Promise<{ tools: McpTool[]; hint?: string }> {
  const result = await rpc<{ tools: McpTool[]; _meta?: Record<string, unknown> }>("tools/search", {
    query: input.query,
    limit: input.limit ?? 5,
  });
  return { tools: result.tools, hint: result._meta?.["io.github.mcpsearch/hint"] as string | undefined };
}

/** tools/call through mcpsearch's gateway (servers with an upstream), as text for the model. */
export async function callTool(name: string, args: unknown): Promise<string> {
  const result = await rpc<{ content: Array<{ type: string; text?: string }>; isError?: boolean }>("tools/call", {
    name,
    arguments: args ?? {},
  });
  return result.content.map((c) => c.text ?? JSON.stringify(c)).join("\n");
}
