"""A FastMCP server behind FastMCP's own in-memory OAuth provider: the
OAuth-protected upstream of tests/mcp/oauth.rs.

Usage: oauth_server.py PORT [ACCESS_SECONDS]

It serves streamable HTTP at http://127.0.0.1:PORT/mcp, with the provider's
authorization server on the same origin (RFC 9728 and RFC 8414 metadata,
dynamic registration, an authorization endpoint that approves at once and
redirects, token refresh with rotation, revocation). Access tokens live
ACCESS_SECONDS (the provider's hour by default). Its tool `note` answers
with the text it is given.

Two routes are the test's hands on the provider, not part of OAuth:
GET /test/state gives how many codes and refresh grants the provider
answered, and the tokens' count; POST /test/drop-access forgets every
access token (a server restarted without its sessions), keeping the
refresh tokens. The first line on stdout is "listening".
"""

import sys

from fastmcp import FastMCP
from fastmcp.server.auth.auth import ClientRegistrationOptions, RevocationOptions
from fastmcp.server.auth.providers import in_memory
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
    client_registration_options=ClientRegistrationOptions(enabled=True, valid_scopes=["notes"]),
    revocation_options=RevocationOptions(enabled=True),
    required_scopes=["notes"],
)
mcp = FastMCP("notes", auth=provider)


@mcp.tool
def note(text: str) -> str:
    """Keep a note and say it back."""
    return f"noted: {text}"


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
mcp.run(transport="http", host="127.0.0.1", port=port, path="/mcp", show_banner=False, log_level="warning")
