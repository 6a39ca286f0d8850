"""The MCP server: list_tools and call_tool through the SDK's own client; sessions isolated."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.shared.memory import create_client_server_memory_streams  # noqa: E402

from tool_gym.domains import get_domain  # noqa: E402
from tool_gym.core.sandbox import sandbox  # noqa: E402
from tool_gym.mcp import build_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _is_error(result) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def _text(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def _pending_order(domain: str = "retail") -> tuple[str, str]:
    """A pending order of the template and its user."""
    with sandbox(domain) as box:
        row = box.db.execute("SELECT order_id, user_id FROM orders WHERE status = 'pending' "
                             "ORDER BY rowid LIMIT 1").fetchone()
    return row[0], row[1]


def test_stdio_server_lists_and_calls_tools_and_sessions_are_isolated():
    order_id, _ = _pending_order()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tool_gym.mcp", "retail"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))

    async def scenario():
        async with stdio_client(params) as (r1, w1), ClientSession(r1, w1) as first:
            await first.initialize()
            tools = (await first.list_tools()).tools
            names = [t.name for t in tools]
            assert names == get_domain("retail").toolbox.names
            schema = next(t for t in tools if t.name == "get_order_details")
            schema = getattr(schema, "input_schema", None) or getattr(schema, "inputSchema")
            assert schema["required"] == ["order_id"]
            cancelled = await first.call_tool("cancel_pending_order",
                                              {"order_id": order_id, "reason": "no longer needed"})
            assert not _is_error(cancelled), _text(cancelled)
            assert json.loads(_text(cancelled))["status"] == "cancelled"
            again = await first.call_tool("get_order_details", {"order_id": order_id})
            assert json.loads(_text(again))["status"] == "cancelled"
            bad = await first.call_tool("get_order_details", {"order_id": "#W0"})
            assert _is_error(bad) and _text(bad).startswith("Error:")
            unknown = await first.call_tool("no_such_tool", {})
            assert _is_error(unknown)
            # a second session (another server process) does not see the first's write
            async with stdio_client(params) as (r2, w2), ClientSession(r2, w2) as second:
                await second.initialize()
                seen = await second.call_tool("get_order_details", {"order_id": order_id})
                assert json.loads(_text(seen))["status"] == "pending"

    anyio.run(scenario)


def test_one_server_keeps_a_sandbox_per_session():
    order_id, _ = _pending_order()
    server = build_server("retail")
    counts = {}

    async def client(streams, write: bool, ready: anyio.Event, done: anyio.Event):
        read, send = streams
        async with ClientSession(read, send) as session:
            await session.initialize()
            if write:
                result = await session.call_tool(
                    "cancel_pending_order", {"order_id": order_id, "reason": "ordered by mistake"})
                assert not _is_error(result), _text(result)
                ready.set()
                await done.wait()
            else:
                await ready.wait()
                seen = await session.call_tool("get_order_details", {"order_id": order_id})
                counts["both connected"] = len(server.sandboxes)
                done.set()
                return json.loads(_text(seen))["status"]

    async def scenario():
        ready, done = anyio.Event(), anyio.Event()
        statuses = {}
        async with create_client_server_memory_streams() as (c1, s1), \
                create_client_server_memory_streams() as (c2, s2):
            async with anyio.create_task_group() as tg:
                init = server.create_initialization_options()
                tg.start_soon(server.run, s1[0], s1[1], init)
                tg.start_soon(server.run, s2[0], s2[1], init)

                async def reader():
                    statuses["other"] = await client(c2, False, ready, done)

                tg.start_soon(client, c1, True, ready, done)
                await reader()
                tg.cancel_scope.cancel()
        return statuses

    statuses = anyio.run(scenario)
    assert statuses["other"] == "pending"
    assert counts["both connected"] == 2
    assert len(server.sandboxes) == 0  # both connections closed: both sandboxes freed
    server.sandboxes.close()
