"""Records the shipped corpora/recorded/mcp_*.jsonl sessions: the gateway
over the real reference servers, driven by the official Python SDK through
the tasks a person gave an agent (the tool calls below are the ones an
agent made for them, mistakes included).

Usage (from the repository root, after script/mcp-e2e-install and a build
of the gateway): script/mcp-record-corpus. Each session is recorded with
--record into a temporary directory and moved to corpora/recorded/; bless
its golden with `DISCLOSE_BLESS=1 cargo run --release -- check` after
reading its replay.
"""

import json
import os
import shutil
import sys
import tempfile

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
NODE = os.path.join(ROOT, "target", "mcp-e2e", "node", "node_modules")
GATEWAY = os.path.join(ROOT, "target", "debug", "disclose")
# Fixed roots, so recordings name the same paths whoever records them.
WORK = "/tmp/disclose-mcp-demo"


def server(package, *args, **extra):
    entry = {"command": "node", "args": [os.path.join(NODE, package, "dist", "index.js"), *args]}
    entry.update(extra)
    return entry


SERVERS = {
    "everything": server("@modelcontextprotocol/server-everything", "stdio"),
    "fs-a": server("@modelcontextprotocol/server-filesystem", f"{WORK}/project", approval="never"),
    "fs-b": server("@modelcontextprotocol/server-filesystem", f"{WORK}/archive", approval="never"),
    "memory": server(
        "@modelcontextprotocol/server-memory", env={"MEMORY_FILE_PATH": f"{WORK}/memory.jsonl"}, approval="never"
    ),
}

# Each session: the gateway's extra flags, and the agent's tool calls.
SESSIONS = {
    "mcp_gateway_meeting_notes_across_two_roots": (
        [],
        [
            ("describe", {"name": "save a text file in the project folder"}),
            ("describe", {"name": "fs-a__write_file"}),
            ("call", {"name": "fs-a__write_file", "args": {"path": f"{WORK}/project/notes.md", "text": "# Standup"}}),
            (
                "call",
                {
                    "name": "fs-a__write_file",
                    "args": {"path": f"{WORK}/project/notes.md", "content": "# Standup\n- Ada: retry loop fixed\n"},
                },
            ),
            ("fs-a__list_allowed_directories", {}),
            ("describe", {"name": "remember who attended the meeting"}),
            (
                "call",
                {
                    "name": "memory__create_entities",
                    "args": {"entities": [{"name": "Ada", "entityType": "person", "observations": ["attended standup"]}]},
                },
            ),
            ("describe", {"name": "copy the notes to the archive"}),
            ("call", {"name": "fs-b__read_text_file", "args": {"path": f"{WORK}/project/notes.md"}}),
            ("call", {"name": "fs-a__read_text_file", "args": {"path": f"{WORK}/project/notes.md"}}),
            (
                "call",
                {"name": "fs-b__write_file", "args": {"path": f"{WORK}/archive/notes.md", "content": "# Standup\n"}},
            ),
        ],
    ),
    "mcp_gateway_scout_child_reads_only": (
        ["--profile", "scout"],
        [
            ("describe", {"name": "delete an old file"}),
            ("call", {"name": "fs-a__write_file", "args": {"path": f"{WORK}/project/x.md", "content": "x"}}),
            ("describe", {"name": "what is in the archive folder"}),
            ("call", {"name": "fs-b__list_directory", "args": {"path": f"{WORK}/archive"}}),
            ("call", {"name": "everything__echo", "args": {"message": "hello"}}),
            ("describe", {"name": "search the knowledge graph for a person"}),
            ("call", {"name": "memory__search_nodes", "args": {"query": "Ada"}}),
        ],
    ),
}


async def record(name, flags, steps, out_dir):
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "mcp.json")
        with open(config, "w") as f:
            json.dump({"mcpServers": SERVERS}, f)
        rec = os.path.join(tmp, "rec")
        params = StdioServerParameters(command=GATEWAY, args=["mcp", "--config", config, "--record", rec, *flags])
        async with Client(params, mode="legacy") as client:
            for tool, args in steps:
                result = await client.call_tool(tool, args)
                first = result.content[0].text if result.content else ""
                print(f"{name}: {tool} -> {first.splitlines()[0] if first else ''}", file=sys.stderr)
        (session,) = os.listdir(rec)
        shutil.move(os.path.join(rec, session), os.path.join(out_dir, f"{name}.jsonl"))


async def main():
    out_dir = os.path.join(ROOT, "corpora", "recorded")
    shutil.rmtree(WORK, ignore_errors=True)
    for d in ("project", "archive"):
        os.makedirs(os.path.join(WORK, d))
    for name, (flags, steps) in SESSIONS.items():
        await record(name, flags, steps, out_dir)


anyio.run(main)
