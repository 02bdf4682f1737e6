// The official TypeScript SDK as the client of script/bench-mcp's hop
// benchmark (G1, G1p): the `calls` op of e2e/bench_hop_client.py, the same
// spec and the same answer, so both SDKs make the same calls in the same
// order. Copied beside node_modules by script/bench-mcp.
//
// Usage: node bench_hop_client.mjs SPEC.json  (prints one JSON object)

import { openSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
if (spec.op !== "calls") throw new Error(`only the calls op, not ${spec.op}`);
const errlog = openSync(process.env.BENCH_MCP_LOG ?? "/dev/null", "a");

function transport(connection) {
  if (connection.stdio) {
    const [command, ...args] = connection.stdio;
    return new StdioClientTransport({ command, args, env: { ...process.env }, stderr: errlog });
  }
  if (connection.sse) return new SSEClientTransport(new URL(connection.sse));
  return new StreamableHTTPClientTransport(new URL(connection.http));
}

const targets = [];
for (const system of spec.systems) {
  const client = new Client({ name: "bench-hop", version: "0.0.0" });
  await client.connect(transport(system.connection));
  let tool = system.tool;
  if (tool == null) {
    const names = (await client.listTools()).tools.map((t) => t.name);
    const echo = names.filter((n) => /^(.*_)?echo$/.test(n));
    if (echo.length !== 1) throw new Error(`${system.name}: no single echo tool among ${names}`);
    tool = echo[0];
  }
  targets.push({ client, tool, wrap: system.wrap, name: system.name });
}
const seconds = [];
for (const [k, i] of spec.schedule.entries()) {
  const { client, tool, wrap, name } = targets[i];
  let args = { message: `call ${k}` };
  if (wrap) args = { name: wrap, args };
  const started = performance.now();
  const result = await client.callTool({ name: tool, arguments: args });
  seconds.push((performance.now() - started) / 1000);
  if (result.isError) throw new Error(`${name}: the call failed: ${JSON.stringify(result).slice(0, 300)}`);
}
for (const { client } of targets) await client.close();
console.log(JSON.stringify({ seconds }));
