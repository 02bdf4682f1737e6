"""The official Python MCP SDK (PyPI `mcp`) as a client of `disclose mcp`.

Usage: client.py MODE ELICIT -- COMMAND [ARG...]
       client.py MODE ELICIT -- URL

MODE is the SDK's connect mode (`auto`: server/discover, so protocol
2026-07-28; `legacy`: the initialize handshake). ELICIT is `yes` to declare
the elicitation capability, `no` not to. The gateway is launched over stdio,
or reached by URL with the SDK's streamable HTTP client (the bearer token
from the environment variable MCP_BEARER_TOKEN, when set; the session is
ended with DELETE on close).

Commands come on stdin, one JSON object a line; each answer goes to stdout
as one JSON line (the tests in crates/mcp/tests/ read them):

  {"op": "list_tools"}                      -> {"tools": [...]}
  {"op": "call", "name", "args", "answers", "progress"?}
                                            -> {"result": {...}, "asked": [...],
                                                "progress": [...]}
      answers: what the user answers each elicitation, in order:
      "allow once", "allow for this session", "decline" (accepted with that
      decision), "reject" (action decline) or "cancel".
      progress: true to ask for progress (the SDK sends its own
      progressToken); each notification the SDK hands the callback for this
      call is {"progress", "total", "message"}, in the order it came.
      An answer may also be an object: accepted with it as the content.
  {"op": "prompt"} / {"op": "resource"}     -> {"text": ...}
  {"op": "list_prompts"} / {"op": "list_resources"} / {"op": "list_templates"}
                                            -> {"prompts"} / {"resources"} / {"resourceTemplates"}
  {"op": "get_prompt", "name", "args"?}     -> {"result"} | {"error"}
  {"op": "read", "uri"}                     -> {"result"} | {"error"}
  {"op": "complete", "ref", "argument"}     -> {"result"} | {"error"}
  {"op": "close"}                           -> ends the session

With MCP_SAMPLING=1 in the environment it declares sampling and answers
each request with "sampled: " and the last message's text.

The first line written is {"ready": true, "protocol", "instructions"}.
"""

import json
import sys

import os

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main() -> None:
    mode, elicit = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1 :]
    answers: list[str] = []
    asked: list[str] = []

    async def on_elicit(context, params):
        asked.append(params.message)
        answer = answers.pop(0) if answers else "cancel"
        if isinstance(answer, dict):
            return types.ElicitResult(action="accept", content=answer)
        if answer in ("reject", "decline-action"):
            return types.ElicitResult(action="decline")
        if answer == "cancel":
            return types.ElicitResult(action="cancel")
        return types.ElicitResult(action="accept", content={"decision": answer})

    async def on_sample(context, params):
        text = params.messages[-1].content.text
        asked.append(f"sampling: {text}")
        return types.CreateMessageResult(
            role="assistant",
            model="e2e-model",
            content=types.TextContent(type="text", text=f"sampled: {text}"),
        )

    kwargs = {"mode": mode, "cache": None}
    if elicit == "yes":
        kwargs["elicitation_callback"] = on_elicit
    if os.environ.get("MCP_SAMPLING") == "1":
        kwargs["sampling_callback"] = on_sample
    if command[0].startswith("http://") or command[0].startswith("https://"):
        token = os.environ.get("MCP_BEARER_TOKEN")
        headers = {"Authorization": f"Bearer {token}"} if token else None
        server = streamable_http_client(command[0], http_client=create_mcp_http_client(headers=headers))
    else:
        server = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(server, **kwargs) as client:
        out = sys.stdout
        out.write(
            json.dumps(
                {
                    "ready": True,
                    "protocol": client.protocol_version,
                    "instructions": client.instructions,
                }
            )
            + "\n"
        )
        out.flush()
        stdin = anyio.wrap_file(sys.stdin)
        async for line in stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            op = command["op"]
            if op == "close":
                break
            try:
                if op == "list_tools":
                    result = await client.list_tools()
                    answer = {"tools": dump(result)["tools"]}
                elif op == "call":
                    answers[:] = list(command.get("answers", []))
                    asked.clear()
                    progress = []

                    async def on_progress(value, total, message):
                        progress.append({"progress": value, "total": total, "message": message})

                    callback = on_progress if command.get("progress") else None
                    result = await client.call_tool(
                        command["name"], command.get("args"), progress_callback=callback
                    )
                    answer = {"result": dump(result), "asked": list(asked), "progress": progress}
                elif op == "prompt":
                    result = await client.get_prompt("index")
                    answer = {"text": result.messages[0].content.text}
                elif op == "resource":
                    result = await client.read_resource("disclose://index")
                    answer = {"text": result.contents[0].text}
                elif op == "list_prompts":
                    answer = {"prompts": dump(await client.list_prompts())["prompts"]}
                elif op == "list_resources":
                    answer = {"resources": dump(await client.list_resources())["resources"]}
                elif op == "list_templates":
                    listed = dump(await client.list_resource_templates())
                    answer = {"resourceTemplates": listed["resourceTemplates"]}
                elif op in ("get_prompt", "read", "complete"):
                    answers[:] = list(command.get("answers", []))
                    asked.clear()
                    if op == "get_prompt":
                        result = await client.get_prompt(command["name"], command.get("args"))
                    elif op == "read":
                        result = await client.read_resource(command["uri"])
                    else:
                        ref = command["ref"]
                        ref = (
                            types.PromptReference(type="ref/prompt", name=ref["name"])
                            if ref["type"] == "ref/prompt"
                            else types.ResourceTemplateReference(type="ref/resource", uri=ref["uri"])
                        )
                        result = await client.complete(ref, command["argument"])
                    answer = {"result": dump(result), "asked": list(asked)}
                else:
                    answer = {"error": f"unknown op {op}"}
            except Exception as error:  # reported to the test, which decides
                answer = {"error": f"{type(error).__name__}: {error}"}
            out.write(json.dumps(answer) + "\n")
            out.flush()


anyio.run(main)
