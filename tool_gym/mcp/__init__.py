"""Serve a domain's tools over the Model Context Protocol (MCP), one sandbox per session.

    python -m tool_gym.mcp retail [--db-seed 0] [--data PATH]

starts a stdio MCP server (``pip install "tool_gym[mcp]"``) whose tools are the domain's
tools: ``list_tools`` gives their names, descriptions and JSON schemas; ``call_tool`` runs
one on the session's private sandbox (a copy of the domain's template database, made at
the session's first call and dropped with the server), returning the tool's result as
text, and ``isError`` for an error result (``Error: ...``, never a protocol error).
Sessions never see each other's writes: each client connection (``ServerSession``) gets
its own sandbox, also when one server process serves several connections (as over
streamable HTTP, or in-process transports).

The ``mcp`` SDK is imported only when a server is built. Both SDK generations are
supported: 1.x (decorator handlers, ``server.request_context``) and 2.x (handlers passed
to ``Server(...)``, a context argument).
"""

from __future__ import annotations

import inspect
import threading
from pathlib import Path
from typing import Any

__all__ = ["SessionSandboxes", "build_server", "serve", "session_key"]


def session_key(session: Any) -> Any:
    """The object that lives as long as one client connection: the 1.x ``ServerSession``
    itself; in 2.x, where a ``ServerSession`` is made per request, its connection."""
    return getattr(session, "_connection", None) or session


class SessionSandboxes:
    """A sandbox per session (keyed by :func:`session_key`, created on first use)."""

    def __init__(self, domain: str, db_seed: int = 0, data: str | Path | None = None):
        from ..core.sandbox import template

        self.template = template(domain, db_seed, data)
        self._boxes: dict[int, tuple[Any, Any]] = {}
        self._lock = threading.Lock()

    def get(self, session: Any):
        from ..core.sandbox import Sandbox

        session = session_key(session)
        with self._lock:
            entry = self._boxes.get(id(session))
            if entry is None or entry[0] is not session:
                entry = (session, Sandbox(self.template))
                self._boxes[id(session)] = entry
            return entry[1]

    def __len__(self) -> int:
        return len(self._boxes)

    def close(self) -> None:
        with self._lock:
            for _, box in self._boxes.values():
                box.close()
            self._boxes.clear()


def _tool_list(types: Any, toolbox: Any) -> list:
    return [types.Tool.model_validate({"name": t.name, "description": t.description,
                                       "inputSchema": t.parameters}) for t in toolbox]


def _result(types: Any, result: Any) -> Any:
    return types.CallToolResult.model_validate({
        "content": [{"type": "text", "text": result.content}], "isError": not result.ok})


def build_server(domain: str, db_seed: int = 0, data: str | Path | None = None):
    """An MCP low-level ``Server`` for ``domain`` (its ``sandboxes`` attribute holds the
    per-session sandboxes)."""
    from mcp import types
    from mcp.server.lowlevel import Server

    from .. import __version__
    from ..core.domain import get_domain

    spec = get_domain(domain)
    sandboxes = SessionSandboxes(domain, db_seed, data)
    name = f"tool_gym-{domain}"
    instructions = spec.policy or None

    def call(session: Any, tool: str, arguments: Any):
        box = sandboxes.get(session)
        return box.call(tool, arguments if arguments is not None else {})

    if "on_list_tools" in inspect.signature(Server.__init__).parameters:  # mcp 2.x
        async def list_tools(ctx, params):
            return types.ListToolsResult(tools=_tool_list(types, spec.toolbox))

        async def call_tool(ctx, params):
            return _result(types, call(ctx.session, params.name, params.arguments))

        server = Server(name, version=__version__, instructions=instructions,
                        on_list_tools=list_tools, on_call_tool=call_tool)
    else:  # mcp 1.x
        server = Server(name, version=__version__, instructions=instructions)

        @server.list_tools()
        async def list_tools_v1():
            return _tool_list(types, spec.toolbox)

        # A handler registered directly (not through @server.call_tool) so that the
        # result keeps isError and no input validation is added on top of the toolbox's.
        async def call_tool_v1(request):
            session = server.request_context.session
            result = call(session, request.params.name, request.params.arguments)
            return types.ServerResult(_result(types, result))

        server.request_handlers[types.CallToolRequest] = call_tool_v1
    server.sandboxes = sandboxes
    return server


async def serve_stdio(domain: str, db_seed: int = 0, data: str | Path | None = None) -> None:
    """Run the server over stdin/stdout until the client disconnects."""
    from mcp.server.stdio import stdio_server

    server = build_server(domain, db_seed, data)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        server.sandboxes.close()


def serve(domain: str, db_seed: int = 0, data: str | Path | None = None) -> None:
    import anyio

    anyio.run(serve_stdio, domain, db_seed, data)
