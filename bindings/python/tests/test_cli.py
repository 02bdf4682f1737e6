"""The wheel's ``disclose`` is the Rust command: the same bytes and the
same exit codes."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import GOLDEN, ROOT
from disclose._cli import invoked_as_script


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


def _failing_project(tmp_path: pathlib.Path) -> pathlib.Path:
    """A corpus whose one session has no golden: `check` prints the bless
    command."""
    (tmp_path / "corpora").mkdir()
    (tmp_path / "corpora" / "a.jsonl").write_text('{"op":"session","format":1,"about":"x"}\n')
    (tmp_path / "golden").mkdir()
    shutil.copy(GOLDEN / "vocabulary.txt", tmp_path / "golden" / "vocabulary.txt")
    return tmp_path


def _bless_command(argv: list[str], cwd: pathlib.Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("UV", "GITHUB_ACTIONS")}
    done = subprocess.run([*argv, "check"], cwd=cwd, capture_output=True, env=env)
    assert done.returncode == 1, done
    out = done.stdout.decode()
    assert 'no golden "golden/a.txt"; bless it with `' in out, out
    return out.split("bless it with `")[1].split("`")[0]


def test_the_bless_command_names_the_script_or_python_dash_m(tmp_path: pathlib.Path) -> None:
    project = _failing_project(tmp_path)
    assert _bless_command(["disclose"], project) == "disclose check --bless"
    assert _bless_command(["python", "-m", "disclose"], project) == "python -m disclose check --bless"


def test_how_a_console_script_was_started(tmp_path: pathlib.Path) -> None:
    venv = str(tmp_path / "venv")
    assert invoked_as_script(f"{venv}/bin/disclose", venv, {}) == "disclose"
    assert invoked_as_script(f"{venv}/bin/disclose-catalog", venv, {}) == "disclose-catalog"
    assert invoked_as_script("disclose-catalog.EXE", venv, {}) == "disclose-catalog"
    # pipx: `pipx run` keeps its metadata in a cached environment, `pipx
    # install` in one under `venvs/`, whose scripts are on PATH.
    ran = tmp_path / "pipx" / ".cache" / "0123456789abcde"
    installed = tmp_path / "pipx" / "venvs" / "disclose-catalog"
    for env in (ran, installed):
        env.mkdir(parents=True)
        (env / "pipx_metadata.json").write_text("{}")
    assert invoked_as_script(f"{ran}/bin/disclose-catalog", str(ran), {}) == "pipx run disclose-catalog"
    assert invoked_as_script(f"{installed}/bin/disclose", str(installed), {}) == "disclose"
    # uv: `uvx` runs from one of uv's cached environments, `uv run` from a
    # project's; `uv` is never given the registry's `disclose`.
    uv = {"UV": "/usr/bin/uv"}
    for cached in ("/home/u/.cache/uv/archive-v0/Xy12", "/home/u/.cache/uv/environments-v2/disclose-3f2a"):
        assert invoked_as_script(f"{cached}/bin/disclose", cached, uv) == "uvx disclose-catalog"
    assert invoked_as_script("/p/.venv/bin/disclose", "/p/.venv", uv) == "uv run disclose"
    assert invoked_as_script("/p/.venv/bin/disclose", "/p/.venv", {}) == "disclose"
