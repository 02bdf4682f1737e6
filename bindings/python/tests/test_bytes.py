"""The binding gives the Rust library's bytes: every shipped session,
replayed through the Python API, prints its golden transcript."""

from __future__ import annotations

import pathlib

import pytest

import disclose
from disclose import conformance

from conftest import CORPORA, GOLDEN, transcript_blocks

SESSIONS = sorted(CORPORA.rglob("*.jsonl"))


def ops_of(session: pathlib.Path) -> list[str]:
    lines = session.read_bytes().split(b"\n")
    return [line.decode("utf-8") for line in lines[1:] if line.strip()]


@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: str(p.relative_to(CORPORA)))
def test_every_session_prints_its_golden(session: pathlib.Path) -> None:
    golden = GOLDEN / session.relative_to(CORPORA).with_suffix(".txt")
    expected = [output for _, _, output in transcript_blocks(golden.read_bytes().decode("utf-8"))]
    answer = conformance.answer("case", ops_of(session))
    assert answer.get("errored") is None
    assert answer["outputs"] == expected


def test_the_corpus_is_there() -> None:
    assert len(SESSIONS) >= 140


def test_tools_json_is_the_provider_bytes_tool_defs_pins() -> None:
    catalog = disclose.Catalog()
    catalog.admit_tool("host", "read", "Read a file.", {"type": "object"}, effect="read", approval="never")
    run = catalog.start("work")
    for provider in ("anthropic", "openai_chat", "openai_responses", "mcp"):
        lines = run.tool_defs(provider).splitlines()
        assert run.tools_json(provider) == "[" + ",".join(lines) + "]"
        assert run.tools_for(provider) == [__import__("json").loads(line) for line in lines]
    assert run.tools_json() == run.tools_json("anthropic")
    assert run.tools_json().startswith('[{"description":"Read a file.","input_schema":{"type":"object"},"name":"read"},')
