"""``python -m disclose.conformance``: this package behind the conformance
protocol (``docs/protocol.md``), so that ``disclose check --impl`` judges
the binding, not the binary, on every case of the shipped corpus.

Each op is replayed through the public API (``Catalog``, ``Run``) and its
output written as SPEC §11.2 prints it. The fields that carry JSON values
(``input_schema``, ``args``) are handed to the binding as the exact text of
the op line: Python's ``json`` would read ``-0`` as ``0``, and the bytes
of the transcript follow the text.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Optional

from . import _native
from ._errors import AdmissionError
from ._types import Execute, Refused

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


class Malformed(Exception):
    """An op this adapter cannot read; the case is answered ``errored``."""


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _expect(text: str, at: int, char: str) -> int:
    at = _skip(text, at)
    if text[at : at + 1] != char:
        raise Malformed(f"expected {char!r} at offset {at}")
    return at + 1


def raw_members(text: str, at: int = 0) -> tuple[dict[str, str], int]:
    """The members of the JSON object at ``text[at:]``, each as its exact
    text, and the offset after the object."""
    at = _expect(text, at, "{")
    members: dict[str, str] = {}
    at = _skip(text, at)
    if text[at : at + 1] == "}":
        return members, at + 1
    while True:
        at = _expect(text, at, '"')
        key, at = json.decoder.scanstring(text, at)  # type: ignore[attr-defined]
        at = _expect(text, at, ":")
        at = _skip(text, at)
        _, end = _DECODER.raw_decode(text, at)
        members[key] = text[at:end]
        at = _skip(text, end)
        if text[at : at + 1] == ",":
            at += 1
            continue
        return members, _expect(text, at, "}")


def raw_elements(text: str) -> list[str]:
    """The elements of the JSON array ``text``, each as its exact text."""
    at = _expect(text, 0, "[")
    elements: list[str] = []
    at = _skip(text, at)
    if text[at : at + 1] == "]":
        return elements
    while True:
        at = _skip(text, at)
        _, end = _DECODER.raw_decode(text, at)
        elements.append(text[at:end])
        at = _skip(text, end)
        if text[at : at + 1] == ",":
            at += 1
            continue
        _expect(text, at, "]")
        return elements


class _Op:
    """One op: its fields read by Python, its JSON values kept as text."""

    def __init__(self, text: str) -> None:
        self.raw, _ = raw_members(text)
        self.fields: dict[str, Any] = json.loads(text)
        self.name = self.fields.get("op")

    def text(self, field: str) -> str:
        value = self.fields.get(field)
        if not isinstance(value, str):
            raise Malformed(f"field {field!r} of op {self.name!r} must be a string")
        return value

    def optional(self, field: str) -> Optional[str]:
        return self.text(field) if field in self.fields else None


def _short(hash_: str) -> str:
    return hash_[:16]


class _Case:
    """A session's replay through the binding."""

    def __init__(self) -> None:
        self.catalog: Optional[_native.Catalog] = _native.Catalog()
        self.run: Optional[_native.Run] = None

    def admission(self, admit: Callable[[Any], str], line: Callable[[Any, str], str]) -> str:
        target: Any = self.catalog if self.run is None else self.run
        try:
            name = admit(target)
        except AdmissionError as refused:
            return refused.text
        return line(target, name)

    def step(self, op: _Op) -> str:
        kind = op.name
        if kind == "tool":
            return self.tool(op)
        if kind == "skill":
            hash_ = op.optional("hash")
            return self.admission(
                lambda at: at.admit_skill(
                    op.text("name"), op.text("disclosure"), op.text("address"),
                    hash=hash_, package=op.optional("package"),
                ),
                lambda _, name: f"admitted skill {name} (shelf, "
                + (f"hash {_short(hash_)})\n" if hash_ is not None else "no hash)\n"),
            )
        if kind == "carried_skill":
            return self.admission(
                lambda at: at.admit_carried_skill(
                    op.text("name"), op.text("disclosure"), op.text("body"),
                    hash=op.optional("hash"), package=op.optional("package"),
                ),
                lambda at, name: f"admitted skill {name} (carried, hash {_short(at.skill(name).hash)})\n",
            )
        if kind == "dev":
            if self.catalog is None:
                raise Malformed("dev after start")
            self.catalog.set_dev_line(op.text("text"))
            return "dev line set\n"
        if kind == "start":
            if self.catalog is None:
                raise Malformed("a second start")
            mode, profile = op.text("mode"), op.optional("profile")
            self.run = self.catalog.start(mode, profile=profile)
            self.catalog = None
            child = f" as a {profile} child" if profile is not None else ""
            return f"run started in {mode} mode{child} at generation {self.run.generation}\n"
        run = self.run
        if run is None:
            raise Malformed(f"op {kind!r} before start")
        if kind == "render":
            return run.render()
        if kind == "tool_defs":
            return run.tool_defs(op.optional("provider") or "anthropic")
        if kind == "describe":
            return run.describe(op.text("name"))
        if kind == "call":
            routed = run.route(op.text("id"), op.text("name"), op.raw["args"])
            if isinstance(routed, Refused):
                return routed.text
            assert isinstance(routed, Execute)
            return f"routed {routed.id} {routed.name} {routed.args_json}\n"
        if kind == "switch_mode":
            return run.switch_mode(op.text("mode"))
        if kind == "expand":
            return run.expand(op.text("name"))
        if kind == "pins":
            return "".join(f"{name} {hash_}\n" for name, hash_ in run.pins())
        if kind == "digests":
            return "".join(f"{name} {digest}\n" for name, digest in run.digests().items())
        raise Malformed(f"unknown op {kind!r}")

    def tool(self, op: _Op) -> str:
        origin, name = op.text("origin"), op.text("name")
        if op.fields.get("admitted", True) is False:
            return f"unadmitted tool {origin}/{name}\n"
        return self.admission(
            lambda at: at.admit_tool(
                origin, name, op.text("description"), op.raw["input_schema"],
                effect=op.optional("effect") or "irreversible",
                approval=op.optional("approval") or "required",
            ),
            lambda at, minted: (
                lambda tool: f"admitted tool {minted} (effect {tool.effect}, approval {tool.approval}, digest {_short(tool.digest)})\n"
            )(at.tool(minted)),
        )


def answer(case: str, ops: list[str]) -> dict[str, Any]:
    """The protocol's answer to one ``run``."""
    replay = _Case()
    outputs = []
    for at, text in enumerate(ops):
        try:
            outputs.append(replay.step(_Op(text)))
        except (Malformed, KeyError, ValueError) as error:
            return {"case": case, "errored": f"ops[{at}] is not a well-formed op: {error}"}
    return {"case": case, "outputs": outputs}


def serve(stdin: Any = None, stdout: Any = None) -> int:
    """Speaks protocol 1 on ``stdin`` and ``stdout`` until ``bye``."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    for number, line in enumerate(stdin, start=1):
        # Lines end at b"\n" only: a message may hold U+2028 or \r escapes.
        text = line.decode("utf-8")
        if not text.strip():
            continue
        members, _ = raw_members(text)
        command = json.loads(members.get("cmd", "null"))
        if command == "hello":
            reply: dict[str, Any] = {
                "implementation": {
                    "name": "disclose (Python)",
                    "version": _native.__version__,
                    "language": "python",
                },
                "contract": [_native.CONTRACT_VERSION],
            }
        elif command == "run":
            reply = answer(json.loads(members["case"]), raw_elements(members["ops"]))
        elif command == "bye":
            return 0
        else:
            print(f"stdin line {number}: unknown command {command!r}", file=sys.stderr)
            return 2
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(serve())
