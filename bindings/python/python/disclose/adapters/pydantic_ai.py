"""The run's resident tools as a PydanticAI toolset.

PydanticAI skips schema validation for tools made from a JSON schema, so
every call reaches ``Run.answer``, which fits it. It parses the model's
arguments before the tool sees them, so a number the model wrote as
``-0`` arrives as ``0``.

PydanticAI runs the calls of one response at once. The run answers each
on the event loop as its task starts, so a recording holds them in the
order the model made them; only the host's functions then run at once: an
``async`` one on the loop, a plain one in a thread (``asyncio.to_thread``).

>>> agent = Agent(model, instructions=instructions(run), toolsets=[toolset(run, functions)])
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic_ai import RunContext, Tool
from pydantic_ai.toolsets import FunctionToolset

from .._native import Run
from . import Function, answer_async, check_functions, resident


def instructions(run: Run) -> str:
    """The agent's instructions: the system segment with the dormant index."""
    return run.render()


def toolset(run: Run, functions: Mapping[str, Function]) -> FunctionToolset[Any]:
    """A toolset of the resident tools, each answered by the run."""
    check_functions(run, functions)

    def tool(spec: dict[str, Any]) -> Tool[Any]:
        name = spec["name"]

        async def invoke(context: RunContext[Any], **args: Any) -> Any:
            return await answer_async(run, functions, context.tool_call_id or name, name, args)

        return Tool.from_schema(invoke, name, spec["description"], spec["input_schema"], takes_ctx=True)

    return FunctionToolset([tool(spec) for spec in resident(run)])
