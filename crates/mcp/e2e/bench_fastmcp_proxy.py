"""FastMCP's proxy (`fastmcp.server.create_proxy`) over the servers of an
mcpServers config, served over stdio: a peer of the gateway in
e2e/bench_hop.py, run with the venv of script/mcp-bench-install.

Usage: bench_fastmcp_proxy.py CONFIG.json
"""

import json
import sys

from fastmcp.server import create_proxy

with open(sys.argv[1]) as f:
    config = json.load(f)
create_proxy(config).run(show_banner=False)
