"""``FunctionCallEnv``: one user request, candidate functions, one answer, BFCL's rules."""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any, Sequence

import gymnasium as gym
import numpy as np

from ..core import prove
from ..core.actions import ToolCall, parse_action
from ..core.ast_match import check, checker_mode, components, schema_validity
from ..core.rewards import RewardConfig
from ..synth.formats import CATEGORIES, NO_CALL_REPLY, FunctionTask, read_jsonl
from .episode import EpisodeRecord, OracleAccess
from .replay import ReplayPickle
from .spaces import LLMText, ToolActionSpace
from .tool_env import _shorten

#: Size of the frozen test split of synthesized tasks (``"test-0"`` .. ``"test-199"``).
TEST_SET_SIZE = 200
#: Added to ``synth_seed`` for the test split's own stream of samples.
TEST_SEED_OFFSET = 1_000_003

_NO_CALLS = (NO_CALL_REPLY, "None of these functions can help with that request.",
             "I'm sorry, I cannot do that with the functions I have.")
_BROKEN = ('<tool_call>{"name": ', '[{"name": "x", "arguments": {]', "", "f(a=__import__('os'))")


class FunctionCallActionSpace(ToolActionSpace):
    """Any text; samples are answers an LLM would give: one or more calls of the current
    task's candidate functions (Hermes blocks, a JSON list, one JSON object, or Python call
    syntax), a reply without a call, or malformed text.

    ``focus(tools)`` (done by the env on reset) makes samples use the current candidates;
    a copy of the space (as in vector envs) samples from every function it was built with.
    """

    def __init__(self, tools: Sequence[dict], values: dict[str, list] | None = None,
                 max_length: int = 100_000, seed: int | np.random.Generator | None = None):
        super().__init__(tools, values, max_length=max_length, seed=seed)
        self.all_tools = list(self.tools)

    def focus(self, tools: Sequence[dict] | None) -> None:
        self.tools = [t.get("function", t) for t in tools] if tools else list(self.all_tools)

    def _call(self) -> dict:
        rng = self.np_random
        t = self.tools[int(rng.integers(len(self.tools)))]
        parameters = t.get("parameters") or {}
        props = parameters.get("properties") or {}
        required = parameters.get("required") or []
        args = {k: self._argument(k, v or {}) for k, v in props.items()
                if k in required or rng.random() < 0.3}
        return {"name": t["name"], "arguments": args}

    def sample(self, mask=None, probability=None) -> str:
        if mask is not None or probability is not None:
            return LLMText.sample(self, mask=mask, probability=probability)
        rng = self.np_random
        roll = rng.random()
        if roll < 0.12 or not self.tools:
            return _NO_CALLS[int(rng.integers(len(_NO_CALLS)))]
        if roll < 0.18:
            return _BROKEN[int(rng.integers(len(_BROKEN)))]
        count = 1 if rng.random() < 0.6 else int(rng.integers(2, 5))
        calls = [self._call() for _ in range(count)]
        style = rng.random()
        if style < 0.4:
            return "".join(f"<tool_call>{json.dumps(c, ensure_ascii=False)}</tool_call>"
                           for c in calls)
        if style < 0.75:
            return json.dumps(calls if count > 1 or rng.random() < 0.5 else calls[0],
                              ensure_ascii=False)
        def python(c):
            body = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                             for k, v in c["arguments"].items())
            return f"{c['name']}({body})".replace("true", "True").replace("false", "False")
        return "[" + ", ".join(python(c) for c in calls) + "]"


@dataclasses.dataclass(frozen=True)
class _Answer:
    """The reference answer as one action: every call in one text."""

    calls: tuple

    def to_hermes(self) -> str:
        return "".join(call.to_hermes() for call in self.calls)


@dataclasses.dataclass(frozen=True)
class _Step:
    call: Any = None
    say: str | None = None


