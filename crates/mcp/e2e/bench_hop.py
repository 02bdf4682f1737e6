"""The gateway's hop against a byte relay and its peers: G1, G1p, G2, G3 and
G6 of docs/performance.md, one line each in script/bench's format. Run by
script/bench-mcp after script/mcp-e2e-install and script/mcp-bench-install.

Usage: bench_hop.py DISCLOSE RELAY ECHO E2E_DIR PEERS_DIR

DISCLOSE is the binary (the gateway is `DISCLOSE mcp`), RELAY and ECHO the
examples mcp_relay and mcp_echo, E2E_DIR target/mcp-e2e (the SDKs and the
reference servers; e2e/bench_hop_client.mjs and e2e/many_tools.mjs copied
into its node/), PEERS_DIR target/mcp-bench (the peers). The clients,
e2e/bench_hop_client.py (the Python SDK) and .mjs (the TypeScript SDK), make
the calls; this script writes their specs, starts the systems served over
HTTP, and computes the figures.

  G1   a call's added latency through the gateway over a direct call, as a
       multiple of the relay's, with each SDK as the client. The calls are
       split into rounds; each round makes every system's share of calls in
       one shuffled (seeded) order; a round's added latency is (median call
       through X) - (median direct call); a system's added latency is the
       median of its rounds', and the figure is the gateway's over the
       relay's (the per-round ratios' min and max are printed beside it). (a) every system alive at once, over
       server-everything: target <= 3x. (b) only direct, relay and gateway,
       over examples/mcp_echo.rs: target <= 8x.
  G1p  the same figure for each peer in (a): disclose's must be below it.
  G1r  readings of G1's divisor, not targets. In (a), copies of the relay
       alive beside it, each read as the gateway is: how far one relay's
       added latency is from another's in the same run; and the relay that
       reads each line as JSON and writes it again (mcp_relay --parse): the
       least any process that reads its messages adds. Beside (b), a set-up
       of the same three systems for each of: the relay spinning a few
       microseconds on each read (mcp_relay --busy-ns), and the parsing
       relay, in the gateway's place: what that much work a line reads as
       a multiple of the relay.
  G2   launch to tools/list answered with three upstreams (server-everything,
       server-filesystem, server-memory) over the same three started at once
       by the same client (the Python SDK), median over rounds: target <= 1.1x.
       The peers served over stdio are printed beside it.
  G3   the gateway's peak RSS with 1,000 upstream tools admitted, after
       tools/list and ten describes: target <= 64 MiB; then with the README's
       lower-memory settings; then with ten upstreams of 100 tools, 100
       prompts and 100 resources each, after listing every prompt and
       resource and reading one of each.
  G7   `prompts/get` and `resources/read` through the gateway over
       server-everything: its added latency over direct as a multiple of the
       relay's, as G1 (a) measures a call, in a set-up of direct, relay and
       gateway alone: target within G1 (a)'s figure for tools/call in the
       same run, with the Python SDK as the client.
  G6   the tools/list bytes each system gives the client (the result's
       compact JSON, summed over a system's connections) with server-
       everything (13 tools) and a 500-tool server upstream: disclose's must
       be below every peer's.

Knobs (environment): BENCH_MCP_CALLS (calls per system in G1, default
2000), BENCH_MCP_ROUNDS (default 20), BENCH_MCP_SEED (default 26),
BENCH_MCP_G2_ROUNDS (default 7), BENCH_MCP_RELAY_COPIES (G1r's copies,
default 2), BENCH_MCP_BUSY_NS (G1r's work a read, default "1000 2000"),
BENCH_MCP_PEERS (a subset of the peers'
keys: mcp-hub mcp-gateway mcp-proxy fastmcp magg), BENCH_MCP_CLIENTS
(python, typescript or both, the default), BENCH_MCP_LOG (the systems'
stderr, default /dev/null). Every server listens on 127.0.0.1 only; every
wait is bounded.
"""

