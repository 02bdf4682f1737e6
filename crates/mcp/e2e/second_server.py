"""A second real upstream for the gateway's end-to-end tests, written with
the pinned official Python SDK (its MCPServer, formerly FastMCP).

Usage: second_server.py stdio
       second_server.py http PORT

Beside server-everything it collides on purpose: its prompt
`simple-prompt` has the same name as one of server-everything's, and its
resource `demo://resource/static/document/features.md` the same URI. It
also has a prompt and a resource whose text holds the value of
SECOND_API_KEY (a secret the gateway must scrub), a read-only tool and a
writing one (for `"approval": "writes"`), a tool that asks its user a
question (`elicitation/create`, during the call), and `second://fragile`,
which ends the process the first time it is read when SECOND_MARKER names
a file that does not exist yet (it is created first), and `second://slow`,
read after SECOND_SLOW seconds (none when unset).
"""

import asyncio
import os
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel

server = MCPServer("second")


@server.prompt(name="simple-prompt", description="The second server's prompt of the same name")
def simple_prompt() -> str:
    return "This is the second server's simple prompt."


@server.prompt(name="secret-prompt", description="A prompt that quotes a secret")
def secret_prompt() -> str:
    return "the key is " + os.environ.get("SECOND_API_KEY", "")


@server.resource(
    "demo://resource/static/document/features.md",
    name="features.md",
    mime_type="text/markdown",
)
def features() -> str:
    return "the second server's features"


@server.resource("second://note/secret", name="secret-note", mime_type="text/plain")
def secret_note() -> str:
    return "key " + os.environ.get("SECOND_API_KEY", "")


@server.resource("second://fragile", name="fragile", mime_type="text/plain")
def fragile() -> str:
    marker = os.environ.get("SECOND_MARKER")
    if marker and not os.path.exists(marker):
        with open(marker, "w"):
            pass
        os._exit(3)
    return "read after a restart"


@server.resource("second://slow", name="slow", mime_type="text/plain")
async def slow() -> str:
    await asyncio.sleep(float(os.environ.get("SECOND_SLOW", "0")))
    return "read slowly"


@server.tool(description="Reads the note.", annotations=ToolAnnotations(readOnlyHint=True))
def read_note() -> str:
    return "the note"


@server.tool(
    description="Writes the note.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def write_note(text: str) -> str:
    return "wrote " + text


class Name(BaseModel):
    name: str


@server.tool(description="Asks the user for their name.")
async def ask_name(ctx: Context) -> str:
    answered = await ctx.elicit("What is your name?", Name)
    if answered.action == "accept":
        return "hello " + answered.data.name
    return answered.action


if __name__ == "__main__":
    if sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