class AnswerKit:
    """What ``tool_gym.agents.OraclePolicy`` reads: ``plan(task)`` is one step, the reference answer
    (all calls in one action, or a reply without a call when none is right)."""

    @staticmethod
    def plan(task: FunctionTask) -> list[_Step]:
        calls = tuple(ToolCall(c["function"]["name"], json.loads(c["function"]["arguments"]))
                      for c in task.calls)
        return [_Step(call=_Answer(calls))] if calls else [_Step(say=NO_CALL_REPLY)]


def _family(category: str) -> str:
    """``live_parallel_multiple`` -> ``parallel_multiple``, ``simple_python`` -> ``simple``."""
    name = category[5:] if category.startswith("live_") else category
    return "simple" if name.startswith("simple") else name


class FunctionCallEnv(gym.Env, ReplayPickle):
    """Single-turn function calling: answer a request with the right calls, or with none.

    ## Description

    Each episode is one task: a user's request and a few candidate functions (OpenAI
    schemas in ``info["tools"]``). The agent answers once, with zero or more function
    calls. The answer is graded by BFCL's AST rules (``tool_gym.core.ast_match``): the
    names match, every required parameter is present, no unknown parameter is given, the
    types are right (an int is accepted for a float), strings are compared normalized,
    each value is among the accepted ones, and parallel calls may come in any order. The
    categories are BFCL's: ``simple`` (one function, one call), ``multiple`` (one call,
    chosen among look-alike functions), ``parallel`` (one function called several times),
    ``parallel_multiple`` (several functions, several calls) and ``irrelevance`` (no
    candidate fits: the right answer is no call). Tasks come from the staged synthesis
    (``tool_gym.synth.staged``, generated on demand and deterministically), from BFCL's own
    test data (``source="bfcl:simple_python"`` and the like, with the optional
    ``bfcl-eval`` package), or from a JSONL file of synthesized samples.

    ## Action Space

    Text (``FunctionCallActionSpace``): the model's answer. Calls may be a JSON list
    ``[{"name": ..., "arguments": {...}}]``, one JSON object, Hermes
    ``<tool_call>{json}</tool_call>`` blocks, Python call syntax ``[f(a=1), g(b=2)]``
    (literals only, never evaluated); an OpenAI assistant message dict, call dicts, lists
    of them and ``ToolCall`` objects are in the space too
    (``tool_gym.envs.spaces.is_action``). Text without a call answers "no call". ``action_space.sample()`` draws
    realistic answers over the current candidates (one or several calls, in every format),
    replies without a call and malformed text.

    ## Observation Space

    Text (``LLMText``). On reset: the user's request. After the step: the verdict
    (``"Correct."`` or ``"Incorrect: <first problem>"``).

    ## Rewards

    The one step's reward is ``tool_gym.core.rewards``' terminal reward
    ``terminal_weight x (correct + partial x q)``: ``reward="binary"`` (default) pays 1.0
    exactly when the calls match, else 0.0; ``reward="prove"`` adds ``0.5 x q`` with ``q``
    the normalized PROVE total (``tool_gym.core.prove``, the same definition and
    ``ProveRewardConfig`` as ``ToolEnv``'s) of the calls against the reference calls, so a
    correct answer earns 1.0 to 1.5 and a wrong one 0.0 to 0.5: a wrong answer never
    earns as much as a correct one. A dict gives other PROVE weights (fields of
    ``ProveRewardConfig``); a ``RewardConfig`` with ``terminal`` ``"success"`` or
    ``"prove"`` sets everything. The PROVE components are then in
    ``info["verification"]["prove"]``; BFCL-style partial scores are always in
    ``info["verification"]["components"]``. For functions that run on a domain's
    database, validity comes from running the calls on a fresh sandbox.

    ## Starting State

    A task drawn with the env's ``np_random`` (the same seed gives the same task).
    ``options={"task_id": ...}`` selects one: BFCL's ids (``"simple_python_12"``) for BFCL
    data; for synthesized tasks ``"<category>-<n>"`` (``"parallel-37"``, any n >= 0),
    ``"train-<n>"`` (any n >= 0, categories in turn) or ``"test-<n>"`` (0 <= n < 200, a
    frozen set from another seed). ``"test-<n>"`` is the n-th task of BFCL data or of a
    file, as are ``"train-<n>"`` for a file, so ``evaluate.py`` runs on every source.

    ## Episode End

    Every episode ends after its one step (terminated). ``info["verification"]`` then
    holds ``correct`` (also as ``success``), ``score`` (the graded quality in [0, 1]: 1
    when correct, else the normalized PROVE score under ``reward="prove"``, capped at
    0.99; 0 under ``"binary"``), ``errors``, ``error_type``, ``components``, the parsed
    ``calls`` and the ``reference`` answer.

    ## Info

    ``reset`` returns exactly ``info["tools"]`` (the candidate functions),
    ``info["task_id"]``, ``info["category"]``, ``info["source"]`` and, for a task with an
    earlier conversation, ``info["messages"]`` (its turns, which the agent sees). The step
    (always final) returns ``info["task_id"]``, ``info["category"]``, ``info["source"]``,
    ``info["turn"]``, ``info["tool_calls"]``, ``info["errors"]`` and
    ``info["verification"]``. The reference answer is in nothing but the final
    ``info["verification"]``.

    ## Episode record

    ``env.unwrapped.episode`` is the public record of the current episode
    (``tool_gym.envs.episode.EpisodeRecord``, as ``ToolEnv``'s): ``task_id``, ``turn``,
    ``done``, the answer's ``calls``, its text without a call (``agent_messages``), the
    ``transcript`` (request and answer), the candidate ``tools``, ``policy`` (``None``) and
    the ``task_source`` (``source``). ``oracle_access()`` (the task and the kit of its
    reference answer) and ``ground_truth()`` are privileged, for the episode loop only
    (docs/episode-record.md). ``split_size(split)`` is the number of tasks of a split.

    ## Arguments

    - ``category``: ``"all"`` or one of ``simple``, ``multiple``, ``parallel``,
      ``parallel_multiple``, ``irrelevance`` (a filter on the source's tasks).
    - ``source``: ``"synth"`` (default), ``"bfcl:<categories>"`` (comma-separated BFCL
      categories, or ``all``), a path to a JSONL file (or a folder with ``samples.jsonl``)
      written by ``python -m tool_gym.synth.staged``, or a list of ``FunctionTask``.
    - ``reward``: ``"binary"``, ``"prove"``, a dict of PROVE weights or a
      ``RewardConfig``.
    - ``split``: ``"train"`` (draws from 2**31 synthesized tasks, or ``n_tasks``) or
      ``"test"`` (draws among the 200 test tasks).
    - ``synth_seed``, ``n_tasks``, ``feedback``, ``noise``, ``domains``, ``db_seed``:
      settings of the synthesized tasks.
    - ``execute``: run calls of executable functions on a sandbox for validity.
    - ``underscore_names``: list dotted names with ``_`` in ``info["tools"]`` and expect
      them so (for APIs that forbid dots; BFCL's ``underscore_to_dot``).
    - ``max_text_length``: the bound of the text spaces.
    - ``render_mode``: ``"ansi"``: ``render()`` returns the episode as text; ``"human"``:
      ``reset`` prints the task, its functions and the request, ``step`` the answer and
      the verdict, to stdout.

    ## Pickling

    ``pickle.dumps(env)`` and ``copy.deepcopy(env)`` rebuild the env from its arguments
    and replay the episode (``tool_gym.envs.replay``): the restored env continues as the
    original. Attributes changed after construction are not kept.

    ## Version History

    - v0: initial release.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        category: str = "all",
        source: str | Sequence[FunctionTask] = "synth",
        reward: str | dict | RewardConfig = "binary",
        split: str = "train",
        synth_seed: int = 0,
        n_tasks: int | None = None,
        feedback: str = "full",
        noise: float = 0.2,
        domains: Sequence[str] | None = None,
        db_seed: int = 0,
        execute: bool = True,
        underscore_names: bool = False,
        max_text_length: int = 100_000,
        render_mode: str | None = None,
    ):
        ReplayPickle.__init__(
            self, category=category, source=source, reward=reward, split=split,
            synth_seed=synth_seed, n_tasks=n_tasks, feedback=feedback, noise=noise,
            domains=domains, db_seed=db_seed, execute=execute,
            underscore_names=underscore_names, max_text_length=max_text_length,
            render_mode=render_mode)
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        if category != "all" and category not in CATEGORIES:
            raise ValueError(f"category must be 'all' or one of {', '.join(CATEGORIES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.reward_config = self._reward_config(reward)
        self.category = category
        self.split = split
        self.kit = AnswerKit()
        self.execute = execute
        self.underscore_names = underscore_names
        self.render_mode = render_mode
        self.n_tasks = n_tasks
        self.synthesizer = None
        self.tasks: list[FunctionTask] | None = None
        if isinstance(source, str) and source == "synth":
            from ..synth.pool import cached_pool
            from ..synth.staged import StagedSynthesizer

            self.source = "synth"
            pool = cached_pool(tuple(domains) if domains else None, False, db_seed)
            self.categories = CATEGORIES if category == "all" else (category,)
            settings = dict(categories=self.categories, feedback=feedback, noise=noise)
            self.synthesizer = StagedSynthesizer(pool, seed=synth_seed, **settings)
            self.test_synthesizer = StagedSynthesizer(
                pool, seed=synth_seed + TEST_SEED_OFFSET, **settings)
            self.db_seed = db_seed
            all_tools = [t.schema for i, t in enumerate(pool.tools) if pool.usable(i)]
            values = pool.value_samples()
        else:
            self.source = source if isinstance(source, str) else "tasks"
            self.tasks = self._load(source)
            if category != "all":
                self.tasks = [t for t in self.tasks if _family(t.category) == category]
            if not self.tasks:
                raise ValueError(f"no {category!r} task in {self.source!r}")
            self._by_id = {t.id: t for t in self.tasks}
            self.db_seed = db_seed
            seen: dict[str, dict] = {}
            for t in self.tasks:
                for schema in self._tools(t):
                    seen.setdefault(schema["function"]["name"], schema)
            all_tools = list(seen.values())
            values = {}
        self._cache: OrderedDict[tuple, FunctionTask | None] = OrderedDict()
        self.action_space = FunctionCallActionSpace(all_tools, values,
                                                    max_length=max_text_length)
        self.observation_space = LLMText(max_length=max_text_length)
        self._boxes: dict[str, Any] = {}
        self.task: FunctionTask | None = None
        self._done = False
        self._answer = None
        self._shown_tools: list[dict] = []
        self.calls: list[dict] = []
        self.agent_messages: list[str] = []
        self._rendered = 0  # lines of render() printed in render_mode "human"

    @staticmethod
    def _reward_config(reward: Any) -> RewardConfig:
        """``"binary"``, ``"prove"``, a dict of PROVE weights or a ``RewardConfig``."""
        if isinstance(reward, dict):
            return RewardConfig(validity_weight=0.0, terminal="prove", shaping_cap=0.0,
                                prove=prove.ProveRewardConfig.from_dict(reward))
        if isinstance(reward, RewardConfig):
            config = reward
        elif isinstance(reward, str) and reward in ("binary", "prove"):
            config = RewardConfig.named(reward)
        else:
            raise ValueError("reward must be 'binary', 'prove', a dict of PROVE weights "
                             "(ProveRewardConfig fields) or a RewardConfig")
        if config.terminal not in ("success", "prove"):
            raise ValueError("FunctionCallEnv's RewardConfig needs terminal 'success' or "
                             "'prove'")
        return config

    # ------------------------------------------------------------------ tasks
    @staticmethod
    def _load(source: Any) -> list[FunctionTask]:
        if not isinstance(source, str):
            return [t if isinstance(t, FunctionTask) else FunctionTask.from_dict(t)
                    for t in source]
        if source.startswith("bfcl:"):
            from ..synth import bfcl

            return list(bfcl.load(source.split(":", 1)[1]))
        path = Path(source)
        if path.is_dir():
            path = path / "samples.jsonl"
        if not path.exists():
            raise ValueError(f"source must be 'synth', 'bfcl:<categories>', a JSONL path or "
                             f"a list of tasks; {source!r} is none of these")
        return [FunctionTask.from_dict(row) for row in read_jsonl(path)]

    def _tools(self, task: FunctionTask) -> list[dict]:
        tools = task.tools
        if self.underscore_names:
            for t in tools:
                t["function"]["name"] = t["function"]["name"].replace(".", "_")
        return tools

    def _synthesized(self, category: str, index: int) -> FunctionTask | None:
        key = (category, index)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        result = self.synthesizer.sample(index, category)
        task = result if isinstance(result, FunctionTask) else None  # None: discarded
        self._cache[key] = task
        if len(self._cache) > 4096:
            self._cache.popitem(last=False)
        return task

    def _split_task(self, split: str, n: int) -> FunctionTask:
        if self.synthesizer is None:
            if split == "train" and self.source.startswith("bfcl:"):
                raise ValueError("BFCL's data is a test set: use 'test-<n>' or its own ids")
            if n >= len(self.tasks):
                raise ValueError(f"{split}-{n}: {self.source!r} has {len(self.tasks)} tasks")
            return self.tasks[n]
        if split == "test" and n >= TEST_SET_SIZE:
            raise ValueError(f"test task ids go from test-0 to test-{TEST_SET_SIZE - 1}")
        key = (split, n)
        task = self._cache.get(key)
        if task is None:
            synthesizer = self.synthesizer if split == "train" else self.test_synthesizer
            category = self.categories[n % len(self.categories)]
            for salt in range(16):  # a discarded sample is drawn again, deterministically
                result = synthesizer.sample(n, category, salt=salt)
                if isinstance(result, FunctionTask):
                    task = dataclasses.replace(result, id=f"{split}-{n}")
                    break
            else:
                raise RuntimeError(f"{split}-{n}: 16 samples in a row were discarded")
            self._cache[key] = task
            if len(self._cache) > 4096:
                self._cache.popitem(last=False)
        return task

    def make_task(self, task_id: str) -> FunctionTask:
        """The task with this id (no episode started)."""
        prefix, _, number = str(task_id).rpartition("-")
        if self.synthesizer is None:
            if task_id in self._by_id:
                return self._by_id[task_id]
            if prefix in ("train", "test") and number.isdigit():
                return self._split_task(prefix, int(number))
            raise ValueError(f"no task {task_id!r} in {self.source!r}")
        if prefix in ("train", "test") and number.isdigit():
            return self._split_task(prefix, int(number))
        category, _, number = str(task_id).rpartition("-")
        if category not in self.categories or not number.isdigit():
            raise ValueError(f"task_id must look like '<category>-<n>' with a category in "
                             f"{self.categories}, got {task_id!r}")
        task = self._synthesized(category, int(number))
        if task is None:
            raise ValueError(f"synthesized task {task_id!r} was discarded; try another n")
        return task

    def _draw(self) -> FunctionTask:
        rng = self.np_random
        if self.synthesizer is None:
            return self.tasks[int(rng.integers(len(self.tasks)))]
        if self.split == "test":
            return self._split_task("test", int(rng.integers(TEST_SET_SIZE)))
        category = self.categories[int(rng.integers(len(self.categories)))]
        bound = self.n_tasks or 2**31
        index = int(rng.integers(bound))
        for step in range(64):  # discarded samples are skipped, deterministically
            task = self._synthesized(category, (index + step) % bound)
            if task is not None:
                return task
        raise RuntimeError(f"64 synthesized {category} samples in a row were discarded")

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        observation, info = self._begin(options)
        if self.render_mode == "human":
            self.render()
        return observation, info

    def _start(self, options: dict | None):
        """A new episode, drawing from ``np_random`` as it stands (``reset`` seeded it)."""
        task_id = (options or {}).get("task_id")
        self.task = self.make_task(task_id) if task_id is not None else self._draw()
        self._done = False
        self._answer = None
        self._verdict = None
        self._rendered = 0
        self.calls: list[dict] = []
        self.agent_messages: list[str] = []
        tools = self._shown_tools = self._tools(self.task)
        self.action_space.focus(tools)
        info = {"tools": tools, "task_id": self.task.id, "category": self.task.category,
                "source": self.source}
        if self.task.messages:
            info["messages"] = [dict(m) for m in self.task.messages]
        return self.task.question, info

    def _sandbox(self, domain: str):
        from ..core.sandbox import Sandbox, template

        box = self._boxes.get(domain)
        if box is None:
            box = self._boxes[domain] = Sandbox(template(domain, self.db_seed))
        else:
            box.reset()
        return box

    def _validities(self, calls: list[tuple[str, Any]]) -> tuple[list[float], list[str]]:
        """Per call: graded validity (run on a fresh sandbox where executable) and output
        (``""`` for a call that did not run)."""
        task = self.task
        validities, outputs = [], []
        fresh: set[str] = set()
        for name, arguments in calls:
            original = name
            if self.underscore_names:
                original = next((f["name"] for f in task.functions
                                 if f["name"].replace(".", "_") == name), name)
            domain = task.executable.get(original) if self.execute else None
            if domain is not None and original in {f["name"] for f in task.functions}:
                box = self._boxes.get(domain) if domain in fresh else self._sandbox(domain)
                fresh.add(domain)
                result = box.call(original, arguments)
                validities.append(result.validity)
                outputs.append(result.content)
            else:
                validities.append(schema_validity(task.functions, name, arguments,
                                                  self.underscore_names))
                outputs.append("")
        return validities, outputs

    def ground_truth(self) -> list:
        """The current task's reference calls for PROVE's reward (independent calls)."""
        from ..core.prove import GroundTruthCall

        if self.task is None:
            raise gym.error.ResetNeeded("call reset() first")
        return [GroundTruthCall(c["function"]["name"], json.loads(c["function"]["arguments"]))
                for c in self.task.calls]

    @property
    def episode(self) -> EpisodeRecord:
        """The public record of the current episode (class docstring, "Episode record")."""
        transcript = () if self.task is None else (("user", self.task.question),)
        if self._answer is not None:
            transcript += (("agent", self._answer),)
        return EpisodeRecord(
            task_id=None if self.task is None else self.task.id, turn=int(self._done),
            done=self._done, calls=tuple(dict(c) for c in self.calls),
            agent_messages=tuple(self.agent_messages), transcript=transcript,
            tools=tuple(self._shown_tools), policy=None, task_source=self.source)

    def oracle_access(self) -> OracleAccess:
        """The current task and the kit that plans its reference answer (episode loop only)."""
        if self.task is None:
            raise ValueError("no current task: reset the env first")
        return OracleAccess(self.task, self.kit)

    def split_size(self, split: str) -> int | None:
        """How many tasks ``split`` has (``None``: unbounded)."""
        if self.tasks is not None:
            return len(self.tasks)
        return TEST_SET_SIZE if split == "test" else None

    def step(self, action: Any):
        if self.task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._done:
            raise gym.error.ResetNeeded("the episode has ended; call reset()")
        task = self.task
        names = [f["name"].replace(".", "_") if self.underscore_names else f["name"]
                 for f in task.functions]
        parsed = parse_action(action, tool_names=names,
                              max_length=self.observation_space.max_length)
        calls = [(c.name, c.arguments) for c in parsed.calls] if not parsed.error else []
        mode = checker_mode(task.category)
        if parsed.error and mode not in ("irrelevance",):
            verdict_ok, errors, error_type = False, [f"unparseable answer: {parsed.error}"], \
                "parse_error"
        else:
            verdict = check(task.functions, calls, task.answers, task.category,
                            self.underscore_names)
            verdict_ok, errors, error_type = verdict.valid, verdict.errors, verdict.error_type
        parts = components(task.functions, calls, task.answers, task.category,
                           self.underscore_names)
        outputs: list[str] = []
        self.calls = []
        self.agent_messages = [parsed.message] if parsed.message else []
        if calls:
            validities, outputs = self._validities(calls)
            parts["validity"] = sum(validities) / len(validities)
            self.calls = [{"name": n, "arguments": a, "stage": round(v * 3), "ok": v == 1.0,
                           "content": o} for (n, a), v, o in zip(calls, validities, outputs)]
        if parsed.error and mode != "irrelevance":
            parts = {k: 0.0 for k in parts}
        scored = None
        if self.reward_config.terminal == "prove":
            truth = self.ground_truth()
            if self.underscore_names:  # the names as the agent was shown them
                truth = [prove.GroundTruthCall(g.name.replace(".", "_"), g.arguments, g.after)
                         for g in truth]
            scored = prove.score(self.calls, truth, self.reward_config.prove)
        reward = self.reward_config.final(bool(verdict_ok), 0.0,
                                          scored.normalized if scored else None)
        # the graded quality in [0, 1] (1 only when correct), as ToolEnv's score
        quality = 1.0 if verdict_ok else \
            (min(0.99, max(0.0, float(scored.normalized))) if scored else 0.0)
        self._done = True
        self._answer = action if isinstance(action, str) else _shorten(action)
        verification = {
            "correct": bool(verdict_ok), "success": bool(verdict_ok), "score": quality,
            "ended": "answered", "errors": list(errors), "error_type": error_type,
            "components": {k: float(v) for k, v in parts.items()},
            "calls": [{"name": n, "arguments": a} for n, a in calls],
            "reference": [dict(c) for c in task.calls],
        }
        if scored is not None:
            verification["prove"] = scored.to_dict()
        if any(outputs):
            verification["outputs"] = outputs
        self._verdict = verification
        observation = "Correct." if verdict_ok else f"Incorrect: {errors[0] if errors else ''}"
        max_len = self.observation_space.max_length
        if len(observation) > max_len:
            observation = observation[: max_len - 20] + " ...[truncated]"
        info = {"task_id": task.id, "category": task.category, "source": self.source,
                "turn": 1, "tool_calls": len(calls), "errors": int(parsed.error is not None),
                "verification": verification}
        self._record_step(action)
        if self.render_mode == "human":
            self.render()
        return observation, float(reward), True, False, info

    def render(self):
        """``"ansi"``: the episode as text. ``"human"``: print the lines not printed yet
        (``reset`` and ``step`` call it)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode")
            return None
        lines = self._lines()
        if self.render_mode == "ansi":
            return "\n".join(lines)
        for line in lines[self._rendered:]:
            print(line)
        self._rendered = len(lines)
        return None

    def _lines(self) -> list[str]:
        """The episode so far, one line per part: task, functions, request, answer, verdict."""
        if self.task is None:
            return []
        lines = [f"[task] {self.task.id} ({self.task.category})",
                 f"[functions] {', '.join(f['name'] for f in self.task.functions)}",
                 f"[user] {self.task.question}"]
        if self._answer is not None:
            lines.append(f"[agent] {self._answer[:2000]}")
            lines.append(f"[verdict] {'correct' if self._verdict['correct'] else 'incorrect'}"
                         + (f": {self._verdict['errors'][0]}" if self._verdict["errors"] else ""))
        return lines

    def close(self):
        for box in self._boxes.values():
            box.close()
        self._boxes.clear()
