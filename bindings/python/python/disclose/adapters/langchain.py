"""The run's resident tools as LangChain ``StructuredTool``s, whose
``args_schema`` is the tool's JSON Schema.

LangChain parses the model's arguments before the tool sees them; each
call is answered by ``Run.answer`` under an id of the adapter's
(``lc-1``, ``lc-2``…, in call order), since a LangChain tool function is
not told the model's call id.

>>> model = chat_model.bind_tools(structured_tools(run, functions))
"""

from __future__ import annotations

import itertools
from typing import Any, Mapping

from langchain_core.tools import StructuredTool

from .._native import Run
from . import Function, answer, check_functions, resident


def system_prompt(run: Run) -> str:
    """The system message: the system segment with the dormant index."""
    return run.render()


def structured_tools(run: Run, functions: Mapping[str, Function]) -> list[StructuredTool]:
    """One ``StructuredTool`` per resident tool, each answered by the run."""
    check_functions(run, functions)
    ids = itertools.count(1)

    def tool(spec: dict[str, Any]) -> StructuredTool:
        name = spec["name"]

        def invoke(**args: Any) -> Any:
            return answer(run, functions, f"lc-{next(ids)}", name, args)

        return StructuredTool.from_function(
            func=invoke,
            name=name,
            description=spec["description"],
            args_schema=spec["input_schema"],
            infer_schema=False,
        )

    return [tool(spec) for spec in resident(run)]
