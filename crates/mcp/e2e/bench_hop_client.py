"""The official Python MCP SDK as the client of script/bench-mcp's hop
benchmark (G1, G1p, G2, G6). It measures; e2e/bench_hop.py, which wrote the
spec, starts the HTTP systems and computes the figures.

Usage: bench_hop_client.py SPEC.json  (prints one JSON object on stdout)

A connection is {"stdio": [COMMAND, ARG...]}, {"sse": URL} or {"http": URL}
(streamable HTTP). Every stdio server gets this process's environment; its
stderr goes to $BENCH_MCP_LOG (default /dev/null). The spec's "op":

  calls: {"systems": [{"name", "connection", "tool"?, "wrap"?, "prompt"?, "uri"?}], "schedule": [I...]}
      connects to every system at once, then makes one `echo` call per
      schedule entry, to systems[I], in that order. The tool is "tool", or
      the one tool listed as `echo` or `*_echo`; with "wrap", the call is
      `tool({"name": wrap, "args": {"message"}})` (the gateway's `call`).
      A system with "prompt" is asked `prompts/get` of it instead, one
      with "uri" `resources/read` of it (G7).
      -> {"seconds": [one per schedule entry]}
  list: {"systems": [{"name", "connections": [...]}]}
      -> {"bytes": {name: the bytes of every tools/list result as compact
          JSON, summed over its connections}, "tools": {name: how many tools}}
  start: {"systems": [{"name", "connections": [...]}], "rounds": N}
      each round, for each system in turn: from starting every connection at
      once to the last of their tools/list answered.
      -> {"seconds": {name: [one per round]}}
"""

import json
import os
import re
import sys
import time
from contextlib import AsyncExitStack

import anyio
from mcp import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

ERRLOG = open(os.environ.get("BENCH_MCP_LOG", os.devnull), "a")


def client(connection):
    if "stdio" in connection:
        command = connection["stdio"]
        params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        transport = stdio_client(params, errlog=ERRLOG)
    elif "sse" in connection:
        transport = sse_client(connection["sse"])
    else:
        transport = streamable_http_client(connection["http"])
    return Client(transport, mode="legacy")


def compact(model):
    """The JSON the server sent for `model`, without its whitespace (the
    fields it set, not the SDK's defaults)."""
    data = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


async def calls(spec):
    systems = spec["systems"]
    async with AsyncExitStack() as stack:
        targets = []
        for system in systems:
            c = await stack.enter_async_context(client(system["connection"]))
            if "prompt" in system or "uri" in system:
                targets.append((c, None, system))
                continue
            tool = system.get("tool")
            if tool is None:
                names = [t.name for t in (await c.list_tools()).tools]
                echo = [n for n in names if re.fullmatch(r"(.*_)?echo", n)]
                if len(echo) != 1:
                    raise SystemExit(f"{system['name']}: no single echo tool among {names}")
                tool = echo[0]
            targets.append((c, tool, system.get("wrap")))
        seconds = []
        for k, i in enumerate(spec["schedule"]):
            c, tool, wrap = targets[i]
            if tool is None:
                started = time.perf_counter()
                if "prompt" in wrap:
                    await c.get_prompt(wrap["prompt"])
                else:
                    await c.read_resource(wrap["uri"])
                seconds.append(time.perf_counter() - started)
                continue
            args = {"message": f"call {k}"}
            if wrap:
                args = {"name": wrap, "args": args}
            started = time.perf_counter()
            result = await c.call_tool(tool, args)
            seconds.append(time.perf_counter() - started)
            if result.is_error:
                raise SystemExit(f"{systems[i]['name']}: the call failed: {compact(result)[:300]}")
    return {"seconds": seconds}


async def listed(spec):
    sizes, counts = {}, {}
    for system in spec["systems"]:
        total = count = 0
        for connection in system["connections"]:
            async with client(connection) as c:
                result = await c.list_tools()
                total += len(compact(result))
                count += len(result.tools)
        sizes[system["name"]], counts[system["name"]] = total, count
    return {"bytes": sizes, "tools": counts}


async def open_listed(connection, ready, stop):
    async with client(connection) as c:
        await c.list_tools()
        ready()
        await stop.wait()


async def started(spec):
    seconds = {system["name"]: [] for system in spec["systems"]}
    for _ in range(spec["rounds"]):
        for system in spec["systems"]:
            connections = system["connections"]
            left = len(connections)
            done, stop = anyio.Event(), anyio.Event()

            def ready():
                nonlocal left
                left -= 1
                if left == 0:
                    done.set()

            begun = time.perf_counter()
            with anyio.fail_after(120):
                async with anyio.create_task_group() as group:
                    for connection in connections:
                        group.start_soon(open_listed, connection, ready, stop)
                    await done.wait()
                    seconds[system["name"]].append(time.perf_counter() - begun)
                    stop.set()
    return {"seconds": seconds}


async def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    run = {"calls": calls, "list": listed, "start": started}[spec["op"]]
    print(json.dumps(await run(spec)))


try:
    anyio.run(main)
except BaseException as error:  # one line for bench_hop.py, which names the system
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    sys.exit(f"{type(error).__name__}: {error}".replace("\n", " ")[:300])
