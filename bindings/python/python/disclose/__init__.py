"""disclose: a deterministic, progressive-disclosure tool catalog.

A few core tools are always in the request's tool list; every other
admitted tool or skill is one line of a dormant index (at most 1024 bytes),
reached through ``describe`` and ``call``. The tool list never changes
during a run, so the provider's prompt cache stays valid, and a recorded
run replays byte for byte under ``disclose check``.

>>> import disclose
>>> catalog = disclose.Catalog()
>>> catalog.admit_tool("github", "create_issue", "Open an issue. Needs a title.",
...     {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]},
...     effect="reversible")
'github__create_issue'
>>> run = catalog.start("work")
>>> run.render().endswith("- github__create_issue: Open an issue.\\n")
True
>>> run.answer("c1", "call", {"name": "github__create_issue", "args": {}}).code
'call.misfit'
"""

from ._errors import (
    AdmissionError,
    DiscloseError,
    InputError,
    RecordingError,
    RunEndedError,
    ToolListError,
)
from ._native import (
    CONTRACT_VERSION,
    Catalog,
    Recorder,
    Run,
    Skill,
    Tool,
    __version__,
    canonical_json,
    import_anthropic,
    import_mcp,
    import_openai,
    vocabulary,
)
from ._types import Answer, Execute, Refused, Text, ToolDecl

__all__ = [
    "CONTRACT_VERSION",
    "AdmissionError",
    "Answer",
    "Catalog",
    "DiscloseError",
    "Execute",
    "InputError",
    "Recorder",
    "RecordingError",
    "Refused",
    "Run",
    "RunEndedError",
    "Skill",
    "Text",
    "Tool",
    "ToolDecl",
    "ToolListError",
    "__version__",
    "canonical_json",
    "import_anthropic",
    "import_mcp",
    "import_openai",
    "vocabulary",
]
