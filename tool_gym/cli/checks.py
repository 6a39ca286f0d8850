"""Checks shared by the command lines, run before any work.

Each check raises :class:`UsageError` with a one-line message that says what to do; the
command's entry point turns it into ``<prog>: error: <message>`` on stderr and exit status
2 (:func:`usage_errors`, argparse's convention), before any run directory is created.
"""

from __future__ import annotations

import argparse
import collections.abc
import contextlib
import difflib
import importlib
import importlib.util
import inspect
import json
import os
import shutil
import sys
import tempfile
import types
import typing
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from ..envs.function_call_env import FunctionCallEnv
from ..envs.tool_env import ToolEnv

#: Extras of ``setup.cfg`` by the modules they install (``pip install "tool_gym[X]"``).
TRAIN_MODULES = ("torch", "transformers", "trl", "datasets", "accelerate")
#: What each kind of policy spec needs installed: (extra, modules).
POLICY_EXTRAS = {"hf": ("train", ("torch", "transformers")),
                 "openai": ("openai", ("openai",))}
#: Seconds to wait for an OpenAI-compatible server to answer the reachability check.
SERVER_TIMEOUT = 10.0


class UsageError(Exception):
    """A command-line mistake: its message is one line that says what to do."""

    def __str__(self) -> str:
        return " ".join(super().__str__().split())  # always one line


@contextlib.contextmanager
def usage_errors(prog: str) -> Iterator[None]:
    """Turn a :class:`UsageError` raised inside into ``prog: error: ...`` on stderr and
    ``SystemExit(2)``."""
    try:
        yield
    except UsageError as error:
        print(f"{prog}: error: {error}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


class OneLineErrors:
    """Mixin for an ``argparse.ArgumentParser``: a parse error raises :class:`UsageError`
    (one line) instead of printing the whole usage text."""

    def error(self, message: str):  # argparse's hook
        raise UsageError(message)


class ArgumentParser(OneLineErrors, argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are :class:`UsageError`."""


def put_cwd_on_path() -> None:
    """Let ``module:Class`` specs import from the current directory, as ``python -m`` does
    (a console script's ``sys.path`` starts at its own ``bin`` folder instead)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)


# ---------------------------------------------------------------------------- extras

def require_extra(extra: str, modules: Sequence[str], what: str) -> None:
    """:class:`UsageError` with the ``pip install`` line when a module of ``extra`` is
    missing (found with ``importlib.util.find_spec``: nothing is imported)."""
    missing = [name for name in modules if not _installed(name)]
    if missing:
        raise UsageError(f"{what} needs {', '.join(missing)}: pip install "
                         f"\"tool_gym[{extra}]\"")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that fails, or a module without spec
        return module in sys.modules


# ---------------------------------------------------------------------------- env

def parse_env_kwargs(text: str) -> dict:
    """The JSON object of ``--env-kwargs``."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise UsageError(f"--env-kwargs must be a JSON object: {error}") from None
    if not isinstance(value, dict):
        raise UsageError(f"--env-kwargs must be a JSON object, got {text!r}")
    return value


def check_env_id(env_id: str) -> gym.envs.registration.EnvSpec:
    """The registered spec of ``env_id`` (``module:Env-v0`` imports ``module`` first)."""
    import tool_gym

    module, sep, name = env_id.rpartition(":")
    try:
        if sep:
            importlib.import_module(module)
        return gym.spec(name)
    except ImportError as error:
        raise UsageError(f"--env {env_id!r}: cannot import module {module!r} ({error})") \
            from None
    except gym.error.Error as error:
        raise UsageError(f"--env {env_id!r}: {str(error).rstrip('.')}; the tool_gym ids are "
                         f"listed in README.md (e.g. ToolRetail-v0)") from None


def _creator(spec: gym.envs.registration.EnvSpec) -> Any:
    creator = spec.entry_point
    if isinstance(creator, str):
        creator = gym.envs.registration.load_env_creator(creator)
    return creator


def env_keywords(spec: gym.envs.registration.EnvSpec) -> set[str] | None:
    """Keyword arguments ``gym.make`` accepts for ``spec``: its entry point's parameters
    and ``gym.make``'s own; ``None`` when the entry point takes ``**kwargs``."""
    creator = _creator(spec)
    try:
        parameters = inspect.signature(creator).parameters.values()
    except (TypeError, ValueError):  # no signature to read
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    names = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    make = inspect.signature(gym.make).parameters.values()
    return names | {p.name for p in make if p.kind is p.POSITIONAL_OR_KEYWORD} - {"id"}


def check_env_kwargs(env_id: str, spec: gym.envs.registration.EnvSpec, env_kwargs: dict
                     ) -> None:
    """Every key of ``--env-kwargs`` is a parameter of the env (or of ``gym.make``)."""
    known = env_keywords(spec)
    if known is None:
        return
    for key in env_kwargs:
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=1)
            hint = f"did you mean {close[0]!r}?" if close else \
                f"use one of {', '.join(sorted(known))}"
            raise UsageError(f"--env-kwargs: {env_id} takes no {key!r}; {hint}")
    try:
        creator = _creator(spec)
        hints = typing.get_type_hints(creator.__init__ if isinstance(creator, type)
                                      else creator)
    except Exception:  # noqa: BLE001 - an env of another package: no annotations to read
        return
    for key, value in env_kwargs.items():
        if key in hints and not fits(value, hints[key]):
            raise UsageError(f"--env-kwargs: {env_id}'s {key!r} takes "
                             f"{typing_name(hints[key])}, got {json.dumps(value)}")


def fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value can be the argument annotated ``hint`` (unknown kinds pass)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is type(None) or hint is None:
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, arg) for arg in args)
    if origin is typing.Literal:
        return value in args
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    container = origin or hint
    if container in (list, tuple, set, frozenset, collections.abc.Sequence):
        if not isinstance(value, list):
            return False
        element = args[0] if args and (container is not tuple or len(args) == 2
                                       and args[1] is Ellipsis) else Any
        return all(fits(item, element) for item in value)
    if container in (dict, collections.abc.Mapping):
        return isinstance(value, dict)
    if isinstance(container, type):  # a class (a config object): never a JSON value
        return isinstance(value, container)
    return True  # Callable and other kinds: not checked here


