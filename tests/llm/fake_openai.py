"""A local fake OpenAI-compatible server for tests: ``GET /v1/models`` and
``POST /v1/chat/completions`` on 127.0.0.1, in a thread.

``replies`` answers the chat requests: a list of ``(status, payload)`` taken in order, or a
function ``body -> (status, payload)``. A 5xx answer carries ``retry-after-ms: 1`` so the
SDK's retry comes at once. Every request is recorded (path, body, Authorization header).
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable

Reply = tuple[int, dict]


def answer(content=None, tool_calls=None, usage=None) -> Reply:
    """A 200 chat completion with this assistant message."""
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    payload = {"id": "chatcmpl-test", "object": "chat.completion", "created": 0,
               "model": "m", "choices": [{"index": 0, "message": message,
                                          "finish_reason": "stop"}]}
    if usage:
        payload["usage"] = {**usage, "total_tokens": sum(usage.values())}
    return 200, payload


def tool_call(name: str, arguments: dict, call_id: str = "call_1") -> dict:
    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeOpenAIServer:
    """Use as a context manager; ``url`` is the base URL (``http://127.0.0.1:PORT/v1``)."""

    def __init__(self, replies: list[Reply] | Callable[[dict], Reply] = (),
                 models: tuple[str, ...] = ("m",)):
        self.replies = replies if callable(replies) else list(replies)
        self.models = models
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status >= 500:
                    self.send_header("retry-after-ms", "1")
                self.end_headers()
                self.wfile.write(data)

            def _record(self, body) -> None:
                server.requests.append({"method": self.command, "path": self.path,
                                        "body": body,
                                        "auth": self.headers.get("Authorization")})

            def do_GET(self):
                self._record(None)
                if self.path.rstrip("/") != "/v1/models":
                    return self._send(404, {"error": {"message": "not found"}})
                self._send(200, {"object": "list", "data": [
                    {"id": m, "object": "model", "created": 0, "owned_by": "test"}
                    for m in server.models]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self._record(body)
                if self.path != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": "not found"}})
                reply = server.replies(body) if callable(server.replies) else \
                    server.replies.pop(0)
                self._send(*reply)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def spec(self) -> str:
        return f"openai:{self.url}#{self.models[0]}"

    def chats(self) -> list[dict]:
        return [r for r in self.requests if r["method"] == "POST"]

    def __enter__(self) -> FakeOpenAIServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
