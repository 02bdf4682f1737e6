// The official TypeScript MCP SDK (npm @modelcontextprotocol/sdk) as a
// client of `disclose mcp` (protocol 2025-11-25, the SDK's own): over
// stdio, or by URL with the SDK's streamable HTTP client (the bearer token
// from the environment variable MCP_BEARER_TOKEN, when set; the session is
// ended with DELETE on close).
//
// Usage: node client.mjs ELICIT -- COMMAND [ARG...]
//        node client.mjs ELICIT -- URL
//
// ELICIT is `yes` to declare the elicitation capability (form and URL
// mode), `no` not to; with MCP_SAMPLING=1 in the environment the client
// declares sampling too, and answers each request with the text
// "sampled: " and the last message's text. Every notification of a
// resource update or a list change is kept for the `notes` op.
// Commands come on stdin, one JSON object a line; each answer goes to
// stdout as one JSON line (read by crates/mcp/tests/):
//
//   {"op": "list_tools"}                          -> {"tools": [...]}
//   {"op": "call", "name", "args", "answers",
//    "cancel_after_ms"?, "progress"?}             -> {"result"} | {"error"}, "asked", "progress"
//      progress: true to ask for progress (the SDK sends its own
//      progressToken); each notification the SDK hands `onprogress` for
//      this call is {progress, total, message}, in the order it came.
//   {"op": "concurrent", "calls": [{name, args}]} -> {"results": [...], "ms": [...]}
//      answers: each elicitation's answer, in order: "allow once", "allow
//      for this session", "decline" (accepted with that decision),
//      "reject" (action decline), "cancel", or an object (accepted with it
//      as the content); "asked" is each question's message.
//   {"op": "list_prompts"} / {"op": "list_resources"} / {"op": "list_templates"}
//                                                 -> {"prompts"} / {"resources"} / {"resourceTemplates"}
//   {"op": "get_prompt", "name", "args"?}         -> {"result"} | {"error", "code"}
//   {"op": "read", "uri"}                         -> {"result"} | {"error", "code"}
//   {"op": "subscribe" | "unsubscribe", "uri"}    -> {"result"} | {"error", "code"}
//   {"op": "complete", "ref", "argument"}         -> {"result"} | {"error", "code"}
//   {"op": "notes", "wait_ms"?, "until"?}         -> {"notes": [{method, uri?}]}, after
//      waiting up to wait_ms for a note whose method is `until` (all of
//      them so far, then forgotten)
//   {"op": "close"}
//
// The first line written is {"ready": true, "protocol", "instructions"}.

import readline from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const elicit = process.argv[2] === "yes";
const command = process.argv.slice(process.argv.indexOf("--") + 1);
const answers = [];
const asked = [];

const sampling = process.env.MCP_SAMPLING === "1";
const capabilities = {};
if (elicit) capabilities.elicitation = { form: {}, url: {} };
if (sampling) capabilities.sampling = {};
const client = new Client({ name: "disclose-e2e-ts", version: "1.0.0" }, { capabilities });
if (elicit) {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    const answer = answers.length ? answers.shift() : "cancel";
    if (typeof answer === "object") return { action: "accept", content: answer };
    if (answer === "reject") return { action: "decline" };
    if (answer === "cancel") return { action: "cancel" };
    if (request.params.mode === "url") return { action: "accept" };
    return { action: "accept", content: { decision: answer } };
  });
}
if (sampling) {
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const messages = request.params.messages;
    const last = messages[messages.length - 1];
    asked.push(`sampling: ${last.content.text}`);
    return {
      role: "assistant",
      model: "e2e-model",
      content: { type: "text", text: `sampled: ${last.content.text}` },
    };
  });
}
const notes = [];
let noted = () => {};
for (const schema of [
  ResourceUpdatedNotificationSchema,
  ResourceListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
]) {
  client.setNotificationHandler(schema, (notification) => {
    notes.push({ method: notification.method, uri: notification.params?.uri ?? null });
    noted();
  });
}
const failed = (error) => ({ error: String(error), code: error?.code ?? null });

