"""Each adapter against its real framework (pinned in
requirements-test.txt), driven offline by a test model: the model is shown
the doors and the index, every call goes through ``Run.answer``,
``Execute`` runs the host's function, and the recording replays to what
the model was given."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import disclose

from conftest import replay

SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}

# What the scripted model asks, in order: a keyword describe, a misfit,
# a fitted call (with a number only the text keeps). A name that is no
# tool of the list (a dormant tool called without the door) is the
# framework's to refuse before any tool runs.
CALLS = [
    ("c1", "describe", '{"name":"open issue"}'),
    ("c2", "call", '{"name":"github__create_issue","args":{}}'),
    ("c3", "call", '{"name":"github__create_issue","args":{"title":"Flaky","n":18446744073709551615}}'),
]


def recorder_at(path: pathlib.Path) -> tuple[disclose.Run, list[dict[str, Any]]]:
    recorder = disclose.Recorder(path, about="an adapter's run")
    recorder.admit_tool("github", "create_issue", "Open an issue. Needs a title.", SCHEMA, effect="reversible",
                        approval="never")
    ran: list[dict[str, Any]] = []
    return recorder.start("work"), ran


def opened(ran: list[dict[str, Any]]) -> dict[str, Any]:
    def create_issue(args: dict[str, Any]) -> str:
        ran.append(args)
        return f"opened {args['title']}"
    return {"github__create_issue": create_issue}


def outputs_of(path: pathlib.Path, rust_bin: str) -> list[str]:
    """The call and describe outputs of the recorded session, in order."""
    return [output for _, op, output in replay(rust_bin, path) if op in ("call", "describe")]


def check_results(results: list[str], ran: list[dict[str, Any]], recorded: list[str]) -> None:
    assert results[0].startswith('no capability is named "open issue"; closest matches:\n- github__create_issue')
    assert results[1].startswith("refused E_INVALID_ARGS call.misfit:")
    assert results[2] == "opened Flaky"
    assert len(ran) == 1 and ran[0]["title"] == "Flaky"
    # Every call became one op; its replay gives the model the same text.
    assert len(recorded) == 3
    assert recorded[:2] == results[:2]
    assert recorded[2].startswith("routed ") and " github__create_issue " in recorded[2]


def asynchronous_functions(functions: dict[str, Any]) -> dict[str, Any]:
    """The same host functions as ``async def``s."""
    def wrapped(function: Any) -> Any:
        async def run(args: dict[str, Any]) -> Any:
            return function(args)
        return run
    return {name: wrapped(function) for name, function in functions.items()}


@pytest.mark.parametrize("asynchronous", [False, True], ids=["def", "async def"])
def test_openai_agents(tmp_path: pathlib.Path, rust_bin: str, asynchronous: bool) -> None:
    from agents import Agent, ModelResponse, RunConfig, Runner, Usage
    from agents.models.interface import Model
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    from disclose.adapters import openai_agents

    path = tmp_path / "agents.jsonl"
    run, ran = recorder_at(path)
    seen: dict[str, Any] = {}
    results: list[str] = []

    class Scripted(Model):
        """The SDK's model interface, answering from a script (no network)."""

        turn = 0

        async def get_response(self, system_instructions, input, model_settings, tools, *args, **kwargs):  # type: ignore[no-untyped-def]
            seen.setdefault("instructions", system_instructions)
            seen.setdefault("tools", [tool.name for tool in tools])
            if isinstance(input, list):
                results[:] = [item["output"] for item in input if isinstance(item, dict) and item.get("type") == "function_call_output"]
            self.turn += 1
            if self.turn == 1:
                output: list[Any] = [
                    ResponseFunctionToolCall(type="function_call", call_id=id_, name=name, arguments=args, id=f"fc{n}")
                    for n, (id_, name, args) in enumerate(CALLS)
                ]
            else:
                output = [ResponseOutputMessage(id="m", type="message", role="assistant", status="completed",
                                                content=[ResponseOutputText(type="output_text", text="done", annotations=[])])]
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    functions = asynchronous_functions(opened(ran)) if asynchronous else opened(ran)
    agent = Agent(name="disclose", instructions=openai_agents.instructions(run), model=Scripted(),
                  tools=openai_agents.function_tools(run, functions))
    result = Runner.run_sync(agent, "open an issue", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "done"
    run.finish()
    assert seen["instructions"] == run_render(path, rust_bin)
    assert seen["tools"] == ["describe", "call"]
    check_results(results, ran, outputs_of(path, rust_bin))
    # The SDK handed the model's text through: the u64 kept its digits.
    assert ran[0]["n"] == 18446744073709551615


def run_render(path: pathlib.Path, rust_bin: str) -> str:
    """The system segment the recorded session's ``render`` op gives."""
    renders = [output for _, op, output in replay(rust_bin, path) if op == "render"]
    assert len(renders) == 1
    return renders[0]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["def", "async def"])