def typing_name(hint: Any) -> str:
    """``int``, ``str | None``, ... for an error message."""
    return getattr(hint, "__name__", None) if isinstance(hint, type) else \
        str(hint).replace("typing.", "")


def check_out_dir(flag: str, path: str | os.PathLike) -> None:
    """``path`` is a directory that exists or can be made: probed with a temporary folder
    in its nearest existing parent (removed at once), so the run directory itself is not
    created before the checks pass."""
    target = Path(path).absolute()
    if target.exists() and not target.is_dir():
        raise UsageError(f"{flag} {path}: a file is there, not a directory")
    _probe(flag, path, target, "directory")


def check_out_file(flag: str, path: str | os.PathLike) -> None:
    """``path`` is a file that can be written (its folders made when missing): probed as
    :func:`check_out_dir` does, in its nearest existing parent."""
    target = Path(path).absolute()
    if target.is_dir():
        raise UsageError(f"{flag} {path}: a directory is there; give a file name")
    _probe(flag, path, target.parent, "file")


def _probe(flag: str, path: str | os.PathLike, target: Path, kind: str) -> None:
    """Make and remove a temporary folder in the nearest existing parent of ``target``."""
    parent = target
    while not parent.exists():
        parent = parent.parent
    try:
        shutil.rmtree(tempfile.mkdtemp(prefix=".tool_gym-probe-", dir=parent))
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise UsageError(f"{flag} {path}: cannot write in {parent} ({reason}); choose "
                         f"another {kind}") from None


def make_env(env_id: str, env_kwargs: dict) -> gym.Env:
    """``gym.make``, its argument errors (a bad value in ``--env-kwargs``) as one line."""
    try:
        return gym.make(env_id, **env_kwargs)
    except (ValueError, TypeError, KeyError, OSError, gym.error.Error) as error:
        raise UsageError(f"--env-kwargs: {env_id}: {error}") from None


def task_error(env: gym.Env, task_id: str) -> str | None:
    """Why ``env`` has no task ``task_id`` (looked up as its ``reset`` will, through the
    env's ``make_task``), or ``None`` when it has one or is not a tool_gym env."""
    env = env.unwrapped
    if not isinstance(env, (ToolEnv, FunctionCallEnv)):
        return None
    try:
        env.make_task(task_id)
    except (ValueError, KeyError, IndexError) as error:
        return str(error)
    return None


