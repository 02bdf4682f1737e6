"""The answers of ``Run.answer`` and the declarations of the importers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


JSONObject = Union[dict[str, Any], str]
"""A JSON object as a dict, or as a JSON text (read in Rust, so that its
numbers keep their bytes)."""


@dataclass(frozen=True, slots=True)
class Text:
    """The answer of ``describe`` (called directly or through ``call``):
    give the model ``text`` as the tool result."""

    text: str


@dataclass(frozen=True, slots=True)
class Execute:
    """A call resolved, fitted and gated (SPEC §6): the host runs ``name``
    with ``args``. ``args_json`` is their canonical JSON text, exactly the
    bytes the library writes (numbers included)."""

    id: str
    name: str
    args: dict[str, Any]
    args_json: str


@dataclass(frozen=True, slots=True)
class Refused:
    """A refusal from the sealed vocabulary: give the model ``text``.
    ``code`` is its code (``call.misfit``), ``kind`` its class
    (``E_INVALID_ARGS`` or ``E_GATE_DENIED``)."""

    code: str
    kind: str
    text: str


Answer = Union[Text, Execute, Refused]
"""What ``Run.answer`` gives: one of the three, to ``match`` on."""


@dataclass(frozen=True, slots=True)
class ToolDecl:
    """A tool as its origin declares it, for ``Catalog.admit``.

    ``input_schema`` is a dict, or a JSON text (read with its numbers
    kept). ``effect`` and ``approval`` fail closed: an unknown word counts
    as ``irreversible`` and ``required``."""

    origin: str
    name: str
    description: str
    input_schema: JSONObject
    effect: str = "irreversible"
    approval: str = "required"
