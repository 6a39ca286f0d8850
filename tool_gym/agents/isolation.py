"""A user's ``module:Class`` policy in a process of its own, which holds no env.

Inside one Python process nothing is private: code handed only ``(observation, info)`` can
still walk to the env through ``gc.get_referrers``, ``gc.get_objects`` or the caller's
frame (``sys._getframe(1).f_locals["env"]``) and read the hidden task. So ``tool-gym-evaluate``,
the Ray workers and SFT data collection run a ``module:Class`` policy through
:class:`IsolatedPolicy`: the policy is imported and built in a new interpreter that never
builds an env; ``reset`` and ``act`` send ``(observation, info)`` there as JSON lines
(copies) and bring the action back as JSON. The policy's process has the parent's
``sys.path`` and working directory, and the working directory first on its path (as
``python -m`` has it), so whatever imports in the parent, or from the directory the command
was started in, imports there without ``PYTHONPATH``.

Cost (measured on the 2-core dev machine, retail ``info`` of 19 KB): about 0.5 ms per
``act`` round trip and 0.9 s to start the process, once per policy, not per episode.
Built-in policies (``oracle``, ``random``, ``hf:``, ``openai:``) are library code and run
in the caller's process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from typing import Any

__all__ = ["IsolatedPolicy", "load_policy_isolated", "needs_isolation"]

_BUILTIN = ("oracle", "random")
_PREFIXES = ("hf:", "openai:")


def needs_isolation(spec: Any) -> bool:
    """Whether ``spec`` names a user's ``module:Class`` policy (not library code)."""
    if not isinstance(spec, str):
        return False
    spec = spec.strip()
    return spec not in _BUILTIN and not spec.startswith(_PREFIXES) and ":" in spec


def load_policy_isolated(spec: str, **kwargs: Any):
    """:func:`tool_gym.agents.policy.load_policy`, with a ``module:Class`` policy in its own
    process (:class:`IsolatedPolicy`)."""
    if needs_isolation(spec):
        return IsolatedPolicy(spec, **kwargs)
    from .policy import load_policy

    return load_policy(spec, **kwargs)


def _to_json(value: Any) -> Any:
    """An action as JSON data (a ``ToolCall`` becomes its Hermes text)."""
    to_hermes = getattr(value, "to_hermes", None)
    if callable(to_hermes) and not isinstance(value, (str, dict)):
        return to_hermes()
    if isinstance(value, (list, tuple)) and value and all(
            callable(getattr(v, "to_hermes", None)) for v in value):
        return "\n".join(v.to_hermes() for v in value)
    return value


def _child_main() -> None:
    """The policy's process: build the policy named on the first line of stdin, then
    answer one JSON line per request (``["reset"|"act", observation, info]``) until stdin
    closes. The policy's own prints go to stderr: stdout carries the answers only."""
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def answer(status: str, value: Any) -> None:
        try:
            text = json.dumps([status, value], ensure_ascii=False)
        except (TypeError, ValueError) as error:
            text = json.dumps(["error", f"the policy returned no JSON data: {error}"])
        answers.write(text + "\n")
        answers.flush()

    spec, kwargs = json.loads(sys.stdin.readline())
    try:
        from tool_gym.agents.policy import load_policy

        policy = load_policy(spec, **kwargs)
    except Exception as error:  # noqa: BLE001 - reported to the parent as one line
        answer("error", str(error))
        return
    answer("ready", type(policy).__name__)
    for line in sys.stdin:
        op, observation, info = json.loads(line)
        if op not in ("reset", "act"):
            answer("error", f"unknown operation {op!r}")
            continue
        try:
            result = getattr(policy, op)(observation, info)
        except Exception:  # noqa: BLE001 - the parent re-raises it
            answer("error", traceback.format_exc())
            continue
        answer("ok", _to_json(result))


class IsolatedPolicy:
    """A ``module:Class`` policy run in a child process (see the module docstring).

    The child is a new interpreter (``python -c``, not ``multiprocessing``: nothing of the
    parent's ``__main__`` is re-run there) with the parent's ``sys.path`` and working
    directory, the working directory first. Requests and answers are JSON lines, never pickles: the parent executes
    nothing the policy sends. Raises ``ValueError`` (the child's one-line message) when the
    spec cannot be built; an exception in the policy's ``reset`` or ``act`` comes back as
    ``RuntimeError`` with the child's traceback.
    """

    def __init__(self, spec: str, **kwargs: Any):
        self.spec = spec.strip()
        cwd = os.getcwd()
        paths = dict.fromkeys([cwd, *(p or cwd for p in sys.path)])  # in order, once each
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
        self._process: subprocess.Popen | None = subprocess.Popen(
            [sys.executable, "-c", "from tool_gym.agents.isolation import _child_main; _child_main()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
            encoding="utf-8")
        self._send([self.spec, kwargs])
        status, detail = self._receive()
        if status != "ready":
            self.close()
            raise ValueError(detail)
        self.name = detail

    def _send(self, message: Any) -> None:
        try:
            self._process.stdin.write(json.dumps(message, ensure_ascii=False, default=str)
                                      + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._died()

    def _receive(self) -> tuple[str, Any]:
        line = self._process.stdout.readline()
        if not line:
            self._died()
        status, value = json.loads(line)
        return status, value

    def _died(self):
        code = self._process.poll()
        raise RuntimeError(f"the process of policy {self.spec!r} ended (exit code {code})")

    def _call(self, op: str, observation: str, info: dict) -> Any:
        if self._process is None:
            raise RuntimeError(f"policy {self.spec!r} is closed")
        self._send([op, observation, info])
        status, result = self._receive()
        if status != "ok":
            raise RuntimeError(f"policy {self.spec!r} raised in {op}:\n{result}")
        return result

    # -- Policy API
    def reset(self, observation: str, info: dict) -> None:
        self._call("reset", observation, info)

    def act(self, observation: str, info: dict) -> Any:
        return self._call("act", observation, info)

    def close(self) -> None:
        """Stop the policy's process."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        process.stdout.close()

    def __enter__(self) -> "IsolatedPolicy":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
