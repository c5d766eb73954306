// A client of mcpsearch written with the official TypeScript SDK
// (@modelcontextprotocol/sdk), run by infra/e2e/interop_test.go:
//
//   node infra/testenv/interop/ts/client.mjs http://127.0.0.1:PORT/mcp
//
// It connects over Streamable HTTP, reads the capabilities, calls the four
// search methods through client.request with a result schema, follows
// nextCursor, and walks listTools to its last page. It prints one JSON
// object of what it saw on stdout; the Go test checks it. Any error exits 1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";

const url = process.argv[2];
if (!url) {
  console.error("usage: node client.mjs URL");
  process.exit(2);
}

// The result of a */search method: the list result's shape, items kept as
// the server sent them.
const searchResult = (key) =>
  z.object({ [key]: z.array(z.looseObject({})), nextCursor: z.string().optional(), _meta: z.looseObject({}).optional() });

const searches = [
  { method: "tools/search", key: "tools", query: "take a screenshot of the page" },
  { method: "prompts/search", key: "prompts", query: "summary of a task" },
  { method: "resources/search", key: "resources", query: "mongodb connection debugging" },
  { method: "resources/templates/search", key: "resourceTemplates", query: "asana project" },
];

async function search(client, { method, key, query }) {
  const first = await client.request({ method, params: { query, limit: 2 } }, searchResult(key));
  const out = { names: first[key].map((i) => i.name ?? i.uri), scores: first[key].map((i) => i._meta?.["io.github.mcpsearch/score"]) };
  if (first.nextCursor) {
    const second = await client.request({ method, params: { query, limit: 2, cursor: first.nextCursor } }, searchResult(key));
    out.secondPage = second[key].map((i) => i.name ?? i.uri);
  }
  return out;
}

async function walkTools(client) {
  let pages = 0, count = 0, cursor;
  const names = new Set();
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    pages++;
    count += page.tools.length;
    page.tools.forEach((t) => names.add(t.name));
    cursor = page.nextCursor;
  } while (cursor);
  return { pages, count, distinct: names.size };
}

// Keep the raw initialize result: the SDK's capability schema knows only
// tools.listChanged and drops tools.search when it parses.
let rawInit = null;
const recordingFetch = async (input, init) => {
  const res = await fetch(input, init);
  if (init?.body && JSON.parse(init.body).method === "initialize") rawInit = await res.clone().json();
  return res;
};

const client = new Client({ name: "mcpsearch-interop-ts", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch }));
const caps = client.getServerCapabilities() ?? {};
const result = {
  wireToolsSearch: rawInit?.result?.capabilities?.tools?.search ?? null,
  protocolVersion: client.transport?.protocolVersion,
  serverInfo: client.getServerVersion(),
  capabilities: {
    toolsSearch: caps.tools?.search ?? null,
    extension: caps.extensions?.["io.github.mcpsearch/search"] ?? null,
    experimental: caps.experimental?.search ?? null,
  },
  search: {},
};
for (const s of searches) result.search[s.method] = await search(client, s);
result.listTools = await walkTools(client);
await client.close();
console.log(JSON.stringify(result));
