"""G1 with the official Python SDK as the client: the same `echo` call made
directly to server-everything and through the gateway, alternating, by one
client library; prints the ratio of medians. Run by script/bench-mcp.

Usage: bench_g1.py DISCLOSE EVERYTHING_JS ROUNDS  (DISCLOSE is the binary; the gateway is `DISCLOSE mcp`)
"""

import json
import os
import statistics
import sys
import tempfile
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def main():
    gateway, everything, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "mcp.json")
        with open(config, "w") as f:
            entry = {"command": "node", "args": [everything, "stdio"], "approval": "never"}
            json.dump({"mcpServers": {"everything": entry}}, f)
        direct_params = StdioServerParameters(command="node", args=[everything, "stdio"])
        gateway_params = StdioServerParameters(command=gateway, args=["mcp", "--config", config])
        async with Client(direct_params, mode="legacy") as direct, Client(gateway_params, mode="legacy") as through:
            d, g = [], []
            for i in range(rounds + 20):
                started = time.perf_counter()
                await direct.call_tool("echo", {"message": f"round {i}"})
                a = time.perf_counter() - started
                started = time.perf_counter()
                await through.call_tool("call", {"name": "everything__echo", "args": {"message": f"round {i}"}})
                b = time.perf_counter() - started
                if i >= 20:
                    d.append(a)
                    g.append(b)
    md, mg = statistics.median(d), statistics.median(g)
    ratio = mg / md
    verdict = "pass" if ratio <= 1.2 else "FAIL"
    print(
        f"G1 (Python SDK client) call round trip gateway/direct {ratio:.2f}x (target <= 1.2) {verdict} "
        f"[gateway median {mg * 1e6:.0f}µs, direct median {md * 1e6:.0f}µs, {rounds} calls each]"
    )


anyio.run(main)