def test_pydantic_ai(tmp_path: pathlib.Path, rust_bin: str, asynchronous: bool) -> None:
    """PydanticAI runs a response's calls at once; the recording still holds
    them in the model's order (``check_results``), and an ``async`` host
    function is awaited."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from disclose.adapters import pydantic_ai

    path = tmp_path / "pydantic.jsonl"
    run, ran = recorder_at(path)
    seen: dict[str, Any] = {}
    results: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.setdefault("tools", [tool.name for tool in info.function_tools])
        seen.setdefault("instructions", info.instructions)
        returns = [part for message in messages for part in message.parts if isinstance(part, ToolReturnPart)]
        if not returns:
            return ModelResponse(parts=[ToolCallPart(name, json.loads(args), id_) for id_, name, args in CALLS])
        results[:] = [str(part.content) for part in returns]
        return ModelResponse(parts=[TextPart("done")])

    functions = asynchronous_functions(opened(ran)) if asynchronous else opened(ran)
    agent = Agent(FunctionModel(model), instructions=pydantic_ai.instructions(run),
                  toolsets=[pydantic_ai.toolset(run, functions)])
    assert agent.run_sync("open an issue").output == "done"
    run.finish()
    assert seen["tools"] == ["describe", "call"]
    # PydanticAI strips the instructions' last newline.
    assert seen["instructions"] == run_render(path, rust_bin).rstrip("\n")
    check_results(results, ran, outputs_of(path, rust_bin))


def test_langchain(tmp_path: pathlib.Path, rust_bin: str) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

    from disclose.adapters import langchain

    path = tmp_path / "langchain.jsonl"
    run, ran = recorder_at(path)
    tools = {tool.name: tool for tool in langchain.structured_tools(run, opened(ran))}
    assert list(tools) == ["describe", "call"]
    assert tools["call"].args == {"args": {"type": "object"}, "name": {"type": "string"}}
    model = GenericFakeChatModel(messages=iter([
        AIMessage(content="", tool_calls=[{"name": name, "args": json.loads(args), "id": id_} for id_, name, args in CALLS]),
        AIMessage(content="done"),
    ]))
    messages: list[BaseMessage] = [SystemMessage(langchain.system_prompt(run)), HumanMessage("open an issue")]
    results: list[str] = []
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        if not isinstance(reply, AIMessage) or not reply.tool_calls:
            break
        for call in reply.tool_calls:
            message = tools[call["name"]].invoke(call)
            results.append(str(message.content))
            messages.append(message)
    run.finish()
    assert reply.content == "done"
    assert messages[0].content == run_render(path, rust_bin)
    check_results(results, ran, outputs_of(path, rust_bin))


def test_functions_must_name_admitted_tools(tmp_path: pathlib.Path) -> None:
    """A host function keyed by a door, by no admitted tool, or that is not
    callable is the host's mistake, said before the framework runs."""
    from disclose.adapters import check_functions

    run, _ = recorder_at(tmp_path / "functions.jsonl")
    for functions, message in [
        ({"describe": lambda args: "x"}, r"no admitted tool is named describe; .*\(admitted: github__create_issue\)"),
        ({"create_issue": lambda args: "x"}, "no admitted tool is named create_issue; functions are keyed by minted name"),
        ({"github__create_issue": "opened"}, "the function for github__create_issue is str, not callable"),
        ([("github__create_issue", print)], "functions must be a mapping keyed by minted name, not list"),
    ]:
        with pytest.raises(disclose.InputError, match=message):
            check_functions(run, functions)  # type: ignore[arg-type]
    check_functions(run, {"github__create_issue": print})
    run.finish()
