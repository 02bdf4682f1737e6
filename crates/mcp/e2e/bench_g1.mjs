// G1 with the official TypeScript SDK as the client (the SDK most MCP hosts
// are built on): the same `echo` call made directly to server-everything and
// through the gateway, alternating, by one client library; prints the ratio
// of medians. Run by script/bench-mcp, copied beside node_modules.
//
// Usage: node bench_g1.mjs DISCLOSE EVERYTHING_JS ROUNDS
//        (DISCLOSE is the binary; the gateway is `DISCLOSE mcp`)

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [gateway, everything, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const tmp = mkdtempSync(join(tmpdir(), "bench-g1-"));
const config = join(tmp, "mcp.json");
const entry = { command: "node", args: [everything, "stdio"], approval: "never" };
writeFileSync(config, JSON.stringify({ mcpServers: { everything: entry } }));

async function connect(command, args) {
  const client = new Client({ name: "bench-g1", version: "0.0.0" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  return client;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const direct = await connect("node", [everything, "stdio"]);
const through = await connect(gateway, ["mcp", "--config", config]);
const d = [];
const g = [];
for (let i = 0; i < rounds + 20; i++) {
  const message = { message: `round ${i}` };
  let started = performance.now();
  await direct.callTool({ name: "echo", arguments: message });
  const a = performance.now() - started;
  started = performance.now();
  await through.callTool({ name: "call", arguments: { name: "everything__echo", args: message } });
  const b = performance.now() - started;
  if (i >= 20) {
    d.push(a);
    g.push(b);
  }
}
await direct.close();
await through.close();
rmSync(tmp, { recursive: true, force: true });
const [md, mg] = [median(d), median(g)];
const ratio = mg / md;
console.log(
  `G1 (TypeScript SDK client) call round trip gateway/direct ${ratio.toFixed(2)}x (target <= 1.2) ${ratio <= 1.2 ? "pass" : "FAIL"} ` +
    `[gateway median ${Math.round(mg * 1000)}µs, direct median ${Math.round(md * 1000)}µs, ${rounds} calls each]`,
);
