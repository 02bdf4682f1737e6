"""The ``disclose`` command of the wheel: the Rust command, run in process."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from . import _native

#: The package's name on PyPI, which ``uvx`` and ``pipx run`` must be given:
#: the registry's ``disclose`` is someone else's.
PACKAGE = "disclose-catalog"


def main(invoked_as: str | None = None) -> None:
    """Runs ``disclose`` with this process's arguments and exits with its
    status (0 pass, 1 failure, 2 usage or I/O), as the Rust binary does.
    ``invoked_as`` is how it was started, as a person types it to run it
    again (the bless command repeats it); by default, as the console script
    was started (:func:`invoked_as`)."""
    # A dedicated process: Ctrl-C stops it at once, as it stops the binary
    # (Python's handler would wait for the command to return).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    command = invoked_as or invoked_as_script(sys.argv[0], sys.prefix, os.environ)
    sys.exit(_native.cli([command, *sys.argv[1:]]))


def invoked_as_script(argv0: str, prefix: str, environ: Mapping[str, str]) -> str:
    """How the console script ``argv0`` was started, in the words a person
    types to run it again: ``pipx run disclose-catalog`` from a ``pipx run``
    environment (pipx keeps its metadata there, and outside its ``venvs``
    folder), ``uvx disclose-catalog`` from one of uv's cached environments
    (uv sets ``UV`` for what it runs), ``uv run NAME`` from a project's
    environment under uv, and otherwise the script's own name (``disclose``
    or ``disclose-catalog``)."""
    name = os.path.basename(argv0)
    if name.lower().endswith(".exe"):
        name = name[: -len(".exe")]
    if name not in ("disclose", PACKAGE):
        name = "disclose"
    env = Path(prefix)
    if (env / "pipx_metadata.json").is_file() and env.parent.name != "venvs":
        return f"pipx run {PACKAGE}"
    if environ.get("UV"):
        if any(part.startswith(("archive-v", "environments-v")) for part in env.parts):
            return f"uvx {PACKAGE}"
        return f"uv run {name}"
    return name
