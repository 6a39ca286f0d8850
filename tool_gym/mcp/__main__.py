"""``python -m tool_gym.mcp DOMAIN``: serve a domain's tools as a stdio MCP server."""

from __future__ import annotations

import argparse
import sys

from ..core.domain import DOMAINS


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tool_gym.mcp",
        description="Serve a tool_gym domain over MCP (stdio); one sandbox per session.")
    parser.add_argument("domain", choices=sorted(DOMAINS))
    parser.add_argument("--db-seed", type=int, default=0, help="seed of the generated database")
    parser.add_argument("--data", default=None, help="public data to import instead")
    args = parser.parse_args(argv)
    try:
        import mcp  # noqa: F401
    except ImportError:
        sys.exit('the MCP server needs the mcp SDK: pip install "tool_gym[mcp]"')
    from . import serve

    serve(args.domain, args.db_seed, args.data)


if __name__ == "__main__":
    main()
