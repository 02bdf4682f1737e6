"""The host's own mistakes. Refusals are never raised: they are answers."""

from __future__ import annotations


class DiscloseError(Exception):
    """The base of every exception this package raises."""


class AdmissionError(DiscloseError, ValueError):
    """A declaration the catalog refused.

    ``code`` is the refusal's code (``admit.name``), ``kind`` its class
    (``E_INVALID_ARGS``) and ``text`` the lines a transcript prints.
    """

    code: str
    kind: str
    text: str

    def __init__(self, message: str, code: str, kind: str, text: str) -> None:
        super().__init__(message)
        self.code = code
        self.kind = kind
        self.text = text


class InputError(DiscloseError, ValueError):
    """A value the library cannot take: a word that is not a mode or a
    provider, args that are not JSON, a value JSON cannot write."""


class RunEndedError(DiscloseError, RuntimeError):
    """A catalog, recorder or run used after it started or finished."""


class RecordingError(DiscloseError, OSError):
    """A recording that could not be created or written."""


class ToolListError(DiscloseError, ValueError):
    """A tool list that is not JSON, or not of the importer's shape."""
