"""``python -m disclose``: the ``disclose`` command."""

from ._cli import main

if __name__ == "__main__":
    main("python -m disclose")
