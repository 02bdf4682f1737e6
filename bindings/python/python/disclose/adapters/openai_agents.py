"""The run's resident tools as OpenAI Agents SDK ``FunctionTool``s.

``strict_json_schema`` is off: strict mode would close the ``call`` door's
open ``args``. The SDK hands each call's arguments as the model's JSON
text, and that text goes to ``Run.answer`` as it is, so its numbers keep
their bytes.

The SDK runs the calls of one response at once. The run answers each as
its task starts, in the order of the calls; a plain host function then
runs in a thread (``asyncio.to_thread``), so a slow one does not stop the
SDK's event loop, and an ``async`` one is awaited.

>>> agent = Agent(name="a", instructions=instructions(run), tools=function_tools(run, functions))
"""

from __future__ import annotations

from typing import Any, Mapping

from agents import FunctionTool
from agents.tool_context import ToolContext

from .._native import Run
from . import Function, answer_async, check_functions, resident


def instructions(run: Run) -> str:
    """The agent's instructions: the system segment with the dormant index."""
    return run.render()


def function_tools(run: Run, functions: Mapping[str, Function]) -> list[FunctionTool]:
    """One ``FunctionTool`` per resident tool, each answered by the run."""
    check_functions(run, functions)

    def tool(spec: dict[str, Any]) -> FunctionTool:
        name = spec["name"]

        async def invoke(context: ToolContext[Any], args_json: str) -> Any:
            return await answer_async(run, functions, context.tool_call_id, name, args_json or "{}")

        return FunctionTool(
            name=name,
            description=spec["description"],
            params_json_schema=spec["input_schema"],
            on_invoke_tool=invoke,
            strict_json_schema=False,
        )

    return [tool(spec) for spec in resident(run)]
