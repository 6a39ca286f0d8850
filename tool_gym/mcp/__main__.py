"""``python -m tool_gym.mcp DOMAIN``: serve a domain's tools as a stdio MCP server."""

from __future__ import annotations

import argparse
import sys

from ..domains import domain_names
from .sessions import DEFAULT_IDLE_TIMEOUT


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tool_gym.mcp",
        description="Serve a tool_gym domain over MCP (stdio); one sandbox per session, "
                    "freed when the client disconnects or goes idle.")
    parser.add_argument("domain", choices=sorted(domain_names()))
    parser.add_argument("--db-seed", type=int, default=0, help="seed of the generated database")
    parser.add_argument("--data", default=None, help="public data to import instead")
    parser.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_TIMEOUT,
                        metavar="SECONDS",
                        help="free a session's sandbox after this many seconds without a call "
                             "(0: never; default: %(default)g)")
    args = parser.parse_args(argv)
    if args.idle_timeout < 0:
        parser.error(f"--idle-timeout must be >= 0 seconds, got {args.idle_timeout:g}")
    try:
        import mcp  # noqa: F401
    except ImportError:
        sys.exit('the MCP server needs the mcp SDK: pip install "tool_gym[mcp]"')
    from . import serve

    serve(args.domain, args.db_seed, args.data, args.idle_timeout or None)


if __name__ == "__main__":
    main()
