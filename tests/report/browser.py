"""Headless Chromium driven over the DevTools protocol on a pipe, with the standard library only.

``chromium --remote-debugging-pipe`` reads protocol messages (JSON, each ended by a NUL
byte) on its file descriptor 3 and writes its answers and events on 4: no websocket, no
driver package. :class:`Chromium` opens one page, collects what the page logs (console
errors, uncaught exceptions, failed loads), evaluates expressions in it and takes
screenshots. ``CHROMIUM`` is the executable (Debian's ``chromium`` package), ``None``
when it is not installed.
"""

from __future__ import annotations

import base64
import fcntl
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(RuntimeError):
    """The browser answered a command with an error, or did not answer in time."""


class Chromium:
    """One headless Chromium with one page; use as a context manager."""

    def __init__(self, executable: str = CHROMIUM, width: int = 1280, height: int = 900,
                 timeout: float = 30.0):
        self.timeout = timeout
        self.width, self.height = width, height
        self.profile = tempfile.mkdtemp(prefix="tool_gym-chromium-")
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        # copies above 10 so that the child's dup2 onto 3 and 4 never collides
        reads, writes = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
                         for fd in (to_browser, from_browser))
        for fd in (to_browser, from_browser):
            os.close(fd)

        def onto_3_and_4():
            os.dup2(reads, 3)
            os.dup2(writes, 4)

        self.process = subprocess.Popen(
            [executable, "--headless", "--remote-debugging-pipe", "--no-sandbox",
             "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=onto_3_and_4, close_fds=False)
        os.close(reads)
        os.close(writes)
        self._ids = itertools.count(1)
        self._answers: dict[int, dict] = {}
        self.events: list[dict] = []
        self._lock = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.session = None
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.send("Target.attachToTarget", {
            "targetId": target["targetId"], "flatten": True}, session=False)["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    # -------------------------------------------------------------- protocol
    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                data = os.read(self._in, 1 << 20)
            except OSError:
                data = b""
            if not data:
                with self._lock:
                    self._lock.notify_all()
                return
            buffer += data
            *messages, buffer = buffer.split(b"\0")
            with self._lock:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self._answers[message["id"]] = message
                    else:
                        self.events.append(message)
                self._lock.notify_all()

    def send(self, method: str, params: dict | None = None, session: bool = True) -> dict:
        """Send one command (to the page's session unless ``session`` is false) and return
        its result."""
        number = next(self._ids)
        message = {"id": number, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while number not in self._answers:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise BrowserError(f"no answer to {method}")
                self._lock.wait(left)
            answer = self._answers.pop(number)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def wait_for_event(self, method: str, since: int = 0) -> dict:
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while True:
                for event in self.events[since:]:
                    if event.get("method") == method:
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrowserError(f"no {method} event")
                self._lock.wait(left)

    # -------------------------------------------------------------- page
    def open(self, path: str | Path, ready: str | None = None) -> None:
        """Load the file ``path`` and wait for its load event (and, with ``ready``, until
        that expression is truthy)."""
        since = len(self.events)
        self.send("Page.navigate", {"url": Path(path).absolute().as_uri()})
        self.wait_for_event("Page.loadEventFired", since)
        if ready is not None:
            self.wait_until(ready)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(details.get("exception", {}).get("description")
                               or details.get("text"))
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float | None = None):
        """Poll ``expression`` until it is truthy; return its value."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"still false: {expression}")
            time.sleep(0.05)

    def errors(self) -> list[str]:
        """What the page reported as errors: console.error/assert calls, uncaught
        exceptions and error log entries (failed loads, CSP refusals)."""
        found = []
        with self._lock:
            events = list(self.events)
        for event in events:
            params = event.get("params", {})
            if event.get("method") == "Runtime.consoleAPICalled" and \
                    params.get("type") in ("error", "assert"):
                found.append(" ".join(str(a.get("value", a.get("description", "")))
                                      for a in params.get("args", [])))
            elif event.get("method") == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                found.append(details.get("exception", {}).get("description")
                             or details.get("text", "exception"))
            elif event.get("method") == "Log.entryAdded" and \
                    params.get("entry", {}).get("level") == "error":
                found.append(params["entry"].get("text", ""))
        return found

    def screenshot(self, path: str | Path, full_page: bool = False) -> Path:
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params)["data"]
        path = Path(path)
        path.write_bytes(base64.b64decode(data))
        return path

    # -------------------------------------------------------------- lifetime
    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self.send("Browser.close", session=False)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
