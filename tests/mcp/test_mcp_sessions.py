"""MCP sessions: sandboxes freed on disconnect and when idle, calls off the event loop,
JSON-RPC errors for malformed requests (SDK's in-process client and raw messages)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")

from mcp import ClientSession  # noqa: E402
from mcp.shared.memory import create_client_server_memory_streams  # noqa: E402
from mcp.shared.message import SessionMessage  # noqa: E402
from mcp.types.jsonrpc import (INVALID_PARAMS, METHOD_NOT_FOUND, JSONRPCError,  # noqa: E402
                               JSONRPCNotification, JSONRPCRequest)

from tool_gym.core.sandbox import Sandbox  # noqa: E402
from tool_gym.core.tools import ToolResult  # noqa: E402
from tool_gym.mcp import SessionSandboxes, build_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
READ = ("get_order_details", {"order_id": "#W0"})  # a read every session can make


def _is_error(result) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def _text(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def _serve(server, task_group, streams):
    task_group.start_soon(server.run, streams[0], streams[1],
                          server.create_initialization_options())


async def _wait_until(predicate, timeout: float = 20.0) -> None:
    with anyio.fail_after(timeout):
        while not predicate():
            await anyio.sleep(0.01)


def test_sandbox_freed_when_the_client_disconnects():
    server = build_server("retail")
    seen = {}

    async def scenario():
        async with create_client_server_memory_streams() as (client, srv):
            async with anyio.create_task_group() as tg:
                await _serve(server, tg, srv)
                async with ClientSession(*client) as session:
                    await session.initialize()
                    await session.call_tool(*READ)
                    seen["connected"] = len(server.sandboxes)
                await client[1].aclose()  # the client goes away: the server's read ends
                await _wait_until(lambda: len(server.sandboxes) == 0)
                seen["after"] = len(server.sandboxes)

    anyio.run(scenario)
    assert seen == {"connected": 1, "after": 0}
    assert server.sandboxes.released["disconnect"] == 1
    server.sandboxes.close()


def test_idle_session_is_freed_and_told_so_then_starts_over():
    server = build_server("retail", idle_timeout=0.05)
    out = {}

    async def scenario():
        async with create_client_server_memory_streams() as (client, srv):
            async with anyio.create_task_group() as tg:
                await _serve(server, tg, srv)
                async with ClientSession(*client) as session:
                    await session.initialize()
                    await session.call_tool(*READ)
                    out["live"] = len(server.sandboxes)
                    await _wait_until(lambda: len(server.sandboxes) == 0)  # still connected
                    expired = await session.call_tool(*READ)
                    out["expired"] = (_is_error(expired), _text(expired))
                    again = await session.call_tool("list_all_product_types", {})
                    out["again"] = (_is_error(again), len(server.sandboxes))
                tg.cancel_scope.cancel()

    anyio.run(scenario)
    assert out["live"] == 1
    assert out["expired"][0] and "freed" in out["expired"][1]
    assert out["again"] == (False, 1)
    assert server.sandboxes.released["idle"] == 1
    server.sandboxes.close()
    assert len(server.sandboxes) == 0


def test_reap_frees_only_idle_sessions_and_never_a_busy_one():
    now = [0.0]
    boxes = SessionSandboxes("retail", idle_timeout=10.0, clock=lambda: now[0])
    a, b = type("A", (), {})(), type("B", (), {})()
    boxes.call(a, *READ)
    now[0] = 8.0
    boxes.call(b, *READ)
    gate, entered = threading.Event(), threading.Event()
    original = boxes.get(b).call

    def slow(name, arguments=None):
        entered.set()
        gate.wait(timeout=20)
        return original(name, arguments)

    boxes.get(b).call = slow
    worker = threading.Thread(target=boxes.call, args=(b, *READ))
    worker.start()
    assert entered.wait(timeout=20)
    now[0] = 30.0  # both idle by the clock, but b has a call running
    boxes.reap()  # (the reaper thread may get there first: count what is left)
    assert len(boxes) == 1 and boxes.released["idle"] == 1
    gate.set()
    worker.join(timeout=20)
    now[0] = 60.0
    boxes.reap()
    assert len(boxes) == 0 and boxes.released["idle"] == 2
    boxes.close()


def test_release_during_a_call_closes_the_sandbox_after_it():
    boxes = SessionSandboxes("retail", idle_timeout=None)
    key = type("K", (), {})()
    box = boxes.get(key)
    gate, entered, results = threading.Event(), threading.Event(), []
    original = box.call

    def slow(name, arguments=None):
        entered.set()
        gate.wait(timeout=20)
        return original(name, arguments)

    box.call = slow
    worker = threading.Thread(target=lambda: results.append(boxes.call(key, *READ)))
    worker.start()
    assert entered.wait(timeout=20)
    assert boxes.release(key) and len(boxes) == 0
    gate.set()
    worker.join(timeout=20)
    assert results and results[0].content.startswith("Error:")  # ran on an open database
    with pytest.raises(Exception):
        box.db.execute("SELECT 1")  # and the sandbox was closed after it


def test_a_slow_call_does_not_block_another_session(monkeypatch):
    gate, entered = threading.Event(), threading.Event()
    original = Sandbox.call
    order = []

    def call(self, name, arguments=None):
        if name == "get_order_details" and (arguments or {}).get("order_id") == "#SLOW":
            entered.set()
            gate.wait(timeout=10)  # if calls ran on the loop, nothing else could run
            order.append("slow")
            return ToolResult(False, "Error: slow", name, stage=2)
        return original(self, name, arguments)

    monkeypatch.setattr(Sandbox, "call", call)
    server = build_server("retail")

    async def slow_client(streams):
        async with ClientSession(*streams) as session:
            await session.initialize()
            await session.call_tool("get_order_details", {"order_id": "#SLOW"})

    async def fast_client(streams):
        async with ClientSession(*streams) as session:
            await session.initialize()
            await _wait_until(entered.is_set)
            await session.call_tool(*READ)
            order.append("fast")
            gate.set()

    async def scenario():
        async with create_client_server_memory_streams() as (c1, s1), \
                create_client_server_memory_streams() as (c2, s2):
            async with anyio.create_task_group() as tg:
                await _serve(server, tg, s1)
                await _serve(server, tg, s2)
                async with anyio.create_task_group() as clients:
                    clients.start_soon(slow_client, c1)
                    clients.start_soon(fast_client, c2)
                tg.cancel_scope.cancel()

    anyio.run(scenario)
    assert order == ["fast", "slow"]
    server.sandboxes.close()


def test_malformed_requests_get_json_rpc_errors_and_the_session_goes_on():
    server = build_server("retail")
    replies = {}

    async def scenario():
        async with create_client_server_memory_streams() as (client, srv):
            read, write = client
            async with anyio.create_task_group() as tg:
                await _serve(server, tg, srv)

                async def request(rid, method, params):
                    await write.send(SessionMessage(JSONRPCRequest(
                        jsonrpc="2.0", id=rid, method=method, params=params)))
                    with anyio.fail_after(20):
                        item = await read.receive()
                    return item.message

                await request(0, "initialize", {
                    "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"}})
                await write.send(SessionMessage(JSONRPCNotification(
                    jsonrpc="2.0", method="notifications/initialized")))
                replies["no name"] = await request(1, "tools/call", {"arguments": {}})
                replies["name not text"] = await request(2, "tools/call", {"name": 5})
                replies["arguments a list"] = await request(
                    3, "tools/call", {"name": "get_order_details", "arguments": [1]})
                replies["no params"] = await request(4, "tools/call", None)
                replies["unknown method"] = await request(5, "tools/frobnicate", {})
                replies["still serving"] = await request(6, "tools/call", {
                    "name": READ[0], "arguments": READ[1]})
                tg.cancel_scope.cancel()

    anyio.run(scenario)
    for what in ("no name", "name not text", "arguments a list", "no params"):
        assert isinstance(replies[what], JSONRPCError), what
        assert replies[what].error.code == INVALID_PARAMS, what
    assert isinstance(replies["unknown method"], JSONRPCError)
    assert replies["unknown method"].error.code == METHOD_NOT_FOUND
    ok = replies["still serving"]
    assert not isinstance(ok, JSONRPCError) and ok.id == 6 and ok.result["isError"]
    server.sandboxes.close()


def test_stdio_server_answers_unreadable_lines_with_json_rpc_errors():
    lines = ["{not json", json.dumps({"jsonrpc": "2.0", "id": 3}), json.dumps({
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}})]
    done = subprocess.run(
        [sys.executable, "-m", "tool_gym.mcp", "retail", "--idle-timeout", "30"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert [r.get("id") for r in replies] == [None, None, 1], done.stderr[-2000:]
    assert [r["error"]["code"] for r in replies[:2]] == [-32700, -32600]
    assert "result" in replies[2]


def test_idle_timeout_flag_is_checked():
    done = subprocess.run([sys.executable, "-m", "tool_gym.mcp", "retail", "--idle-timeout",
                           "-1"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT))
    assert done.returncode == 2 and "--idle-timeout must be >= 0" in done.stderr
    with pytest.raises(ValueError):
        SessionSandboxes("retail", idle_timeout=0)
