"""Writes the gateway's symbol order (link/hot-symbols.txt; build.rs):
the functions a call through `disclose mcp` runs, hottest first.

Usage: hot_symbols.py DISCLOSE ECHO OUT [CALLS]

Runs the gateway under callgrind (one instruction count an address) with
ECHO (examples/mcp_echo) as its one upstream, while a raw client makes
CALLS `call`s of the echo and CALLS/4 `describe`s after 50 to warm. An
address run at least once a `describe` on average is hot; each hot address
is named by the function of DISCLOSE that holds it (`nm`), and the
functions are written by their instructions run, most first. What runs
in a library (libc) is not the binary's to order, and is left out.
"""

import bisect
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path


def drive(argv, calls):
    """Runs `argv` (the gateway under callgrind) through a session."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def ask(message):
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
        if "id" in message:
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"hot_symbols: the gateway under valgrind ended before answering {message['method']}: run {' '.join(argv)} to see why")
            answer = json.loads(line)
            if "result" not in answer:
                sys.exit(f"hot_symbols: the gateway refused {message['method']}: {answer}")
            return answer

    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "hot-symbols", "version": "1"}}})
    ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
    call = {"name": "call", "arguments": {"name": "echo__echo", "args": {"message": "hello"}}}
    describe = {"name": "describe", "arguments": {"name": "echo message"}}
    for i in range(50 + calls):
        ask({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": call})
        if i % 4 == 0:
            ask({"jsonrpc": "2.0", "id": f"d{i}", "method": "tools/call", "params": describe})
    proc.stdin.close()
    proc.wait()


def counts(path):
    """Instructions run at each address, from callgrind's --dump-instr file
    (an address line is `ADDRESS LINE COUNT`; the line after `calls=` is a
    call's inclusive cost, not the address's own)."""
    ran = Counter()
    after_call = False
    with open(path) as lines:
        for line in lines:
            if line.startswith("calls="):
                after_call = True
                continue
            if line.startswith("0x") and not after_call:
                fields = line.split()
                if len(fields) >= 3:
                    ran[int(fields[0], 16)] += int(fields[2])
            after_call = False
    return ran


def functions(binary):
    """The binary's functions: (start, end, mangled name), by start."""
    out = subprocess.run(["nm", "-S", "-n", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            start, size = int(fields[0], 16), int(fields[1], 16)
            if size:
                found.append((start, start + size, fields[3]))
    return found


def main():
    disclose, echo, out = sys.argv[1:4]
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    with tempfile.TemporaryDirectory(prefix="hot-symbols-") as tmp:
        config = Path(tmp) / "config.json"
        config.write_text(json.dumps({"mcpServers": {"echo": {"command": echo, "args": [], "approval": "never"}}}))
        profile = Path(tmp) / "callgrind.out"
        os.environ.update({"HOME": tmp, "XDG_STATE_HOME": tmp, "XDG_CONFIG_HOME": tmp, "XDG_DATA_HOME": tmp})
        drive(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no", "--compress-strings=no",
               f"--callgrind-out-file={profile}", disclose, "mcp", "--config", str(config)], calls)
        ran = counts(profile)
    table = functions(disclose)
    starts = [start for start, _, _ in table]
    requests = calls + calls // 4
    hot = Counter()
    for address, n in ran.items():
        if n < calls // 4:
            continue
        i = bisect.bisect_right(starts, address) - 1
        if i >= 0 and address < table[i][1]:
            hot[table[i][2]] += n
    if len(hot) < 50:
        sys.exit(f"hot_symbols: only {len(hot)} hot functions found in {disclose}: is it a release build with symbols?")
    Path(out).write_text("".join(f"{name}\n" for name, _ in hot.most_common()))
    print(f"hot_symbols: {len(hot)} functions, {sum(hot.values()) // requests} instructions a request, written to {out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
