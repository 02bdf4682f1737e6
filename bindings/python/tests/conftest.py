"""Shared helpers: the repository's paths and the Rust binary to compare
with (``DISCLOSE_BIN``, set by ``tests/python.rs``; else target/release)."""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
CORPORA = ROOT / "corpora"
GOLDEN = ROOT / "golden"


@pytest.fixture(scope="session")
def rust_bin() -> str:
    binary = os.environ.get("DISCLOSE_BIN") or str(ROOT / "target" / "release" / "disclose")
    assert os.access(binary, os.X_OK), f"the Rust binary {binary} is not built"
    return binary


def transcript_blocks(text: str) -> list[tuple[int, str, str]]:
    """A transcript (SPEC §12) as (line, op, output) blocks."""
    data = text.encode("utf-8")
    magic = b"disclose transcript 1\n"
    assert data.startswith(magic)
    at, blocks = len(magic), []
    while at < len(data):
        end = data.index(b"\n", at)
        _, line, op, length = data[at:end].decode().split(" ")
        start = end + 1
        blocks.append((int(line), op, data[start : start + int(length)].decode("utf-8")))
        at = start + int(length)
    return blocks


def replay(rust_bin: str, session: pathlib.Path) -> list[tuple[int, str, str]]:
    """The Rust binary's transcript of a session file."""
    done = subprocess.run([rust_bin, "replay", str(session)], capture_output=True, check=True)
    return transcript_blocks(done.stdout.decode("utf-8"))