const byUrl = /^https?:\/\//.test(command[0]);
const token = process.env.MCP_BEARER_TOKEN;
const transport = byUrl
  ? new StreamableHTTPClientTransport(new URL(command[0]), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
    })
  : new StdioClientTransport({
      command: command[0],
      args: command.slice(1),
      env: process.env,
      stderr: "inherit",
    });
await client.connect(transport);

const write = (value) => process.stdout.write(JSON.stringify(value) + "\n");
write({
  ready: true,
  protocol: (byUrl ? transport.protocolVersion : transport._protocolVersion) ?? null,
  instructions: client.getInstructions() ?? null,
});

const timeout = 120000;
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const order = JSON.parse(line);
  if (order.op === "close") break;
  try {
    if (order.op === "list_tools") {
      const result = await client.listTools(undefined, { timeout });
      write({ tools: result.tools });
    } else if (order.op === "call") {
      answers.splice(0, answers.length, ...(order.answers ?? []));
      asked.length = 0;
      const abort = new AbortController();
      if (order.cancel_after_ms !== undefined) {
        setTimeout(() => abort.abort("the test cancels"), order.cancel_after_ms);
      }
      const progress = [];
      const onprogress = order.progress
        ? (p) => progress.push({ progress: p.progress, total: p.total ?? null, message: p.message ?? null })
        : undefined;
      try {
        const result = await client.callTool(
          { name: order.name, arguments: order.args },
          undefined,
          { signal: abort.signal, timeout, onprogress },
        );
        write({ result, asked: [...asked], progress });
      } catch (error) {
        write({ error: String(error), asked: [...asked], progress });
      }
    } else if (order.op === "concurrent") {
      const started = Date.now();
      const results = await Promise.all(
        order.calls.map(async (call) => {
          const result = await client.callTool(
            { name: call.name, arguments: call.args },
            undefined,
            { timeout },
          );
          return { result, ms: Date.now() - started };
        }),
      );
      write({ results: results.map((r) => r.result), ms: results.map((r) => r.ms) });
    } else if (order.op === "list_prompts") {
      write(await client.listPrompts(undefined, { timeout }));
    } else if (order.op === "list_resources") {
      write(await client.listResources(undefined, { timeout }));
    } else if (order.op === "list_templates") {
      write(await client.listResourceTemplates(undefined, { timeout }));
    } else if (["get_prompt", "read", "subscribe", "unsubscribe", "complete"].includes(order.op)) {
      answers.splice(0, answers.length, ...(order.answers ?? []));
      asked.length = 0;
      const request = {
        get_prompt: () => client.getPrompt({ name: order.name, arguments: order.args }, { timeout }),
        read: () => client.readResource({ uri: order.uri }, { timeout }),
        subscribe: () => client.subscribeResource({ uri: order.uri }, { timeout }),
        unsubscribe: () => client.unsubscribeResource({ uri: order.uri }, { timeout }),
        complete: () => client.complete({ ref: order.ref, argument: order.argument }, { timeout }),
      }[order.op];
      try {
        write({ result: await request(), asked: [...asked] });
      } catch (error) {
        write({ ...failed(error), asked: [...asked] });
      }
    } else if (order.op === "notes") {
      const deadline = Date.now() + (order.wait_ms ?? 0);
      while (Date.now() < deadline && !notes.some((n) => n.method === order.until)) {
        await new Promise((resolve) => {
          noted = resolve;
          setTimeout(resolve, deadline - Date.now());
        });
      }
      write({ notes: notes.splice(0, notes.length) });
    } else {
      write({ error: `unknown op ${order.op}` });
    }
  } catch (error) {
    write({ error: String(error) });
  }
}
if (byUrl) await transport.terminateSession();
await client.close();
process.exit(0);