import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node") or "node"
LOG = os.environ.get("BENCH_MCP_LOG", os.devnull)
CALLS = int(os.environ.get("BENCH_MCP_CALLS", "2000"))
ROUNDS = int(os.environ.get("BENCH_MCP_ROUNDS", "20"))
SEED = int(os.environ.get("BENCH_MCP_SEED", "26"))
G2_ROUNDS = int(os.environ.get("BENCH_MCP_G2_ROUNDS", "7"))
RELAY_COPIES = int(os.environ.get("BENCH_MCP_RELAY_COPIES", "2"))
BUSY_NS = [int(ns) for ns in os.environ.get("BENCH_MCP_BUSY_NS", "1000 2000").split()]
WARM = 20  # calls per system before the first round, not counted
CLIENTS = {"python": "Python SDK client", "typescript": "TypeScript SDK client"}
STAND_INS = {"parse": "the relay reading each line as JSON and writing it again"}
PEERS = {
    "mcp-hub": "mcp-hub 4.2.1 (SSE)",
    "mcp-gateway": "lasso mcp-gateway 1.2.1",
    "mcp-proxy": "mcp-proxy 0.13.0 (HTTP)",
    "fastmcp": "FastMCP 4.2.3 create_proxy",
    "magg": "magg 1.3.0",
}


class Unavailable(Exception):
    """A peer that cannot run here; the message says why."""


def fmt(v):
    return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"


