"""Serve a domain's tools over the Model Context Protocol (MCP), one sandbox per session.

    python -m tool_gym.mcp retail [--db-seed 0] [--data PATH] [--idle-timeout 600]

starts a stdio MCP server (``pip install "tool_gym[mcp]"``) whose tools are the domain's
tools: ``list_tools`` gives their names, descriptions and JSON schemas; ``call_tool`` runs
one on the session's private sandbox (a copy of the domain's template database, made at
the session's first call), returning the tool's result as text, and ``isError`` for an
error result (``Error: ...``, never a protocol error). Sessions never see each other's
writes: each client connection gets its own sandbox, also when one server process serves
several connections (as over streamable HTTP, or in-process transports).

A session's sandbox is freed when its client disconnects and after ``idle_timeout``
seconds without a call (:mod:`tool_gym.mcp.sessions`), so a long-running server holds
only the sandboxes of live, active sessions. Tool calls run in worker threads
(``anyio.to_thread``), never on the event loop: a slow call delays only its own session.
Malformed requests (unknown method, missing or mistyped parameters) are answered by the
SDK with a JSON-RPC error.

The ``mcp`` SDK is imported only when a server is built. Both SDK generations are
supported: 1.x (decorator handlers, ``server.request_context``) and 2.x (handlers passed
to ``Server(...)``, a context argument).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from .sessions import DEFAULT_IDLE_TIMEOUT, SessionSandboxes, session_key

__all__ = ["DEFAULT_IDLE_TIMEOUT", "SessionSandboxes", "build_server", "serve", "session_key"]


def _tool_list(types: Any, toolbox: Any) -> list:
    return [types.Tool.model_validate({"name": t.name, "description": t.description,
                                       "inputSchema": t.parameters}) for t in toolbox]


def _result(types: Any, result: Any) -> Any:
    return types.CallToolResult.model_validate({
        "content": [{"type": "text", "text": result.content}], "isError": not result.ok})


def build_server(domain: str, db_seed: int = 0, data: str | Path | None = None,
                 idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT):
    """An MCP low-level ``Server`` for ``domain`` (its ``sandboxes`` attribute holds the
    per-session sandboxes; ``idle_timeout`` seconds, or ``None`` for never)."""
    import anyio
    from mcp import types
    from mcp.server.lowlevel import Server

    from .. import __version__
    from ..domains import get_domain

    spec = get_domain(domain)
    sandboxes = SessionSandboxes(domain, db_seed, data, idle_timeout=idle_timeout)
    name = f"tool_gym-{domain}"
    instructions = spec.policy or None

    async def call(session: Any, tool: str, arguments: Any):
        sandboxes.watch(session)  # on the loop: freed when this connection closes
        return await anyio.to_thread.run_sync(sandboxes.call, session, tool, arguments)

    if "on_list_tools" in inspect.signature(Server.__init__).parameters:  # mcp 2.x
        async def list_tools(ctx, params):
            return types.ListToolsResult(tools=_tool_list(types, spec.toolbox))

        async def call_tool(ctx, params):
            return _result(types, await call(ctx.session, params.name, params.arguments))

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
            result = await call(session, request.params.name, request.params.arguments)
            return types.ServerResult(_result(types, result))

        server.request_handlers[types.CallToolRequest] = call_tool_v1
    server.sandboxes = sandboxes
    return server


async def serve_stdio(domain: str, db_seed: int = 0, data: str | Path | None = None,
                      idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT) -> None:
    """Run the server over stdin/stdout until the client disconnects."""
    from mcp.server.stdio import stdio_server

    server = build_server(domain, db_seed, data, idle_timeout)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await run_answering_parse_errors(server, read_stream, write_stream)
    finally:
        server.sandboxes.close()


async def run_answering_parse_errors(server: Any, read_stream: Any, write_stream: Any) -> None:
    """``server.run`` over a transport's streams, answering each line the transport could
    not read as a JSON-RPC message (an ``Exception`` item, which the SDK only logs) with a
    JSON-RPC error of id ``null``: ``-32700`` (parse error) for text that is not JSON,
    ``-32600`` (invalid request) for JSON that is no JSON-RPC message."""
    import anyio
    from mcp.shared.message import SessionMessage
    from mcp.types.jsonrpc import (INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError)

    send, receive = anyio.create_memory_object_stream(0)

    async def relay() -> None:
        async with send:
            async for item in read_stream:
                if not isinstance(item, Exception):
                    await send.send(item)
                    continue
                kinds = [e.get("type") for e in getattr(item, "errors", lambda: [])()]
                code, message = (PARSE_ERROR, "Parse error") if "json_invalid" in kinds \
                    else (INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message")
                await write_stream.send(SessionMessage(JSONRPCError(
                    jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))))

    async with anyio.create_task_group() as tg:
        tg.start_soon(relay)
        await server.run(receive, write_stream, server.create_initialization_options())
        tg.cancel_scope.cancel()


def serve(domain: str, db_seed: int = 0, data: str | Path | None = None,
          idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT) -> None:
    import anyio

    anyio.run(serve_stdio, domain, db_seed, data, idle_timeout)
