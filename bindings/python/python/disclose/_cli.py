"""The ``disclose`` command of the wheel: the Rust command, run in process."""

from __future__ import annotations

import signal
import sys

from . import _native


def main() -> None:
    """Runs ``disclose`` with this process's arguments and exits with its
    status (0 pass, 1 failure, 2 usage or I/O), as the Rust binary does."""
    # A dedicated process: Ctrl-C stops it at once, as it stops the binary
    # (Python's handler would wait for the command to return).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_native.cli(["disclose", *sys.argv[1:]]))
