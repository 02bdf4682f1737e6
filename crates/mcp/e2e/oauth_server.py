"""A FastMCP server behind FastMCP's own in-memory OAuth provider: the
OAuth-protected upstream of tests/mcp/oauth.rs.

Usage: oauth_server.py PORT [ACCESS_SECONDS]

It serves streamable HTTP at http://127.0.0.1:PORT/mcp, with the provider's
authorization server on the same origin (RFC 9728 and RFC 8414 metadata,
dynamic registration, an authorization endpoint that approves at once and
redirects, token refresh with rotation, revocation). Access tokens live
ACCESS_SECONDS (the provider's hour by default). Its tool `note` answers
with the text it is given; its tool `archive` needs the scope
`notes:admin` besides: a token without it gets 403 `insufficient_scope`
naming both (RFC 6750 §3.1), as the MCP SDK's bearer middleware answers a
missing required scope, so a client must sign in again for more (a
step-up).

Two routes are the test's hands on the provider, not part of OAuth:
GET /test/state gives how many codes and refresh grants the provider
answered, and the tokens' count; POST /test/drop-access forgets every
access token (a server restarted without its sessions), keeping the
refresh tokens. The first line on stdout is "listening".
"""

import json
import sys

from fastmcp import FastMCP
from fastmcp.server.auth.auth import ClientRegistrationOptions, RevocationOptions
from fastmcp.server.auth.providers import in_memory
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse

port = int(sys.argv[1])
if len(sys.argv) > 2:
    in_memory.DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS = int(sys.argv[2])

counts = {"codes": 0, "refreshes": 0}


class Provider(in_memory.InMemoryOAuthProvider):
    async def exchange_authorization_code(self, client, authorization_code):
        counts["codes"] += 1
        return await super().exchange_authorization_code(client, authorization_code)

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        counts["refreshes"] += 1
        return await super().exchange_refresh_token(client, refresh_token, scopes)


base = f"http://127.0.0.1:{port}"
provider = Provider(
    base_url=base,
    client_registration_options=ClientRegistrationOptions(enabled=True, valid_scopes=["notes", "notes:admin"]),
    revocation_options=RevocationOptions(enabled=True),
    required_scopes=["notes"],
)
mcp = FastMCP("notes", auth=provider)


@mcp.tool
def note(text: str) -> str:
    """Keep a note and say it back."""
    return f"noted: {text}"


@mcp.tool
def archive(text: str) -> str:
    """Archive a note (needs the scope notes:admin)."""
    return f"archived: {text}"


class StepUp:
    """tools/call `archive` with a token that lacks `notes:admin`: 403."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/mcp":
            return await self.app(scope, receive, send)
        messages, body, more = [], b"", True
        while more:
            message = await receive()
            messages.append(message)
            body += message.get("body", b"")
            more = message.get("more_body", False)
        try:
            request = json.loads(body)
        except ValueError:
            request = None
        if isinstance(request, dict) and request.get("method") == "tools/call" and (request.get("params") or {}).get("name") == "archive":
            header = dict(scope["headers"]).get(b"authorization", b"").decode()
            token = provider.access_tokens.get(header.removeprefix("Bearer "))
            if token is not None and "notes:admin" not in token.scopes:
                challenge = f'Bearer error="insufficient_scope", scope="notes notes:admin", resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"'
                await send({"type": "http.response.start", "status": 403, "headers": [(b"www-authenticate", challenge.encode()), (b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": b'{"error": "insufficient_scope"}'})
                return

        async def replay():
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


@mcp.custom_route("/test/state", methods=["GET"])
async def state(request: Request) -> JSONResponse:
    return JSONResponse(
        {**counts, "access_tokens": len(provider.access_tokens), "refresh_tokens": len(provider.refresh_tokens)}
    )


@mcp.custom_route("/test/drop-access", methods=["POST"])
async def drop_access(request: Request) -> JSONResponse:
    provider.access_tokens.clear()
    return JSONResponse({"dropped": True})


print("listening", flush=True)
mcp.run(
    transport="http",
    host="127.0.0.1",
    port=port,
    path="/mcp",
    show_banner=False,
    log_level="warning",
    middleware=[Middleware(StepUp)],
)
