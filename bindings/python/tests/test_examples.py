"""The examples run as written, and their recordings replay to what the
model was given."""

from __future__ import annotations

import pathlib
import subprocess
import sys

from conftest import ROOT, replay

EXAMPLES = ROOT / "bindings" / "python" / "examples"


def test_the_anthropic_loop_answers_the_recorded_reply(tmp_path: pathlib.Path, rust_bin: str) -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import anthropic_loop
    finally:
        sys.path.remove(str(EXAMPLES))
    session = tmp_path / "anthropic.jsonl"
    results = anthropic_loop.main(str(session))
    assert [r["tool_use_id"] for r in results] == ["toolu_01", "toolu_02"]
    assert results[1]["content"] == "opened issue 'Flaky test'"
    outputs = [output for _, op, output in replay(rust_bin, session) if op in ("describe", "call")]
    assert outputs[0] == results[0]["content"]
    assert outputs[1] == 'routed toolu_02 github__create_issue {"priority":18446744073709551615,"title":"Flaky test"}\n'


def test_the_agent_loop_runs(tmp_path: pathlib.Path, rust_bin: str) -> None:
    session = tmp_path / "loop.jsonl"
    done = subprocess.run([sys.executable, str(EXAMPLES / "agent_loop.py"), str(session)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "toolu_3: opened issue 'Flaky test'" in done.stdout
    assert any(op == "call" for _, op, _ in replay(rust_bin, session))
