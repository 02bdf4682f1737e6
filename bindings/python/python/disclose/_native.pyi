"""The compiled half of ``disclose`` (``bindings/python/src``)."""

import os
from typing import IO, Any, Final, Literal, Optional, Union, final

from ._types import Answer, Execute, JSONObject, Refused, ToolDecl

__all__ = [
    "CONTRACT_VERSION",
    "Catalog",
    "Recorder",
    "Run",
    "Skill",
    "Tool",
    "__version__",
    "canonical_json",
    "cli",
    "import_anthropic",
    "import_mcp",
    "import_openai",
    "vocabulary",
]

CONTRACT_VERSION: Final[int]
__version__: Final[str]

@final
class Tool:
    """An admitted tool, as the catalog holds it."""

    @property
    def name(self) -> str: ...
    @property
    def origin(self) -> str: ...
    @property
    def raw_name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def hint(self) -> str: ...
    @property
    def effect(self) -> str: ...
    @property
    def approval(self) -> str: ...
    @property
    def digest(self) -> str: ...
    @property
    def input_schema_json(self) -> str: ...

@final
class Skill:
    """An admitted skill."""

    @property
    def name(self) -> str: ...
    @property
    def door(self) -> str: ...
    @property
    def disclosure(self) -> str: ...
    @property
    def hint(self) -> str: ...
    @property
    def hash(self) -> Optional[str]: ...
    @property
    def package(self) -> Optional[str]: ...

@final
class Catalog:
    """A catalog being built; ``start`` freezes it into a ``Run``."""

    def __init__(self) -> None: ...
    def admit_tool(
        self,
        origin: str,
        name: str,
        description: str,
        input_schema: JSONObject,
        *,
        effect: str = "irreversible",
        approval: str = "required",
    ) -> str: ...
    def admit(self, decl: ToolDecl) -> str: ...
    def admit_skill(
        self,
        name: str,
        disclosure: str,
        address: str,
        *,
        hash: Optional[str] = None,
        package: Optional[str] = None,
    ) -> str: ...
    def admit_carried_skill(
        self,
        name: str,
        disclosure: str,
        body: str,
        *,
        hash: Optional[str] = None,
        package: Optional[str] = None,
    ) -> str: ...
    def set_dev_line(self, text: str) -> None: ...
    def tool(self, name: str) -> Optional[Tool]: ...
    def skill(self, name: str) -> Optional[Skill]: ...
    @property
    def generation(self) -> int: ...
    def start(self, mode: str, *, profile: Optional[str] = None) -> Run: ...

@final
class Recorder:
    """A catalog being built, recorded as a session that ``disclose check``
    replays byte for byte."""

    def __new__(
        cls,
        target: Union[str, os.PathLike[str], IO[str], IO[bytes]],
        *,
        about: str = "a run recorded by the disclose Python package",
    ) -> Recorder: ...
    def admit_tool(
        self,
        origin: str,
        name: str,
        description: str,
        input_schema: JSONObject,
        *,
        effect: str = "irreversible",
        approval: str = "required",
    ) -> str: ...
    def admit(self, decl: ToolDecl) -> str: ...
    def admit_skill(
        self,
        name: str,
        disclosure: str,
        address: str,
        *,
        hash: Optional[str] = None,
        package: Optional[str] = None,
    ) -> str: ...
    def admit_carried_skill(
        self,
        name: str,
        disclosure: str,
        body: str,
        *,
        hash: Optional[str] = None,
        package: Optional[str] = None,
    ) -> str: ...
    def unadmitted_tool(
        self,
        origin: str,
        name: str,
        description: str,
        input_schema: JSONObject,
        *,
        effect: str = "irreversible",
        approval: str = "required",
    ) -> None: ...
    def set_dev_line(self, text: str) -> None: ...
    def start(self, mode: str, *, profile: Optional[str] = None) -> Run: ...
    def finish(self) -> None: ...
    def __enter__(self) -> Recorder: ...
    def __exit__(self, kind: Any, value: Any, traceback: Any) -> Literal[False]: ...

@final
class Run:
    """A started run: its tool list never changes."""

    def render(self) -> str: ...
    def tools_for(self, provider: str = "anthropic") -> list[dict[str, Any]]: ...
    def tools_json(self, provider: str = "anthropic") -> str: ...
    def tool_defs(self, provider: str = "anthropic") -> str: ...
    def describe(self, text: str) -> str: ...
    def answer(self, id: str, name: str, args: JSONObject) -> Answer: ...
    def route(self, id: str, name: str, args: JSONObject) -> Union[Execute, Refused]: ...
    def expand(self, name: str) -> str: ...
    def switch_mode(self, mode: str) -> str: ...
    def pins(self) -> list[tuple[str, str]]: ...
    def digests(self) -> dict[str, str]: ...
    def tool(self, name: str) -> Optional[Tool]: ...
    def admitted_tool(self, name: str) -> Optional[Tool]: ...
    def skill(self, name: str) -> Optional[Skill]: ...
    @property
    def mode(self) -> str: ...
    @property
    def start_mode(self) -> str: ...
    @property
    def profile(self) -> Optional[str]: ...
    @property
    def generation(self) -> int: ...
    @property
    def recording(self) -> bool: ...
    def admit_tool(
        self,
        origin: str,
        name: str,
        description: str,
        input_schema: JSONObject,
        *,
        effect: str = "irreversible",
        approval: str = "required",
    ) -> str: ...
    def admit(self, decl: ToolDecl) -> str: ...
    def admit_skill(
        self,
        name: str,
        disclosure: str,
        address: str,
        *,
        hash: Optional[str] = None,
        package: Optional[str] = None,
    ) -> str: ...
    def admit_carried_skill(
        self,
        name: str,
        disclosure: str,
        body: str,
        *,
        hash: Optional[str] = None,
        package: Optional[str] = None,
    ) -> str: ...
    def unadmitted_tool(
        self,
        origin: str,
        name: str,
        description: str,
        input_schema: JSONObject,
        *,
        effect: str = "irreversible",
        approval: str = "required",
    ) -> None: ...
    def finish(self) -> None: ...

def cli(argv: list[str]) -> int: ...
def import_mcp(json_text: str, origin: str) -> list[ToolDecl]: ...
def import_openai(json_text: str, origin: str) -> list[ToolDecl]: ...
def import_anthropic(json_text: str, origin: str) -> list[ToolDecl]: ...
def canonical_json(value: Any) -> str: ...
def vocabulary() -> str: ...
