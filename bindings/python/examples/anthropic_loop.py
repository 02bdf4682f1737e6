"""A plain loop around the Anthropic SDK: the request's ``tools`` and
``system`` come from the run, and each ``tool_use`` block of the model's
reply (here a recorded Messages API response, read by the SDK's own
``Message`` type, so nothing goes over the network) is answered by
``Run.answer``. The tool results go back in the next request's messages.

Run it: ``python examples/anthropic_loop.py session.jsonl``.
"""

from __future__ import annotations

import sys
from typing import Any

from anthropic.types import Message, ToolResultBlockParam, ToolUseBlock

import disclose

# A recorded response of the Messages API to the first request below.
RECORDED: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 812, "output_tokens": 96},
    "content": [
        {"type": "text", "text": "I'll look for the right tool, then open the issue."},
        {"type": "tool_use", "id": "toolu_01", "name": "describe", "input": {"name": "open an issue"}},
        {"type": "tool_use", "id": "toolu_02", "name": "call",
         "input": {"name": "github__create_issue", "args": {"title": "Flaky test", "priority": 18446744073709551615}}},
    ],
}


def create_issue(args: dict[str, Any]) -> str:
    return f"opened issue {args['title']!r}"


def main(path: str) -> list[ToolResultBlockParam]:
    with disclose.Recorder(path, about="the Anthropic SDK loop example") as recorder:
        recorder.admit_tool(
            "github", "create_issue", "Open an issue in a repository. Needs a title.",
            {"type": "object", "properties": {"title": {"type": "string"}, "priority": {"type": "integer"}},
             "required": ["title"]},
            effect="reversible", approval="never",
        )
        run = recorder.start("work")
        request: dict[str, Any] = {
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "system": run.render(),
            "tools": run.tools_for("anthropic"),  # the same bytes every turn: the cache holds
            "messages": [{"role": "user", "content": "Open an issue about the flaky test."}],
        }
        reply = Message.model_validate(RECORDED)  # client.messages.create(**request), recorded
        results: list[ToolResultBlockParam] = []
        for block in reply.content:
            if not isinstance(block, ToolUseBlock):
                continue
            match run.answer(block.id, block.name, block.input):
                case disclose.Execute(name="github__create_issue", args=args):
                    text = create_issue(args)
                case disclose.Execute(name=name):
                    text = f"no such host tool: {name}"
                case disclose.Text(text) | disclose.Refused(text=text):
                    pass
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
        request["messages"] += [{"role": "assistant", "content": RECORDED["content"]},
                                {"role": "user", "content": results}]
        return results


if __name__ == "__main__":
    for result in main(sys.argv[1] if len(sys.argv) > 1 else "session.jsonl"):
        print(f"{result['tool_use_id']}: {str(result.get('content', '')).splitlines()[0]}")
