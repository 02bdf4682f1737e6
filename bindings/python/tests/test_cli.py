"""The wheel's ``disclose`` is the Rust command: the same bytes and the
same exit codes."""

from __future__ import annotations

import subprocess

import pytest

from conftest import ROOT


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--help"],
        ["vocab"],
        ["check"],
        ["check", "no/such/dir"],
        ["nosuch"],
        ["replay", "corpora/call/misfit_integer_vs_number.jsonl"],
        ["cost", "corpora/realistic"],
    ],
)
def test_same_bytes_and_status_as_the_binary(rust_bin: str, args: list[str]) -> None:
    wheel = subprocess.run(["disclose", *args], cwd=ROOT, capture_output=True)
    rust = subprocess.run([rust_bin, *args], cwd=ROOT, capture_output=True)
    assert (wheel.returncode, wheel.stdout, wheel.stderr) == (rust.returncode, rust.stdout, rust.stderr)


def test_python_dash_m_runs_it_too() -> None:
    done = subprocess.run(["python", "-m", "disclose", "--version"], capture_output=True, check=True)
    assert done.stdout.startswith(b"disclose ")