# ---------------------------------------------------------------------------- policies

def policy_kind(spec: str) -> str:
    """``oracle``, ``random``, ``hf``, ``openai`` or ``class`` (a ``module:Class`` spec)."""
    spec = spec.strip()
    prefix = spec.partition(":")[0]
    return spec if spec in ("oracle", "random") else \
        prefix if prefix in POLICY_EXTRAS else "class"


def check_policy(spec: str, flag: str = "--policy", api_key_env: str | None = None,
                 server_timeout: float = SERVER_TIMEOUT) -> None:
    """The spec names a policy, its extra is installed and, for ``openai:``, its server
    answers. A ``module:Class`` spec is checked for its form only: it is imported where it
    is built (in a process of its own, ``tool_gym.agents.isolation``)."""
    from tool_gym.agents.policy import check_policy_spec

    if not isinstance(spec, str) or not spec.strip():
        raise UsageError(f"{flag} must name a policy")
    kind = policy_kind(spec)
    if kind in POLICY_EXTRAS:
        extra, modules = POLICY_EXTRAS[kind]
        require_extra(extra, modules, f"{flag} {kind}:")
    try:
        check_policy_spec(spec, imports=False)
    except ValueError as error:
        raise UsageError(f"{flag}: {error}") from None
    if kind == "openai":
        check_openai_server(spec, flag, api_key_env, server_timeout)


def check_openai_server(spec: str, flag: str, api_key_env: str | None, timeout: float) -> None:
    """The server of an ``openai:URL#MODEL`` spec answers and knows the model."""
    from tool_gym.llm.openai_compat import check_server, parse_openai_spec

    key = {"api_key_env": api_key_env} if api_key_env else {}
    try:
        url, model = parse_openai_spec(spec)
        check_server(url, model, timeout=timeout, **key)
    except ValueError as error:
        raise UsageError(f"{flag}: {error}") from None


def check_user_llm(env_kwargs: dict, timeout: float = SERVER_TIMEOUT) -> None:
    """An LLM user served at ``user_llm="openai:URL#MODEL"`` has its extra and a server
    that answers (the key variable from ``user_llm_kwargs["api_key_env"]``)."""
    spec = env_kwargs.get("user_llm")
    if not (isinstance(spec, str) and spec.strip().startswith("openai:")):
        return
    flag = "--env-kwargs user_llm"
    require_extra("openai", ("openai",), f"{flag} openai:")
    options = env_kwargs.get("user_llm_kwargs")
    key = options.get("api_key_env") if isinstance(options, dict) else None
    check_openai_server(spec, flag, key, timeout)


def policy_kwargs(spec: str, temperature: float | None, max_tokens: int | None,
                  api_key_env: str | None) -> dict:
    """Constructor keyword arguments of the policy from the sampling flags (only the flags
    given); a flag the policy has no use for is a :class:`UsageError`."""
    kind = policy_kind(spec)
    given = {"--temperature": temperature, "--max-tokens": max_tokens,
             "--api-key-env": api_key_env}
    given = {flag: value for flag, value in given.items() if value is not None}
    if temperature is not None and temperature < 0:
        raise UsageError(f"--temperature must be >= 0, got {temperature}")
    if max_tokens is not None and max_tokens < 1:
        raise UsageError(f"--max-tokens must be positive, got {max_tokens}")
    names = {"openai": {"--temperature": "temperature", "--max-tokens": "max_tokens",
                        "--api-key-env": "api_key_env"},
             "hf": {"--temperature": "temperature", "--max-tokens": "max_new_tokens"},
             }.get(kind, {})
    for flag in given:
        if flag not in names:
            kinds = "openai:" if flag == "--api-key-env" else "hf: and openai:"
            raise UsageError(f"{flag} applies to {kinds} policies only, not to "
                             f"{spec.strip()!r}")
    return {names[flag]: value for flag, value in given.items()}


def positive(flag: str, value: Any) -> None:
    if value is not None and value < 1:
        raise UsageError(f"{flag} must be positive, got {value}")
