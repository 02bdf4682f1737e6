"""Bad input to every entry point: a typed exception with a clear
message, and nothing else breaks."""

from __future__ import annotations

import io
import pathlib

import pytest

import disclose


def fresh() -> disclose.Catalog:
    catalog = disclose.Catalog()
    catalog.admit_tool("fs", "read", "Read a file.", {"type": "object"}, effect="read", approval="never")
    return catalog


def test_the_exceptions_derive_from_the_fitting_builtins() -> None:
    assert issubclass(disclose.AdmissionError, ValueError)
    assert issubclass(disclose.InputError, ValueError)
    assert issubclass(disclose.RunEndedError, RuntimeError)
    assert issubclass(disclose.RecordingError, OSError)
    assert issubclass(disclose.ToolListError, ValueError)
    for error in (disclose.AdmissionError, disclose.InputError, disclose.RunEndedError,
                  disclose.RecordingError, disclose.ToolListError):
        assert issubclass(error, disclose.DiscloseError)


@pytest.mark.parametrize(
    "admit, code",
    [
        (lambda c: c.admit_tool("Bad", "x", "X.", {}), "admit.origin"),
        (lambda c: c.admit_tool("o", "a.b", "X.", {}), "admit.name"),
        (lambda c: c.admit_tool("o", "x", "", {}), "admit.disclosure"),
        (lambda c: c.admit_tool("o", "x", "X.", []), "admit.schema"),
        (lambda c: c.admit_tool("o", "x", "X.", {"type": 7}), "admit.schema"),
        (lambda c: c.admit_tool("fs", "read", "Again.", {}), "admit.duplicate"),
        (lambda c: c.admit_skill("s", "S.", "a", hash="nothex"), "admit.hash"),
        (lambda c: c.admit_carried_skill("s", "S.", "body", hash="0" * 64), "admit.hash"),
    ],
)
def test_refused_admissions_raise_with_their_code(admit, code: str) -> None:  # type: ignore[no-untyped-def]
    catalog = fresh()
    with pytest.raises(disclose.AdmissionError) as raised:
        admit(catalog)
    assert raised.value.code == code
    assert raised.value.kind == "E_INVALID_ARGS"
    assert raised.value.text == f"refused E_INVALID_ARGS {code}: {raised.value}\n"
    # The catalog is unchanged and goes on.
    assert catalog.generation == 1
    assert catalog.admit_tool("fs", "write", "Write a file.", {}) == "fs__write"


def test_a_started_run_refuses_admission_as_frozen() -> None:
    run = fresh().start("work")
    with pytest.raises(disclose.AdmissionError) as raised:
        run.admit_tool("fs", "write", "Write.", {})
    assert raised.value.code == "admit.frozen"
    assert run.render().endswith("- fs__read: Read a file.\n") or "fs__read" in run.render()


@pytest.mark.parametrize(
    "use, message",
    [
        (lambda r: r.tools_json("openai"), 'provider must be "anthropic"'),
        (lambda r: r.switch_mode("fly"), 'mode must be "chat" or "work"'),
        (lambda r: r.answer("c", "call", "[1"), "args is not a JSON text"),
        (lambda r: r.answer("c", "call", {"a": {1, 2}}), "holds a set, which is not JSON"),
        (lambda r: r.answer("c", "call", {1: "x"}), "key that is not a str"),
        (lambda r: r.answer("c", "call", '{"a":1,"a":2}'), "line 1 column"),
    ],
)
def test_bad_words_and_values_raise_input_errors(use, message: str) -> None:  # type: ignore[no-untyped-def]
    run = fresh().start("work")
    with pytest.raises(disclose.InputError, match=message):
        use(run)
    assert run.mode == "work"
    assert isinstance(run.answer("c", "call", {"name": "fs__read", "args": {}}), disclose.Execute)


def test_a_value_that_holds_itself_is_refused_not_a_crash() -> None:
    run = fresh().start("work")
    loop: dict[str, object] = {}
    loop["loop"] = loop
    with pytest.raises(disclose.InputError, match="127 levels"):
        run.answer("c", "fs__read", loop)  # type: ignore[arg-type]


def test_wrong_types_are_type_errors() -> None:
    catalog = disclose.Catalog()
    with pytest.raises(TypeError):
        catalog.admit_tool(1, "x", "X.", {})  # type: ignore[arg-type]
    with pytest.raises(disclose.InputError):
        catalog.start("sprint")
    with pytest.raises(disclose.InputError, match="profile"):
        catalog.start("chat", profile="boss")
    assert catalog.start("chat").mode == "chat"


def test_started_and_finished_objects_raise_runtime_errors() -> None:
    catalog = fresh()
    run = catalog.start("chat")
    with pytest.raises(disclose.RunEndedError):
        catalog.start("chat")
    with pytest.raises(disclose.RunEndedError):
        catalog.admit_tool("fs", "write", "Write.", {})
    run.finish()
    with pytest.raises(disclose.RunEndedError, match="finished"):
        run.render()
    with pytest.raises(RuntimeError):
        run.answer("c", "describe", {"name": "x"})


def test_importers_refuse_what_is_not_a_tool_list() -> None:
    with pytest.raises(disclose.ToolListError, match="is not JSON"):
        disclose.import_mcp("nope", "fs")
    with pytest.raises(disclose.ToolListError):
        disclose.import_openai('{"tools": 3}', "oa")
    decls = disclose.import_anthropic('[{"name": "get", "description": "Get.", "input_schema": {"type": "object"}}]', "api")
    assert decls == [disclose.ToolDecl("api", "get", "Get.", {"type": "object"})]
    catalog = disclose.Catalog()
    assert catalog.admit(decls[0]) == "api__get"


def test_a_recording_that_cannot_be_made_is_an_os_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(disclose.RecordingError, match="cannot create"):
        disclose.Recorder(tmp_path / "missing" / "s.jsonl")
    with pytest.raises(disclose.InputError, match="path or a file object"):
        disclose.Recorder(42)  # type: ignore[arg-type]


class Full(io.StringIO):
    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        if self.room == 0:
            raise OSError(28, "No space left on device")
        self.room -= 1
        return super().write(text)


def test_a_recording_that_fails_mid_run_says_so_at_finish() -> None:
    sink = Full(room=2)
    recorder = disclose.Recorder(sink, about="a full disk")
    recorder.admit_tool("fs", "read", "Read a file.", {}, effect="read", approval="never")
    run = recorder.start("chat")
    # The run goes on: recording never stops it.
    assert isinstance(run.answer("c", "describe", {"name": "fs__read"}), disclose.Text)
    with pytest.raises(disclose.RecordingError, match="line 3"):
        recorder.finish()
    assert sink.getvalue().count("\n") == 2
