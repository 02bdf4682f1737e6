"""``python -m disclose``: the ``disclose`` command."""

from ._cli import main

main()
