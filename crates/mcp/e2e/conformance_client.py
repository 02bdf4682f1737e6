"""The client of the MCP conformance suite's OAuth scenarios: `disclose
mcp` as a user runs it, in front of the suite's server.

Usage (by the suite): conformance_client.py URL
Environment: DISCLOSE (the `disclose` binary), MCP_CONFORMANCE_SCENARIO and
MCP_CONFORMANCE_CONTEXT (set by the suite).

It writes a config with the suite's server as an HTTP entry with
`"oauth"` (the scenario's pre-registered client as `${VAR}`s; for
auth/basic-cimd, the suite's client metadata document URL), runs
`disclose mcp login` with $BROWSER set to browser.py (which follows the
authorization server's redirect back to the login's listener), then
serves the config with `disclose mcp` over stdio and calls the server's
tool through the gateway's `call` door. When the gateway says the server
needs a new sign-in (a 403 asking for more scope), it runs `login` again,
as its message says, and calls again (or, when the server was left out
at start, starts a new gateway): at most three sign-ins in all, the retry
limit a user would give up at. Exit 0 when the server's tools were listed
with the token and the call went through or was refused by the catalog
(the suite's tool has no description, which SPEC §2 does not admit).
Its lines on stderr say what it did.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import threading

SIGN_INS = 3
HERE = os.path.dirname(os.path.abspath(__file__))


def say(text):
    print(f"conformance_client: {text}", file=sys.stderr, flush=True)


class Gateway:
    """`disclose mcp` over stdio, spoken to line by line; its stderr is
    passed on and kept."""

    def __init__(self, disclose, config, tokens):
        self.process = subprocess.Popen(
            [disclose, "mcp", "--config", config, "--token-dir", tokens],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.stderr = []
        threading.Thread(target=self.relay, daemon=True).start()
        self.next = 0
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "conformance_client", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def relay(self):
        for line in self.process.stderr:
            self.stderr.append(line)
            sys.stderr.write(line)

    def said(self, text):
        return any(text in line for line in self.stderr)

    def send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def rpc(self, method, params):
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the gateway ended")
            message = json.loads(line)
            if message.get("id") == self.next:
                return message

    def call(self, name):
        answer = self.rpc("tools/call", {"name": "call", "arguments": {"name": name, "args": {}}})
        result = answer.get("result", {})
        text = "".join(block.get("text", "") for block in result.get("content", []))
        return not result.get("isError", True), text

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main():
    url = sys.argv[-1]
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    disclose = os.environ["DISCLOSE"]
    work = tempfile.mkdtemp(prefix="conformance-")
    oauth = {}
    env = dict(os.environ, BROWSER=f"{sys.executable} {os.path.join(HERE, 'browser.py')}")
    if "client_id" in context:
        env["CONFORMANCE_CLIENT_ID"] = context["client_id"]
        oauth["client_id"] = "${CONFORMANCE_CLIENT_ID}"
    if "client_secret" in context:
        env["CONFORMANCE_CLIENT_SECRET"] = context["client_secret"]
        oauth["client_secret"] = "${CONFORMANCE_CLIENT_SECRET}"
    if scenario == "auth/basic-cimd":
        oauth["client_metadata_url"] = "https://conformance-test.local/client-metadata.json"
    config = os.path.join(work, "mcp.json")
    with open(config, "w") as out:
        json.dump({"mcpServers": {"conformance": {"type": "http", "url": url, "oauth": oauth, "approval": "never"}}}, out)
    tokens = os.path.join(work, "tokens")
    os.environ.update(env)

    sign_ins = 0

    def login():
        nonlocal sign_ins
        sign_ins += 1
        say(f"sign-in {sign_ins}")
        done = subprocess.run([disclose, "mcp", "login", "conformance", "--config", config, "--token-dir", tokens, "--timeout", "20"])
        return done.returncode == 0

    if not login():
        raise SystemExit("login failed")
    while True:
        gateway = Gateway(disclose, config, tokens)
        # Its start has been said by the time initialize is answered.
        if gateway.said("conformance: left out:"):
            gateway.close()
            if not gateway.said("disclose mcp login") or sign_ins >= SIGN_INS:
                raise SystemExit("left out, and no sign-in left to try")
            if not login():
                raise SystemExit("login failed")
            continue
        break
    while True:
        ok, text = gateway.call("conformance__test-tool")
        say(f"call: {'ok' if ok else 'error'}: {text.strip()}")
        if ok or "call.unknown" in text:
            # The suite's tool has no description, which the catalog does
            # not admit (SPEC §2): listing it with the token is the most
            # the gateway does with it.
            gateway.close()
            return
        if "disclose mcp login" not in text or sign_ins >= SIGN_INS:
            gateway.close()
            raise SystemExit("the call failed")
        if not login():
            gateway.close()
            raise SystemExit("login failed")


main()
