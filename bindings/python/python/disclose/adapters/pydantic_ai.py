"""The run's resident tools as a PydanticAI toolset.

PydanticAI skips schema validation for tools made from a JSON schema, so
every call reaches ``Run.answer``, which fits it. It parses the model's
arguments before the tool sees them, so a number the model wrote as
``-0`` arrives as ``0``.

>>> agent = Agent(model, instructions=instructions(run), toolsets=[toolset(run, functions)])
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic_ai import RunContext, Tool
from pydantic_ai.toolsets import FunctionToolset

from .._native import Run
from . import Function, answer, check_functions, resident


def instructions(run: Run) -> str:
    """The agent's instructions: the system segment with the dormant index."""
    return run.render()


def toolset(run: Run, functions: Mapping[str, Function]) -> FunctionToolset[Any]:
    """A toolset of the resident tools, each answered by the run."""
    check_functions(run, functions)

    def tool(spec: dict[str, Any]) -> Tool[Any]:
        name = spec["name"]

        def invoke(context: RunContext[Any], **args: Any) -> Any:
            return answer(run, functions, context.tool_call_id or name, name, args)

        return Tool.from_schema(invoke, name, spec["description"], spec["input_schema"], takes_ctx=True)

    return FunctionToolset([tool(spec) for spec in resident(run)])
