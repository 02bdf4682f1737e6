"""A plain agent loop over the catalog: the model's tool calls (here a
recorded model response) go through ``Run.answer``; ``Execute`` runs the
host's own function; the run is recorded, and ``disclose check`` replays it.

Run it: ``python examples/agent_loop.py session.jsonl``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import disclose

# The host's own functions, by minted name.
def create_issue(args: dict[str, Any]) -> str:
    return f"opened issue {args['title']!r}"


TOOLS: dict[str, Callable[[dict[str, Any]], str]] = {"github__create_issue": create_issue}

# What a model answered (a recorded response: its tool calls, in order).
MODEL_CALLS = [
    ("toolu_1", "describe", '{"name":"open an issue"}'),
    ("toolu_2", "call", '{"name":"github__create_issue","args":{}}'),
    ("toolu_3", "call", '{"name":"github__create_issue","args":{"title":"Flaky test"}}'),
]


def main(path: str) -> None:
    with disclose.Recorder(path, about="the Python agent loop example") as recorder:
        recorder.admit_tool(
            "github",
            "create_issue",
            "Open an issue in a repository. Needs a title.",
            {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]},
            effect="reversible",
            approval="never",
        )
        run = recorder.start("work")
        tools = run.tools_json("anthropic")  # the request's `tools`, byte-stable
        system = run.render()  # the system segment: doors and dormant index
        print(f"{len(tools)} bytes of tools, {len(system)} of system segment")
        for call_id, name, args in MODEL_CALLS:
            match run.answer(call_id, name, args):
                case disclose.Execute(name=tool, args=tool_args):
                    result = TOOLS[tool](tool_args)
                case disclose.Text(text) | disclose.Refused(text=text):
                    result = text
            print(f"{call_id}: {result.splitlines()[0]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "session.jsonl")
