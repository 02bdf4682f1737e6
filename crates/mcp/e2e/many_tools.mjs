// An MCP server with N tools (default 1000), and P prompts and P
// resources (default none), built with the official TypeScript SDK, for
// the gateway's G3 benchmark (peak RSS with 1,000 upstream tools
// admitted; and with ten such servers of 100 each). Each tool has a
// realistic description and a schema of three typed properties; tools
// answer with their name, prompts and resources with theirs.
//
// Usage: node many_tools.mjs [N [P]]

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const count = Number(process.argv[2] ?? 1000);
const others = Number(process.argv[3] ?? 0);
const verbs = ["get", "list", "create", "update", "delete", "search", "export", "sync"];
const nouns = ["issue", "invoice", "contact", "deal", "ticket", "repo", "page", "event", "order", "file"];
const tools = [];
for (let i = 0; i < count; i++) {
  const verb = verbs[i % verbs.length];
  const noun = nouns[Math.floor(i / verbs.length) % nouns.length];
  const name = `${verb}_${noun}_${i}`;
  tools.push({
    name,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} in workspace ${i}. Takes the ${noun}'s id, an optional filter and a page size; answers with the matching records as JSON, newest first.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: `The ${noun}'s id.` },
        filter: { type: "string", description: "Only records matching this expression." },
        page_size: { type: "integer", description: "At most this many records (1 to 100)." },
      },
      required: ["id"],
    },
    annotations: { readOnlyHint: verb === "get" || verb === "list" || verb === "search" },
  });
}

const prompts = [];
const resources = [];
for (let i = 0; i < others; i++) {
  const noun = nouns[i % nouns.length];
  prompts.push({
    name: `summarize_${noun}_${i}`,
    description: `Summarize a ${noun} of workspace ${i} for a status update.`,
    arguments: [{ name: "id", description: `The ${noun}'s id.`, required: true }],
  });
  resources.push({
    uri: `many://workspace/${i}/${noun}s`,
    name: `${noun}s of workspace ${i}`,
    description: `Every ${noun} of workspace ${i}, as JSON.`,
    mimeType: "application/json",
  });
}

const capabilities = others > 0 ? { tools: {}, prompts: {}, resources: {} } : { tools: {} };
const server = new Server({ name: "many-tools", version: "1.0.0" }, { capabilities });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
if (others > 0) {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
    messages: [{ role: "user", content: { type: "text", text: `prompt ${request.params.name}` } }],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
    contents: [{ uri: request.params.uri, mimeType: "application/json", text: "[]" }],
  }));
}
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: `called ${request.params.name}` }],
}));
await server.connect(new StdioServerTransport());
