"""A recorded run replays, byte for byte, to what the model was given."""

from __future__ import annotations

import io
import pathlib
import subprocess
import threading

import disclose

from conftest import replay

SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}


def record(recorder: disclose.Recorder) -> list[str]:
    """Drives a small run and returns, in order, every text the model read."""
    seen = []
    recorder.admit_tool("github", "create_issue", "Open an issue. Needs a title.", SCHEMA, effect="reversible")
    recorder.admit_tool("fs", "read", "Read a file.", {"type": "object"}, effect="read", approval="never")
    recorder.unadmitted_tool("fs", "write", "Write a file.", {})
    recorder.admit_skill("release", "How to cut a release.", "skills/release/SKILL.md")
    run = recorder.start("work")
    seen.append(run.tools_json("openai_chat"))
    seen.append(run.render())
    for id_, name, args in [
        ("c1", "describe", {"name": "issue"}),
        ("c2", "call", '{"name":"github__create_issue","args":{"title":"t","n":-0}}'),
        ("c3", "call", {"name": "github__create_issue", "args": {}}),
        ("c4", "describe", {"name": ""}),
        ("c5", "fs__read", {"path": "a"}),
    ]:
        answer = run.answer(id_, name, args)
        match answer:
            case disclose.Text(text) | disclose.Refused(_, _, text):
                seen.append(text)
            case disclose.Execute(id, routed, _, args_json):
                seen.append(f"routed {id} {routed} {args_json}\n")
    seen.append(run.switch_mode("chat"))
    seen.append(run.expand("release"))
    return seen


def test_a_recorded_file_replays_to_what_the_model_read(tmp_path: pathlib.Path, rust_bin: str) -> None:
    path = tmp_path / "session.jsonl"
    with disclose.Recorder(path, about="recorded from Python") as recorder:
        seen = record(recorder)
    blocks = replay(rust_bin, path)
    ops = [op for _, op, _ in blocks]
    assert ops[:5] == ["tool", "tool", "tool", "skill", "start"]
    outputs = [output for _, op, output in blocks[5:]]
    # tool_defs prints the objects a line each; the request held the array.
    assert "[" + ",".join(outputs[0].splitlines()) + "]" == seen[0]
    assert outputs[1:] == seen[1:]
    assert outputs[3].startswith("routed c2 github__create_issue ") and '"n":-0.0' in outputs[3]


def test_a_file_object_takes_the_same_lines(tmp_path: pathlib.Path) -> None:
    text, binary = io.StringIO(), io.BytesIO()
    for sink in (text, binary):
        recorder = disclose.Recorder(sink, about="same")
        record(recorder)
        recorder.finish()
    assert text.getvalue().encode("utf-8") == binary.getvalue()
    path = tmp_path / "s.jsonl"
    with disclose.Recorder(str(path), about="same") as recorder:
        record(recorder)
    assert path.read_bytes() == binary.getvalue()


def test_check_passes_a_recorded_corpus(tmp_path: pathlib.Path, rust_bin: str) -> None:
    (tmp_path / "corpora" / "py").mkdir(parents=True)
    (tmp_path / "golden" / "py").mkdir(parents=True)
    session = tmp_path / "corpora" / "py" / "recorded.jsonl"
    with disclose.Recorder(session, about="recorded from Python") as recorder:
        record(recorder)
    golden = subprocess.run([rust_bin, "replay", str(session)], capture_output=True, check=True).stdout
    (tmp_path / "golden" / "py" / "recorded.txt").write_bytes(golden)
    vocabulary = subprocess.run([rust_bin, "vocab"], capture_output=True, check=True).stdout
    (tmp_path / "golden" / "vocabulary.txt").write_bytes(vocabulary)
    done = subprocess.run(["disclose", "check", "corpora"], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()


def test_threads_share_a_run() -> None:
    catalog = disclose.Catalog()
    for n in range(40):
        catalog.admit_tool("srv", f"tool_{n}", f"Does thing number {n} with files.", {"type": "object"},
                           effect="read", approval="never")
    run = catalog.start("work")
    calls = [("describe", {"name": f"thing {n} files"}) for n in range(40)]
    calls += [("call", {"name": f"srv__tool_{n}", "args": {"n": n}}) for n in range(40)]
    alone = [run.answer("c", name, args) for name, args in calls]
    results: dict[int, list[object]] = {}

    def work(index: int) -> None:
        results[index] = [run.answer("c", name, args) for name, args in calls]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results[i] == alone for i in range(8))


def test_threads_share_a_recorded_run(tmp_path: pathlib.Path, rust_bin: str) -> None:
    path = tmp_path / "threads.jsonl"
    recorder = disclose.Recorder(path)
    for n in range(10):
        recorder.admit_tool("srv", f"tool_{n}", f"Does thing {n}.", {"type": "object"}, effect="read", approval="never")
    run = recorder.start("work")
    given: dict[str, str] = {}
    lock = threading.Lock()

    def work(thread: int) -> None:
        for n in range(20):
            id_ = f"t{thread}-{n}"
            answer = run.answer(id_, "describe", {"name": f"thing {n % 10}"})
            assert isinstance(answer, disclose.Text)
            with lock:
                given[id_] = answer.text

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    recorder.finish()
    blocks = replay(rust_bin, path)
    describes = [output for _, op, output in blocks if op == "describe"]
    assert len(describes) == 80
    assert sorted(describes) == sorted(given.values())
