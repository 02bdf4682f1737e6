"""A browser for sign-in tests: `$BROWSER URL` opens the authorization
URL and follows every redirect, as a browser whose user approves at once
would, to the redirect listener of `disclose mcp login` (or mcp-remote).
Nothing is written to stdout; a failure is said on stderr (exit 1).
"""

import sys
import urllib.error
import urllib.request

try:
    with urllib.request.urlopen(sys.argv[1], timeout=30) as answer:
        answer.read()
except urllib.error.HTTPError as error:
    print(f"browser.py: {error.code} from {error.url}", file=sys.stderr)
    sys.exit(1)
except OSError as error:
    print(f"browser.py: {error}", file=sys.stderr)
    sys.exit(1)
