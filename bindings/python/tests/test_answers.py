"""``answer`` never raises on a JSON call, and each answer is a value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import disclose

catalog = disclose.Catalog()
catalog.admit_tool(
    "github", "create_issue", "Open an issue. Needs a title.",
    {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]},
    effect="reversible",
)
catalog.admit_tool("fs", "read", "Read a file.", {"type": "object"}, effect="read", approval="never")
catalog.admit_skill("release", "How to cut a release.", "skills/release/SKILL.md")
RUN = catalog.start("chat")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
names = st.sampled_from(["call", "describe", "fs__read", "github__create_issue", "read", "nope"]) | st.text(max_size=20)


def check(answer: Any) -> None:
    assert isinstance(answer, (disclose.Text, disclose.Execute, disclose.Refused))
    match answer:
        case disclose.Execute(id=_, name=name, args=args, args_json=text):
            assert disclose.canonical_json(args) == text
            assert name
        case disclose.Refused(code=code, kind=kind, text=text):
            assert text.startswith(f"refused {kind} {code}: ")
        case disclose.Text(text=text):
            assert isinstance(text, str)


@settings(max_examples=400, deadline=None)
@given(name=names, args=json_values, inner=names)
def test_answer_never_raises_on_json(name: str, args: Any, inner: str) -> None:
    # A str is always a JSON text; a JSON string value is given as its text.
    check(RUN.answer("c1", name, json.dumps(args) if isinstance(args, str) else args))
    check(RUN.answer("c2", "call", {"name": inner, "args": args}))
    check(RUN.answer("c3", name, json.dumps(args)))


def test_the_three_answers_match() -> None:
    match RUN.answer("c", "describe", {"name": "github__create_issue"}):
        case disclose.Text(text):
            assert "Open an issue. Needs a title." in text
        case other:
            raise AssertionError(other)
    match RUN.answer("c", "call", {"name": "fs__read", "args": {"path": "a"}}):
        case disclose.Execute(id, name, args, args_json):
            assert (id, name, args, args_json) == ("c", "fs__read", {"path": "a"}, '{"path":"a"}')
        case other:
            raise AssertionError(other)
    match RUN.answer("c", "call", {"name": "github__create_issue", "args": {}}):
        case disclose.Refused(code, kind, text):
            assert (code, kind) == ("gate.mode", "E_GATE_DENIED") or code == "call.misfit"
            assert text.endswith("\n")
        case other:
            raise AssertionError(other)


def test_answers_are_frozen() -> None:
    answer = RUN.answer("c", "describe", {"name": "fs__read"})
    try:
        answer.text = "x"  # type: ignore[misc]
    except AttributeError:
        return
    raise AssertionError("an answer could be changed")
