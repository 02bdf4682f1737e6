"""The ``disclose`` command of the wheel (also installed as
``disclose-catalog``): the Rust command, run in process."""

from __future__ import annotations

import os
import signal
import sys

from . import _native


def _invoked_as() -> str:
    """The name the command was started by (``disclose`` or
    ``disclose-catalog``; ``disclose`` for ``python -m disclose``), which
    its usage lines show."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    name = name.removesuffix(".exe")
    return name if name in ("disclose", "disclose-catalog") else "disclose"


def main() -> None:
    """Runs ``disclose`` with this process's arguments and exits with its
    status (0 pass, 1 failure, 2 usage or I/O), as the Rust binary does."""
    # A dedicated process: Ctrl-C stops it at once, as it stops the binary
    # (Python's handler would wait for the command to return).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_native.cli([_invoked_as(), *sys.argv[1:]]))
