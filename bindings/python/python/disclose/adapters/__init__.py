"""Framework adapters: the run's resident tools (the doors ``describe`` and
``call``, and the host's own resident tools) as a framework's tools, with
every call answered by ``Run.answer``.

- ``disclose.adapters.openai_agents``: the OpenAI Agents SDK (extra
  ``openai-agents``);
- ``disclose.adapters.pydantic_ai``: PydanticAI (extra ``pydantic-ai``);
- ``disclose.adapters.langchain``: LangChain (extra ``langchain``).

In each, the model is shown the doors as tools and the dormant index in
its instructions (``Run.render()``); ``Execute`` runs the host's own
function for that tool, by minted name; ``Text`` and ``Refused`` are
handed to the model as the tool's result. A run started by a
``Recorder`` records every answer, and ``disclose check`` replays it.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Mapping
from typing import Any, Callable, Union

from .._errors import InputError
from .._native import Run
from .._types import Execute, Refused, Text

DOORS = ("describe", "call")
"""The catalog's two doors (SPEC §1): resident, answered by the run itself."""

Function = Callable[[dict[str, Any]], Any]
"""A host function: called with the fitted args, returns the tool result
(the PydanticAI and OpenAI Agents adapters also take an ``async def`` and
await it)."""


def resident(run: Run) -> list[dict[str, Any]]:
    """The run's resident tools: ``name``, ``description`` and
    ``input_schema`` each, in the tool list's order."""
    return run.tools_for("anthropic")


def check_functions(run: Run, functions: Mapping[str, Function]) -> None:
    """Every function must be keyed by the minted name of an admitted tool,
    and be callable. The doors are the catalog's own: ``answer`` never
    executes them, so a function for one is a mistake too."""
    if not isinstance(functions, Mapping):
        raise InputError(f"functions must be a mapping keyed by minted name, not {type(functions).__name__}")
    admitted = sorted(name for name in run.digests() if name not in DOORS)
    unknown = sorted(name for name in functions if name not in admitted)
    if unknown:
        raise InputError(
            f"no admitted tool is named {', '.join(unknown)}; functions are keyed by minted name "
            f"(admitted: {', '.join(admitted)})"
        )
    for name, function in functions.items():
        if not callable(function):
            raise InputError(f"the function for {name} is {type(function).__name__}, not callable")


def answered(run: Run, functions: Mapping[str, Function], call_id: str, name: str,
             args: Union[dict[str, Any], str]) -> Union[str, tuple[Function, dict[str, Any]]]:
    """The catalog's answer to one tool call: the text the model reads, or
    the host's function with the fitted args, still to run."""
    match run.answer(call_id, name, args):
        case Execute(name=tool, args=tool_args):
            function = functions.get(tool)
            if function is None:
                raise InputError(f"the host has no function for {tool!r}")
            return function, tool_args
        case Text(text) | Refused(text=text):
            return text
    raise AssertionError("an answer is Text, Execute or Refused")


def answer(run: Run, functions: Mapping[str, Function], call_id: str, name: str,
           args: Union[dict[str, Any], str]) -> Any:
    """One tool call through the catalog: the host's function's result, or
    the text the model reads."""
    step = answered(run, functions, call_id, name, args)
    if isinstance(step, str):
        return step
    function, tool_args = step
    return function(tool_args)


async def answer_async(run: Run, functions: Mapping[str, Function], call_id: str, name: str,
                       args: Union[dict[str, Any], str]) -> Any:
    """:func:`answer` for a framework that runs a response's calls at once on
    an event loop. The run answers before the first ``await``, so a
    recording holds the calls in the order their tasks started; then the
    host's function runs, an ``async def`` awaited and a plain one in a
    thread (``asyncio.to_thread``), so a slow one does not stop the loop."""
    step = answered(run, functions, call_id, name, args)
    if isinstance(step, str):
        return step
    function, tool_args = step
    if inspect.iscoroutinefunction(function):
        return await function(tool_args)
    return await asyncio.to_thread(function, tool_args)