def say(line):
    print(line, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Bench:
    def __init__(self, disclose, relay, echo, e2e, peers, tmp):
        self.disclose, self.relay, self.echo = disclose, relay, echo
        self.e2e, self.peers, self.tmp = Path(e2e).resolve(), Path(peers).resolve(), Path(tmp)
        self.python = str(self.e2e / "venv/bin/python")
        modules = self.e2e / "node/node_modules"
        self.everything = [NODE, str(modules / "@modelcontextprotocol/server-everything/dist/index.js"), "stdio"]
        root = self.tmp / "root"
        root.mkdir()
        self.filesystem = [NODE, str(modules / "@modelcontextprotocol/server-filesystem/dist/index.js"), str(root)]
        self.memory = [NODE, str(modules / "@modelcontextprotocol/server-memory/dist/index.js")]
        self.many = lambda n: [NODE, str(self.e2e / "node/many_tools.mjs"), str(n)]
        self.servers = []  # the HTTP systems' processes
        self.g1_figure = {}  # G1 (a) by client, for G7
        self.files = 0

    def write(self, data):
        self.files += 1
        path = self.tmp / f"file-{self.files}.json"
        path.write_text(json.dumps(data))
        return str(path)

    def stop_servers(self):
        """Stops each HTTP system with the upstreams it started (its
        process group)."""
        for p in self.servers:
            os.killpg(p.pid, signal.SIGTERM)
        for p in self.servers:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        self.servers.clear()

    def serve(self, argv, ready_url, ready):
        """Starts an HTTP system; returns when ready(GET ready_url) holds."""
        log = open(LOG, "a")
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=self.tmp, start_new_session=True)
        self.servers.append(p)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if p.poll() is not None:
                raise Unavailable(f"exited with {p.returncode} at start (its log: BENCH_MCP_LOG)")
            try:
                with urllib.request.urlopen(ready_url, timeout=2) as answer:
                    if ready(answer):
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise Unavailable("not ready after 90 s")

    # Each system: (connections, wrap). `upstreams` maps a server's name to
    # (argv, env); the first is the one called.
    def system(self, key, upstreams):
        if key == "direct":
            return [{"stdio": argv} for argv, _ in upstreams.values()], None
        if key == "relay" or key.startswith("relay-copy-"):
            return [{"stdio": [self.relay, *argv]} for argv, _ in upstreams.values()], None
        if key.startswith("busy-"):
            busy = ["--busy-ns", key.removeprefix("busy-")]
            return [{"stdio": [self.relay, *busy, *argv]} for argv, _ in upstreams.values()], None
        if key == "parse":
            return [{"stdio": [self.relay, "--parse", *argv]} for argv, _ in upstreams.values()], None
        if key == "disclose":
            servers = {n: {"command": a[0], "args": a[1:], "env": e, "approval": "never"} for n, (a, e) in upstreams.items()}
            config = self.write({"mcpServers": servers})
            return [{"stdio": [self.disclose, "mcp", "--config", config]}], f"{next(iter(upstreams))}__echo"
        failed = self.peers / key / "failed"
        if failed.exists():
            raise Unavailable(failed.read_text().strip())
        venv = self.peers / key / "venv/bin"
        mcp_json = {"mcpServers": {n: {"command": a[0], "args": a[1:], "env": e} for n, (a, e) in upstreams.items()}}
        if key == "mcp-hub":
            port = free_port()
            cli = self.peers / "node/node_modules/mcp-hub/dist/cli.js"
            # A fresh marketplace cache, so that it fetches no catalog from
            # the web at start (it does when its cache is older than 1 h).
            cache = Path(os.environ["XDG_DATA_HOME"]) / "mcp-hub/cache/registry.json"
            cache.parent.mkdir(parents=True, exist_ok=True)
            stub = {"version": "bench", "generatedAt": 0, "totalServers": 1, "servers": [{"id": "bench"}]}
            cache.write_text(json.dumps({"registry": stub, "lastFetchedAt": int(time.time() * 1000), "serverDocumentation": {}}))
            argv = [NODE, "--require", str(HERE / "bench_loopback.cjs"), str(cli), "--port", str(port), "--config", self.write(mcp_json)]

            def ready(answer):
                health = json.load(answer)
                servers = health.get("servers", [])
                return health.get("state") == "ready" and len(servers) == len(upstreams) and all(
                    s.get("status") == "connected" for s in servers
                )

            self.serve(argv, f"http://127.0.0.1:{port}/api/health", ready)
            return [{"sse": f"http://127.0.0.1:{port}/mcp"}], None
        if key == "mcp-proxy":
            port = free_port()
            argv = [str(venv / "mcp-proxy"), "--host", "127.0.0.1", "--port", str(port), "--named-server-config", self.write(mcp_json)]
            self.serve(argv, f"http://127.0.0.1:{port}/status", lambda answer: answer.status == 200)
            return [{"http": f"http://127.0.0.1:{port}/servers/{n}/mcp"} for n in upstreams], None
        if key == "mcp-gateway":
            # Its own entry holds the servers it proxies.
            config = self.write({"mcpServers": {"mcp-gateway": {"servers": mcp_json["mcpServers"]}}})
            return [{"stdio": [str(venv / "mcp-gateway"), "--mcp-json-path", config]}], None
        if key == "fastmcp":
            return [{"stdio": [str(venv / "python"), str(HERE / "bench_fastmcp_proxy.py"), self.write(mcp_json)]}], None
        if key == "magg":
            servers = {n: {"name": n, "source": "bench", "command": a[0], "args": a[1:], "env": e, "prefix": n} for n, (a, e) in upstreams.items()}
            config = self.write({"servers": servers})
            return [{"stdio": [str(venv / "magg"), "--config", config, "serve", "--no-banner"]}], None
        raise ValueError(key)

    def client(self, language, spec, timeout):
        path = self.write(spec)
        argv = [self.python, str(HERE / "bench_hop_client.py"), path]
        if language == "typescript":
            argv = [NODE, str(self.e2e / "node/bench_hop_client.mjs"), path]
        run = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=self.tmp)
        if run.returncode != 0:
            raise Unavailable(last_line_of(run.stderr))
        return json.loads(run.stdout)

    def systems(self, keys, upstreams, language, request=None):
        """The systems of `keys` that start and answer one call (or, with
        `request`, the request it gives for a system) with this client,
        and the reasons of those that do not."""
        ready, missing = [], {}
        for key in keys:
            try:
                connections, wrap = self.system(key, upstreams)
                entry = {"name": key, "connection": connections[0]}
                if request:
                    entry |= request(key)
                elif wrap:
                    entry |= {"tool": "call", "wrap": wrap}
                self.client(language, {"op": "calls", "systems": [entry], "schedule": [0, 0]}, 180)
                ready.append(entry)
            except (Unavailable, subprocess.TimeoutExpired) as e:
                if key in ("direct", "relay", "disclose"):
                    raise SystemExit(f"bench_hop: {key} does not answer a call ({language} SDK client): {e}")
                missing[key] = str(e) or "timed out"
        return ready, missing

    def rounds(self, language, keys, upstreams, request=None):
        """Each system's added latency over direct, in seconds, per round
        (its median call in the round less direct's); the direct call's
        median over rounds; the calls a system makes in a round; how many
        systems ran; and the reasons of those that did not."""
        systems, missing = self.systems(keys, upstreams, language, request)
        rng = random.Random(SEED)
        share = max(1, CALLS // ROUNDS)
        schedule = [(-1, i) for i in range(len(systems)) for _ in range(WARM)]
        rng.shuffle(schedule)
        for r in range(ROUNDS):
            block = [(r, i) for i in range(len(systems)) for _ in range(share)]
            rng.shuffle(block)
            schedule += block
        spec = {"op": "calls", "systems": systems, "schedule": [i for _, i in schedule]}
        seconds = self.client(language, spec, 60 + len(schedule))["seconds"]
        self.stop_servers()
        names = [s["name"] for s in systems]
        per = {(r, n): [] for r in range(ROUNDS) for n in names}
        for (r, i), s in zip(schedule, seconds):
            if r >= 0:
                per[(r, names[i])].append(s)
        med = {k: statistics.median(v) for k, v in per.items()}
        added = {n: [med[(r, n)] - med[(r, "direct")] for r in range(ROUNDS)] for n in names}
        direct = statistics.median(med[(r, "direct")] for r in range(ROUNDS))
        return added, direct, share, len(systems), missing

    def g1(self, language, setup, keys, upstreams, target, copies=0):
        """G1 for one client and one set-up (and G1p for the peers in it,
        and G1r for `copies` copies of the relay alive beside it)."""
        client = CLIENTS[language]
        copies = [f"relay-copy-{k}" for k in range(1, copies + 1)]
        readings = [*copies, "parse"] if copies else []
        added, direct, share, n, missing = self.rounds(language, [*keys, *readings], upstreams)

        # A system's added latency is the median of its per-round
        # differences from direct; the figure is that over the relay's.
        # (The median of per-round ratios is not used: a round where the
        # relay's few microseconds fall below the noise makes its ratio
        # unbounded; docs/decisions.md.) The per-round ratios give the
        # spread printed beside it.
        ms = lambda n: statistics.median(added[n]) * 1e3
        relay = ms("relay")

        def ratios(n):
            # A round where the relay added nothing measurable counts as
            # infinitely many relays.
            return sorted(a / b if b > 0 else float("inf") for a, b in zip(added[n], added["relay"]))

        def multiple(n, over=relay):
            return ms(n) / over if over > 0 else float("inf")

        gate = ratios("disclose")
        g = multiple("disclose")
        self.g1_figure.setdefault(language, g)
        say(
            f"G1 gateway's added latency/relay's, {client}, {setup} {fmt(g)}x (target <= {fmt(target)}x) "
            f"{'pass' if g <= target else 'short'}  [gateway {ms('disclose'):+.4f} ms, relay {relay:+.4f} ms "
            f"a call over direct {direct * 1e3:.3f} ms; per-round ratio min {fmt(gate[0])}, max {fmt(gate[-1])} over {ROUNDS} rounds "
            f"of {share} calls a system, {n} systems]"
        )
        for key in keys[3:]:
            label = PEERS[key]
            if key in missing:
                say(f"G1p {label}, {client}: not measured ({missing[key]})")
                continue
            p = ratios(key)
            v = multiple(key)
            say(
                f"G1p {label}'s added latency/relay's, {client} {fmt(v)}x (target: above the gateway's {fmt(g)}x) "
                f"{'pass' if v > g else 'short'}  [{ms(key):+.3f} ms a call; min {fmt(p[0])}, max {fmt(p[-1])}]"
            )
        for k, key in enumerate(copies, 1):
            if key in missing:
                say(f"  G1r copy {k} of the relay, {client}: not measured ({missing[key]})")
                continue
            say(
                f"  G1r copy {k} of the relay, alive beside it, {client}, {setup} {fmt(multiple(key))}x the relay "
                f"(not a target)  [{ms(key):+.4f} ms a call; the gateway's G1 over this copy {fmt(multiple('disclose', ms(key)))}x]"
            )
        if "parse" in readings:
            if "parse" in missing:
                say(f"  G1r {STAND_INS['parse']}, {client}: not measured ({missing['parse']})")
            else:
                say(
                    f"  G1r {STAND_INS['parse']}, alive beside it, {client}, {setup} {fmt(multiple('parse'))}x the relay "
                    f"(not a target)  [{ms('parse'):+.4f} ms a call; the gateway {ms('disclose') - ms('parse'):+.4f} ms over it]"
                )

    def g1_busy(self, language, setup, upstreams):
        """G1r beside G1's set-up (b): the gateway's place taken by the
        relay spinning on each read, and by the relay parsing each line."""
        client = CLIENTS[language]
        for key in [*(f"busy-{ns}" for ns in BUSY_NS), "parse"]:
            label = STAND_INS.get(key) or f"the relay spinning {int(key.removeprefix('busy-')) / 1000:g} us a read"
            added, direct, _, _, missing = self.rounds(language, ["direct", "relay", key], upstreams)
            if key in missing:
                say(f"  G1r {label}, {client}: not measured ({missing[key]})")
                continue
            relay, busy = (statistics.median(added[k]) * 1e3 for k in ("relay", key))
            say(
                f"  G1r {label} in the gateway's place, {client}, {setup} "
                f"{fmt(busy / relay) if relay > 0 else 'inf'}x the relay (not a target)  "
                f"[{busy:+.4f} ms against {relay:+.4f} ms a call over direct {direct * 1e3:.3f} ms]"
            )

    def g2(self, peers):
        upstreams = {
            "everything": (self.everything, {}),
            "fs": (self.filesystem, {}),
            "memory": (self.memory, {"MEMORY_FILE_PATH": str(self.tmp / "memory.jsonl")}),
        }
        systems, missing = [], {}
        for key in ["direct", "disclose"] + [p for p in peers if p not in ("mcp-hub", "mcp-proxy")]:
            try:
                systems.append({"name": key, "connections": self.system(key, upstreams)[0]})
            except Unavailable as e:
                missing[key] = str(e)
        try:
            seconds = self.client("python", {"op": "start", "systems": systems, "rounds": G2_ROUNDS}, 600)["seconds"]
        except Unavailable as e:
            raise SystemExit(f"bench_hop: G2: {e}")
        ratios = lambda key: sorted(a / b for a, b in zip(seconds[key], seconds["direct"]))
        med = lambda key: statistics.median(seconds[key])
        g = ratios("disclose")
        v = statistics.median(g)
        say(
            f"G2 launch to tools/list with 3 upstreams, gateway/the three started at once by the client {fmt(v)}x "
            f"(target <= 1.1x) {'pass' if v <= 1.1 else 'short'}  [gateway {med('disclose'):.3f} s, the three "
            f"{med('direct'):.3f} s; min {fmt(g[0])}, max {fmt(g[-1])} over {G2_ROUNDS} rounds, Python SDK client]"
        )
        for key in peers:
            label = PEERS[key]
            if key in ("mcp-hub", "mcp-proxy"):
                say(f"  G2p {label}: not measured (served over HTTP: its launch is not the client's)")
            elif key in missing:
                say(f"  G2p {label}: not measured ({missing[key]})")
            else:
                say(f"  G2p {label} launch to tools/list/the three's {fmt(statistics.median(ratios(key)))}x (not a target)  [{med(key):.3f} s]")

    def g7(self, language):
        """G7: prompts/get and resources/read through the gateway, as G1
        measures a call, against G1 (a)'s figure in the same run."""
        client = CLIENTS[language]
        target = self.g1_figure.get(language, float("nan"))
        upstreams = {"everything": (self.everything, {})}
        for label, request in [
            ("prompts/get", lambda key: {"prompt": "everything__simple-prompt" if key == "disclose" else "simple-prompt"}),
            ("resources/read", lambda key: {"uri": "demo://resource/dynamic/text/1"}),
        ]:
            added, direct, share, n, _ = self.rounds(language, ["direct", "relay", "disclose"], upstreams, request)
            ms = lambda k: statistics.median(added[k]) * 1e3
            relay = ms("relay")
            g = ms("disclose") / relay if relay > 0 else float("inf")
            say(
                f"G7 gateway's added latency/relay's, {label}, {client}, server-everything upstream {fmt(g)}x "
                f"(target: within G1's {fmt(target)}x for tools/call) {'pass' if g <= target else 'short'}  "
                f"[gateway {ms('disclose'):+.4f} ms, relay {relay:+.4f} ms over direct {direct * 1e3:.3f} ms; "
                f"{ROUNDS} rounds of {share} requests a system]"
            )

    def g3(self, env, label, servers=None, listed=False):
        """The gateway's peak RSS (VmHWM) over 1,000 upstream tools (or
        `servers`); with `listed`, after every prompt and resource is
        listed and one of each is got and read."""
        servers = servers or {"many": {"command": NODE, "args": self.many(1000)[1:], "approval": "never"}}
        config = self.write({"mcpServers": servers})
        p = subprocess.Popen(
            [self.disclose, "mcp", "--config", config],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(LOG, "a"), env=os.environ | env,
        )
        watchdog = threading.Timer(120, p.kill)
        watchdog.start()
        ids = iter(range(1, 100))

        def rpc(method, params):
            ident = next(ids)
            p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n").encode())
            p.stdin.flush()
            for line in p.stdout:
                if json.loads(line).get("id") == ident:
                    return
            raise SystemExit(f"bench_hop: G3: the gateway closed before answering {method}")

        try:
            rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}})
            p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
            rpc("tools/list", {})
            for query in ["find an invoice", "delete a ticket", "export the orders", "sync the repo", "search contacts by email",
                          "update a deal", "list every page", "get the event", "create an issue", "many__get_issue_0"]:
                rpc("tools/call", {"name": "describe", "arguments": {"name": query}})
            first = next(iter(servers))
            rpc("tools/call", {"name": "call", "arguments": {"name": f"{first}__get_issue_0", "args": {"id": "1"}}})
            if listed:
                rpc("prompts/list", {})
                rpc("resources/list", {})
                rpc("prompts/get", {"name": f"{first}__summarize_issue_0", "arguments": {"id": "1"}})
                rpc("resources/read", {"uri": "many://workspace/0/issues"})
            status = Path(f"/proc/{p.pid}/status").read_text()
            mib = int(next(l for l in status.splitlines() if l.startswith("VmHWM:")).split()[1]) / 1024
        finally:
            watchdog.cancel()
            p.stdin.close()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        what = label if servers else f"with 1,000 upstream tools admitted{label}"
        say(f"G3 gateway peak RSS {what} {mib:.1f} MiB (target <= 64 MiB) {'pass' if mib <= 64 else 'short'}")

    def g6(self, peers):
        upstreams = {"everything": (self.everything, {}), "many": (self.many(500), {})}
        systems, missing = [], {}
        for key in ["direct", "disclose", *peers]:
            try:
                systems.append({"name": key, "connections": self.system(key, upstreams)[0]})
            except Unavailable as e:
                missing[key] = str(e)
        try:
            answer = self.client("python", {"op": "list", "systems": systems}, 600)
        finally:
            self.stop_servers()
        size, tools = answer["bytes"], answer["tools"]
        gate = size["disclose"]
        above = all(size[k] > gate for k in peers if k in size)
        say(
            f"G6 gateway's tools/list bytes, 500 + 13 tools upstream {gate:,} B (target: below every peer's) "
            f"{'pass' if above else 'short'}  [{tools['disclose']} tools; direct {size['direct']:,} B in "
            f"{tools['direct']} tools over 2 connections]"
        )
        for key in peers:
            if key in missing:
                say(f"  G6p {PEERS[key]}: not measured ({missing[key]})")
            else:
                say(f"  G6p {PEERS[key]} tools/list bytes {size[key]:,} B (not a target)  [{tools[key]} tools]")


