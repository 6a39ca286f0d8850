"""One sandbox per MCP session, freed when the session ends or goes idle.

A session is keyed by the object that lives as long as one client connection
(:func:`session_key`). Its sandbox (a private copy of the domain's template database) is
made at its first tool call and freed:

- when the client disconnects: :meth:`SessionSandboxes.watch` registers the release on
  the connection's ``exit_stack`` (mcp 2.x), and, for any SDK, a ``weakref.finalize`` on
  the key releases it when the connection object is collected;
- after ``idle_timeout`` seconds without a call: a reaper thread (running only while
  sandboxes exist) frees idle ones. The next call of that session is answered with an
  error saying its sandbox expired (its changes are gone) and is not run; later calls run
  on a fresh copy of the template;
- at :meth:`SessionSandboxes.close` (server shutdown).

Calls are made from worker threads (the server runs them off its event loop): one
session's calls are serialized by a per-session lock, sessions run in parallel, and a
sandbox is never closed while a call on it runs (a release during a call closes it when
the call returns).
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

__all__ = ["DEFAULT_IDLE_TIMEOUT", "SessionSandboxes", "session_key"]

#: Seconds without a call after which a session's sandbox is freed.
DEFAULT_IDLE_TIMEOUT = 600.0


def session_key(session: Any) -> Any:
    """The object that lives as long as one client connection: the 1.x ``ServerSession``
    itself; in 2.x, where a ``ServerSession`` is made per request, its connection."""
    return getattr(session, "_connection", None) or session


@dataclass
class _Entry:
    ref: Callable[[], Any]  # the key (a weak reference when the key allows one)
    box: Any
    last_used: float
    busy: int = 0
    released: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


class SessionSandboxes:
    """A sandbox per session (keyed by :func:`session_key`), made on first use.

    Args:
        domain, db_seed, data: the template every sandbox copies.
        idle_timeout: seconds without a call before a session's sandbox is freed
            (``None``: never).
        clock: the time source (``time.monotonic``).
    """

    def __init__(self, domain: str, db_seed: int = 0, data: str | Path | None = None,
                 idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic):
        from ..core.sandbox import template

        if idle_timeout is not None and not idle_timeout > 0:
            raise ValueError(f"idle_timeout must be positive seconds or None, got "
                             f"{idle_timeout!r}")
        self.template = template(domain, db_seed, data)
        self.idle_timeout = idle_timeout
        self.clock = clock
        self._entries: dict[int, _Entry] = {}
        self._watched: dict[int, Callable[[], Any]] = {}
        self._expired: "weakref.WeakSet[Any]" = weakref.WeakSet()
        # Reentrant: a weakref finalizer (run by the garbage collector at any allocation,
        # possibly while this thread holds the lock) takes it too.
        self._lock = threading.RLock()
        self._reaper: threading.Thread | None = None
        self._stop = threading.Event()
        self.released = {"disconnect": 0, "idle": 0}

    # ------------------------------------------------------------------ lifetime
    def watch(self, session: Any) -> None:
        """Free ``session``'s sandbox when its connection closes. Call it from the event
        loop that serves the connection (it registers on the connection's exit stack)."""
        key = session_key(session)
        with self._lock:
            if self._same(self._watched.get(id(key)), key):
                return
            self._watched[id(key)] = _reference(key, self._forget, id(key))
        stack = getattr(key, "exit_stack", None)
        if stack is not None and callable(getattr(stack, "callback", None)):
            stack.callback(self.release, key)

    def release(self, session: Any, reason: str = "disconnect") -> bool:
        """Free ``session``'s sandbox now (if it has one); true when one was freed."""
        key = session_key(session)
        with self._lock:
            watched = self._watched.get(id(key))
            if self._same(watched, key):
                del self._watched[id(key)]
            entry = self._entries.get(id(key))
            if entry is None or not self._same(entry.ref, key):
                return False
            self._drop(id(key), entry, reason)
        return True

    def _forget(self, ident: int) -> None:
        """The key with this id was collected: free what it held."""
        with self._lock:
            self._watched.pop(ident, None)
            entry = self._entries.get(ident)
            if entry is not None and entry.ref() is None:
                self._drop(ident, entry, "disconnect")

    def _drop(self, ident: int, entry: _Entry, reason: str) -> None:
        """Remove an entry (``self._lock`` held); close its box unless a call runs on it."""
        del self._entries[ident]
        entry.released = True
        self.released[reason] = self.released.get(reason, 0) + 1
        if entry.busy == 0:
            entry.box.close()

    def reap(self) -> int:
        """Free the sandboxes idle for longer than ``idle_timeout``; how many were freed."""
        if self.idle_timeout is None:
            return 0
        now = self.clock()
        freed = 0
        with self._lock:
            for ident, entry in list(self._entries.items()):
                if entry.busy == 0 and now - entry.last_used > self.idle_timeout:
                    key = entry.ref()
                    if key is not None:
                        try:
                            self._expired.add(key)
                        except TypeError:  # a key without weak references: not flagged
                            pass
                    self._drop(ident, entry, "idle")
                    freed += 1
        return freed

    def _reap_loop(self) -> None:
        interval = max(0.005, min(self.idle_timeout / 4, 30.0))
        while not self._stop.wait(interval):
            self.reap()
            with self._lock:
                if not self._entries:
                    self._reaper = None
                    return

    def _start_reaper(self) -> None:
        """(``self._lock`` held) a reaper thread, while sandboxes exist."""
        if self.idle_timeout is None or self._reaper is not None or self._stop.is_set():
            return
        self._reaper = threading.Thread(target=self._reap_loop, name="mcp-sandbox-reaper",
                                        daemon=True)
        self._reaper.start()

    # ------------------------------------------------------------------ calls
    def call(self, session: Any, tool: str, arguments: Any = None):
        """Run one tool call on ``session``'s sandbox (made on first use); a
        :class:`~tool_gym.core.tools.ToolResult`. Blocking: call it from a worker thread."""
        from ..core.tools import ToolResult

        key = session_key(session)
        with self._lock:
            if key in self._expired:
                self._expired.discard(key)
                return ToolResult(False, f"Error: this session made no call for more than "
                                         f"{self.idle_timeout:g} s, so its sandbox was freed and "
                                         f"its changes are gone; later calls run on a fresh "
                                         f"copy of the database", str(tool)[:80], stage=0)
            entry = self._entry(key)
            entry.busy += 1
        try:
            with entry.lock:
                return entry.box.call(tool, arguments if arguments is not None else {})
        finally:
            with self._lock:
                entry.busy -= 1
                entry.last_used = self.clock()
                if entry.released and entry.busy == 0:
                    entry.box.close()

    def get(self, session: Any):
        """``session``'s sandbox (made on first use), for inspection."""
        with self._lock:
            return self._entry(session_key(session)).box

    def _entry(self, key: Any) -> _Entry:
        """(``self._lock`` held) ``key``'s entry, made on first use."""
        from ..core.sandbox import Sandbox

        entry = self._entries.get(id(key))
        if entry is None or not self._same(entry.ref, key):
            entry = _Entry(_reference(key, self._forget, id(key)), Sandbox(self.template),
                           self.clock())
            self._entries[id(key)] = entry
            self._start_reaper()
        return entry

    @staticmethod
    def _same(ref: Callable[[], Any] | None, key: Any) -> bool:
        return ref is not None and ref() is key

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def close(self) -> None:
        """Free every sandbox and stop the reaper."""
        self._stop.set()
        with self._lock:
            for ident, entry in list(self._entries.items()):
                self._drop(ident, entry, "disconnect")
            self._watched.clear()
        reaper = self._reaper
        if reaper is not None and reaper is not threading.current_thread():
            reaper.join(timeout=5)


def _reference(key: Any, on_collect: Callable[[int], None], ident: int) -> Callable[[], Any]:
    """A weak reference to ``key`` that calls ``on_collect(ident)`` when it is collected
    (a strong one when ``key`` has no weak references)."""
    try:
        weakref.finalize(key, on_collect, ident)
        return weakref.ref(key)
    except TypeError:
        return lambda: key
