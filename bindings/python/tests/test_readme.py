"""The README's Python example runs as written, and its recording replays."""

from __future__ import annotations

import os
import pathlib
import subprocess

from conftest import ROOT


def python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Use it from Python", 1)[1].split("\n## ", 1)[0]
    return [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]


def test_the_readme_example_runs(tmp_path: pathlib.Path, rust_bin: str) -> None:
    blocks = python_blocks()
    assert len(blocks) == 2, "the README has the first example and the adapters' example"
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        scope: dict[str, object] = {}
        exec(compile(blocks[0], "README.md", "exec"), scope)
        # The adapters' example, as written, in a scope of its own.
        exec(compile(blocks[1], "README.md", "exec"), {})
    finally:
        os.chdir(here)
    assert scope["result"] == 'ran github__create_issue with {"title":"Flaky"}'
    done = subprocess.run([rust_bin, "replay", str(tmp_path / "session.jsonl")], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert b"routed toolu_1 github__create_issue" in done.stdout