def last_line_of(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1][:300] if lines else "failed without a message"


def main():
    disclose, relay, echo, e2e, peers_dir = sys.argv[1:6]
    peers = os.environ.get("BENCH_MCP_PEERS", " ".join(PEERS)).split()
    languages = os.environ.get("BENCH_MCP_CLIENTS", "python typescript").split()
    with tempfile.TemporaryDirectory(prefix="bench-hop-") as tmp:
        # The peers keep their state and logs under the home directory.
        home = Path(tmp) / "home"
        home.mkdir()
        os.environ |= {"HOME": str(home), "XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config"),
                       "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
        bench = Bench(disclose, relay, echo, e2e, peers_dir, tmp)
        try:
            for language in languages:
                bench.g1(language, "every system alive, server-everything upstream", ["direct", "relay", "disclose", *peers],
                         {"everything": (bench.everything, {})}, 3, RELAY_COPIES)
                bench.g1(language, "direct, relay and gateway alone, raw echo upstream", ["direct", "relay", "disclose"],
                         {"echo": ([echo], {})}, 8)
                bench.g1_busy(language, "raw echo upstream", {"echo": ([echo], {})})
                if language == "python":
                    bench.g7(language)
            bench.g2(peers)
            bench.g3({}, "")
            bench.g3({"MIMALLOC_ARENA_EAGER_COMMIT": "0", "MIMALLOC_PURGE_DELAY": "0"},
                     ", README's lower-memory settings (for reading G3)")
            ten = {f"many{k}": {"command": NODE, "args": [*bench.many(100)[1:], "100"], "approval": "never"} for k in range(10)}
            bench.g3({}, "with 10 upstreams of 100 tools, 100 prompts and 100 resources each, every list read", ten, True)
            bench.g6(peers)
        finally:
            bench.stop_servers()


if __name__ == "__main__":
    main()
