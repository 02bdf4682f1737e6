"""The Python package's benchmarks (``script/bench-python``):

- Y1: ``Run.answer`` from Python, for a fitted call and a keyword
  ``describe``, over the catalog of a shipped session (the Rust side,
  ``examples/answer_timing.rs``, is timed by the script in the same run);
- Y2: a keyword ``describe`` against a pure-Python BM25 tool search
  (``rank_bm25``) over the same catalogs and the shipped recall suite,
  with hit@8 beside each;
- Y3: ``import disclose``: wall time and RSS over a bare interpreter.

Prints one ``key value`` line per figure.
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import time
from typing import Any, Callable

import disclose
from disclose import conformance

ROOT = pathlib.Path(__file__).resolve().parents[3]
SESSION = ROOT / "corpora" / "realistic" / "coding_agent_work_session.jsonl"
CALLS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("fitted_call", "toolu_01", "call",
     {"name": "sentry__get_issue_details", "args": {"organizationSlug": "acme", "issueId": "API-1K3"}}),
    ("keyword_describe", "toolu_02", "describe", {"name": "open pull requests that target the main branch"}),
]


def started(session: pathlib.Path) -> tuple[disclose.Run, list[dict[str, Any]]]:
    """The session's run, started as its `start` op says, and its ops."""
    case = conformance._Case()
    ops = []
    for line in session.read_text("utf-8").split("\n")[1:]:
        if not line.strip():
            continue
        op = conformance._Op(line)
        ops.append(op.fields)
        if op.name in ("tool", "skill", "carried_skill", "dev", "start"):
            case.step(op)
        if op.name == "start":
            break
    assert case.run is not None
    return case.run, ops


def best_of(rounds: int, call: Callable[[], object]) -> float:
    """Nanoseconds per call, the best of 5 batches."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter_ns()
        for _ in range(rounds):
            call()
        best = min(best, (time.perf_counter_ns() - start) / rounds)
    return best


def y1(rounds: int) -> None:
    run, _ = started(SESSION)
    for kind, call_id, name, args in CALLS:
        print(f"Y1_py_{kind}_ns {best_of(rounds, lambda: run.answer(call_id, name, args)):.0f}")


WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    return WORD.findall(re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower())


def listed(text: str) -> list[str]:
    """The names a describe answer lists, in rank order (a skill's line
    reads ``- skill <name>: …``)."""
    names = [line[2:].split(":", 1)[0] for line in text.split("\n") if line.startswith("- ")]
    return [name.removeprefix("skill ") for name in names]


def y2() -> None:
    from rank_bm25 import BM25Okapi

    tasks = 0
    hits = {"disclose": 0, "bm25": 0}
    spent = {"disclose": 0, "bm25": 0}
    for recall in sorted((ROOT / "corpora" / "recall").glob("*.recall")):
        run, ops = started(ROOT / "corpora" / "realistic" / f"{recall.stem}.jsonl")
        names, docs = [], []
        for name in run.digests():
            tool = run.tool(name)
            if tool is not None:
                names.append(name)
                docs.append(words(name.replace("__", " ").replace("_", " ") + " " + tool.description))
        for op in ops:
            if op.get("op") in ("skill", "carried_skill"):
                names.append(op["name"])
                docs.append(words(op["name"].replace("-", " ") + " " + op["disclosure"]))
        bm25 = BM25Okapi(docs)
        for line in recall.read_text("utf-8").splitlines():
            if not line.strip():
                continue
            task = json.loads(line)
            tasks += 1
            start = time.perf_counter_ns()
            ranked = listed(run.describe(task["query"]))[:8]
            spent["disclose"] += time.perf_counter_ns() - start
            hits["disclose"] += any(name in task["expect"] for name in ranked)
            start = time.perf_counter_ns()
            scores = bm25.get_scores(words(task["query"]))
            top = sorted(range(len(names)), key=lambda i: -scores[i])[:8]
            spent["bm25"] += time.perf_counter_ns() - start
            hits["bm25"] += any(names[i] in task["expect"] for i in top)
    print(f"Y2_tasks {tasks}")
    for side in ("disclose", "bm25"):
        print(f"Y2_{side}_us_per_query {spent[side] / tasks / 1000:.1f}")
        print(f"Y2_{side}_hit8_pct {100 * hits[side] / tasks:.1f}")


def y3() -> None:
    probe = (
        "import time\n"
        "def rss(): return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0])\n"
        "r0 = rss(); t = time.perf_counter(); import disclose; t1 = time.perf_counter()\n"
        "print((t1 - t) * 1000, (rss() - r0) / 1024)\n"
    )
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True, text=True).stdout.split()
            for _ in range(7)]
    wall = sorted(float(r[0]) for r in runs)[3]
    rss = sorted(float(r[1]) for r in runs)[3]
    print(f"Y3_import_ms {wall:.1f}")
    print(f"Y3_import_rss_mib {rss:.1f}")


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    y1(rounds)
    y2()
    y3()
