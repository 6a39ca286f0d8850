"""tau2-bench's own retail and airline tasks as hidden intents (``task_source="tau2"``).

Each tau2 task becomes a :class:`~tool_gym.core.task_model.Task` for the scripted user:

- the user is the one the gold actions authenticate; it knows exactly the identity fields
  that tau2's ``known_info`` states (its name, zip code, email, user id), and says it does
  not know what ``unknown_info`` names;
- its needs are the task's gold writes that change the database (one ``tau2_write`` need
  each, with the domain's :class:`~tool_gym.tau2.words.WriteWords`: the user confirms a
  proposal only when it names that write's action, entity and arguments), then one
  ``tau2_inform`` need per ``communicate_info`` string (a grounded answer,
  :mod:`tool_gym.core.grounding`), and, for a task with neither, what ends it well: a
  ``tau2_transfer`` when the gold transfers to a human, else a ``tau2_refuse``
  (an earned refusal, after reading what the gold reads);
- the opening is the task's ``reason_for_call`` in the first person
  (:mod:`tool_gym.tau2.phrasing`).

Verification (:meth:`Tau2TaskKit.verify`) follows tau2's rule where it is deterministic:
``db_match`` (:mod:`tool_gym.tau2.outcome`), ``communicate_info`` (each string grounded)
and the tau2 reward they give over the task's ``reward_basis``; ``NL_ASSERTION`` is not
judged (``nl_assertions_unchecked``). ``success`` asks for that reward, for every need
(so a task with no gold write and nothing to tell is not won by a policy that does
nothing, which tau2's rule alone allows) and for the rules that code checks in every
domain (no write before authentication or without the user's explicit yes, no redundant
write; :mod:`tool_gym.core.verify`): a policy that writes everything it can without asking
does not win a task whose gold it happens to cover.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..core import grounding
from ..core.actions import ToolCall
from ..core.proposals import Verdict, asks_approval, judge, need_texts
from ..core.sandbox import Sandbox, Template
from ..core.task_model import Constraint, Description, PlanStep, Refusal, Task, TaskKit
from ..core.tools import Category
from ..core.users import READ_LIMIT, ScriptedUser, intent_of
from ..core.verify import (PolicyMonitor, Verification, authenticated_user, constraint_result,
                           find_redundant, redundant_list)
from ..domains import get_domain
from . import outcome
from .phrasing import customer_sentences, first_person
from .source import Tau2Files, load_tasks, split_ids

__all__ = ["Tau2TaskKit", "Tau2User", "Tau2Verification"]

TRANSFER_TOOL = "transfer_to_human_agents"
_AUTH_TOOLS = {"retail": ("find_user_id_by_email", "find_user_id_by_name_zip"),
               "airline": ("get_user_details",)}
_IDENTITY_FIELDS = ("first_name", "last_name", "zip", "email", "user_id")
#: The read that shows a record, by the argument that names it.
_DETAIL_READS = {"order_id": "get_order_details", "reservation_id": "get_reservation_details",
                 "user_id": "get_user_details"}
_USER_ID = re.compile(r"\b[a-z]+_[a-z]+_\d{4}\b")


_SHARED: dict = {}
_SHARED_LOCK = threading.Lock()


def _reads_of(records, done: set) -> list[PlanStep]:
    """Plan steps reading each ``(detail read, id)`` record not in ``done``."""
    argument = {tool: key for key, tool in _DETAIL_READS.items()}
    return [PlanStep(call=ToolCall(tool, {argument[tool]: record}))
            for tool, record in records if (tool, str(record)) not in done]


def _words_module(domain: str):
    if domain == "retail":
        from . import retail
        return retail
    from . import airline
    return airline


def _known(value: Any, text: str) -> bool:
    """Whether ``text`` states ``value`` (case-insensitive; ``_`` and ``.`` separate words,
    so ``mei_kovacs_8020`` states the name Mei Kovacs)."""
    if value in (None, ""):
        return False
    pattern = r"(?<![A-Za-z0-9])" + re.escape(str(value)) + r"(?![A-Za-z0-9])"
    return re.search(pattern, text, re.IGNORECASE) is not None


@dataclass
class Tau2Verification(Verification):
    """The core verification plus tau2's parts (``info["verification"]["tau2"]``)."""

    tau2: dict | None = None


class Tau2TaskKit(TaskKit):
    """The task kit of one domain's tau2 task set (see the module docstring)."""

    constraint_types = ("tau2_write", "tau2_inform", "tau2_transfer", "tau2_refuse")

    def __init__(self, domain: str, files: Tau2Files, template: Template):
        self.domain = domain
        self.files = files
        self.template = template
        self.base = get_domain(domain).tasks
        self.auth_tools = _AUTH_TOOLS[domain]
        self.identity_asks = self.base.identity_asks
        self.raw = {t["id"]: t for t in load_tasks(files)}
        self._tasks: dict[str, Task] = {}
        self._gold: dict[str, outcome.GoldOutcome] = {}
        self._texts: dict = {}
        # No domain policy checks (``policy_violations``) here: tau2's gold is the policy
        # (its gold writes include some that this project's airline rules would flag), and a
        # write the gold does not make already fails db_match.

    @classmethod
    def shared(cls, domain: str, files: Tau2Files, template: Template) -> "Tau2TaskKit":
        """One kit per (files as they are now, template): the envs of a process (a vector
        env's copies, an evaluation's restarts) share its tasks and gold replays."""
        stamp = tuple(p.stat().st_mtime_ns if p is not None and p.exists() else None
                      for p in (files.db, files.tasks, files.split))
        key = (domain, files, stamp, template.key)
        with _SHARED_LOCK:
            kit = _SHARED.get(key)
            if kit is None:
                kit = _SHARED[key] = cls(domain, files, template)
        return kit

    # ------------------------------------------------------------------ the task set
    def ids(self, split: str) -> list[str]:
        return split_ids(self.files, list(self.raw.values()), split)

    def split_of(self, user_id: str) -> str:
        return "all"

    def gold(self, task_id: str) -> outcome.GoldOutcome:
        if task_id not in self._gold:
            actions = self.raw[task_id]["evaluation_criteria"].get("actions") or []
            self._gold[task_id] = outcome.replay_gold(self.template, actions)
        return self._gold[task_id]

    def sample(self, db: sqlite3.Connection, rng: np.random.Generator, split: str,
               config: Any, task_id: str) -> Task:
        return self.task(task_id)

    def task(self, task_id: str) -> Task:
        """The hidden intent of tau2's task ``task_id`` (built once)."""
        task_id = str(task_id)
        if task_id not in self.raw:
            raise ValueError(f"no tau2 {self.domain} task {task_id!r} in {self.files.tasks}")
        if task_id not in self._tasks:
            self._tasks[task_id] = self._build(task_id)
        return self._tasks[task_id]

    # ------------------------------------------------------------------ building
    def _user_id(self, raw: dict, gold: outcome.GoldOutcome) -> str:
        for name, arguments, ok, content in gold.results:
            if ok and name in self.auth_tools:
                return authenticated_user(content)
        db = self.template.reader()
        for name, arguments, ok, content in gold.results:
            if isinstance(arguments.get("user_id"), str):
                return arguments["user_id"]
            owner = self.base.owner(db, name, arguments)
            if owner is not None:
                return owner
        instructions = raw["user_scenario"]["instructions"]
        known = str(instructions.get("known_info") or "") if isinstance(instructions, dict) \
            else str(instructions)
        found = _USER_ID.search(known)
        if found:
            return found.group(0)
        # the user the known info describes: by email, or by full name (and zip if given)
        for user_id, first, last, email, zip_code in db.execute(
                "SELECT user_id, first_name, last_name, email, zip FROM users ORDER BY rowid"):
            if _known(email, known) or (_known(first, known) and _known(last, known)
                                        and (_known(zip_code, known)
                                             or not re.search(r"\b\d{5}\b", known))):
                return user_id
        raise ValueError(f"tau2 task {raw['id']}: no user found in its gold actions or its "
                         f"known info")

    def _identity(self, db: sqlite3.Connection, user_id: str, known: str) -> Description:
        row = db.execute("SELECT first_name, last_name, email, zip FROM users "
                         "WHERE user_id = ?", (user_id,)).fetchone()
        values = dict(zip(("first_name", "last_name", "email", "zip"), row or ()))
        values["user_id"] = user_id
        fields = {k: values[k] for k in _IDENTITY_FIELDS if _known(values.get(k), known)}
        if "first_name" in fields and "last_name" not in fields:
            del fields["first_name"]
        if "last_name" in fields and "first_name" not in fields:
            del fields["last_name"]
        return Description("user", known.strip(), fields, user_id)

    def _read_records(self, gold: outcome.GoldOutcome, user_id: str) -> tuple:
        """``(tool, id)`` of what the gold reads name (the user's own record included)."""
        toolbox = self.template.domain.toolbox
        records = []
        for name, arguments, ok, _ in gold.results:
            if not ok or name not in toolbox or toolbox[name].category is Category.WRITE:
                continue
            entities = toolbox[name].input_entities
            for key in entities or ():
                value = arguments.get(key)
                if isinstance(value, str):
                    records.append((name, value))
        return tuple(dict.fromkeys(records))

    def record_before(self, constraint: Constraint) -> list[str]:
        """The records a write need changes, as a read showed them at the start: a proposal
        may name their ids (an exchange's old items, a flight change's current flights)."""
        key = ("before", id(constraint))
        if key not in self._texts:
            texts = []
            with Sandbox(self.template) as box:
                for name, tool in _DETAIL_READS.items():
                    value = constraint.args.get(name)
                    if isinstance(value, str):
                        result = box.call(tool, {name: value})
                        if result.ok:
                            texts.append(result.content)
            self._texts[key] = (constraint, texts)
        return self._texts[key][1]

    def _build(self, task_id: str) -> Task:
        raw = self.raw[task_id]
        scenario = raw["user_scenario"]
        instructions = scenario["instructions"]
        if isinstance(instructions, str):
            instructions = {"reason_for_call": instructions}
        gold = self.gold(task_id)
        db = self.template.reader()
        user_id = self._user_id(raw, gold)
        said = " ".join(str(instructions.get(k) or "") for k in
                        ("reason_for_call", "known_info", "task_instructions"))
        known_ids = {m.group(0) for m in re.finditer(r"#?\w+", said)}
        identity = self._identity(db, user_id, str(instructions.get("known_info") or ""))
        words = _words_module(self.domain)
        needs: list[Constraint] = []
        for w in gold.writes:
            if not w.effective:
                continue  # rejected by the tool in tau2 too (retail 64, 105): nothing to do
            said_words = words.write_words(db, user_id, w.name, w.arguments, known_ids)
            toolbox = self.template.domain.toolbox
            first = next(iter(toolbox[w.name].input_entities), None)
            target = w.arguments.get(first) if first else None
            needs.append(Constraint(
                "tau2_write", {"gold_index": w.index, **w.arguments},
                writes=((w.name, target),), say=(said_words.request,),
                solution=(PlanStep(say=said_words.proposal, expects_confirmation=True),),
                intent=said_words.intent))
        records = self._read_records(gold, user_id)
        # a computed answer (a total, a refund) is grounded by reading what the gold reads
        # and the records its writes change
        evidence = tuple(dict.fromkeys(records + tuple(
            (_DETAIL_READS[key], w.arguments[key]) for w in gold.writes for key in
            _DETAIL_READS if isinstance(w.arguments.get(key), str) and key != "user_id")))
        for info in raw["evaluation_criteria"].get("communicate_info") or ():
            needs.append(Constraint("tau2_inform", {"info": str(info)}, answer=str(info),
                                    evidence=evidence))
        transfers = any(n == TRANSFER_TOOL for n, *_ in gold.results)
        if not needs:  # nothing to write (or only a write tau2 rejects), nothing to tell
            if transfers:
                needs.append(Constraint("tau2_transfer", {}, evidence=records))
            else:
                named = words.records_named(db, user_id, said)
                records = tuple(dict.fromkeys(records + named))
                about = tuple(dict.fromkeys(
                    form for _, r in records if r != user_id
                    for form in (r, *words.record_words(db, user_id, r)))) + \
                    words.facts_named(db, said)
                needs.append(Constraint("tau2_refuse", {}, answer="",
                                        refusal=Refusal(records, about=about)))
        persona = {"tau2": scenario, "unknown_info": instructions.get("unknown_info"),
                   "reason": customer_sentences(str(instructions.get("reason_for_call")
                                                    or ""))}
        return Task(task_id, self.domain, "all", user_id, identity, tuple(needs), persona)

    # ------------------------------------------------------------------ checking
    def _write(self, task: Task, constraint: Constraint) -> outcome.GoldWrite:
        index = constraint.args["gold_index"]
        return next(w for w in self.gold(task.id).writes if w.index == index)

    def check(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
              agent_messages: Sequence[str]) -> bool:
        if constraint.type == "tau2_write":
            return outcome.write_holds(db, self._write(task, constraint))
        if constraint.type == "tau2_inform":
            return grounding.grounded_answer(agent_messages, constraint.answer,
                                             constraint.evidence)
        if constraint.type == "tau2_refuse":  # a pasted list of records refuses nothing
            return grounding.communicated(task, constraint, [
                m for m in agent_messages if not grounding.is_dump(m)])
        return False  # a transfer ends the episode: judged by verify

    def explain(self, db: sqlite3.Connection, task: Task, constraint: Constraint,
                agent_messages: Sequence[str]) -> str | None:
        """Why :meth:`check` fails (a transfer's reason, which needs the episode's log, is
        :meth:`_transfer_gap`'s)."""
        if constraint.type == "tau2_write":
            write = self._write(task, constraint)
            arguments = json.dumps(write.arguments, sort_keys=True)[:120]
            return (f"outcome check failed: the final database does not hold gold write "
                    f"#{write.index} ({write.name} {arguments})")
        if constraint.type == "tau2_inform":
            return grounding.answer_gap(agent_messages, constraint.answer, constraint.evidence)
        if constraint.type == "tau2_refuse":
            return grounding.communication_gap(task, constraint, [
                m for m in agent_messages if not grounding.is_dump(m)])
        return "not transferred: the episode did not end in a hand-over to a human"

    def owner(self, db: sqlite3.Connection, tool: str, arguments: dict) -> str | None:
        return self.base.owner(db, tool, arguments)

    def verify(self, task: Task, db: sqlite3.Connection, agent_messages: Sequence[str],
               monitor: PolicyMonitor, ended: str,
               log: grounding.EpisodeLog) -> Tau2Verification:
        """tau2's deterministic reward and this project's verification of the episode."""
        raw = self.raw[task.id]
        criteria = raw["evaluation_criteria"]
        basis = tuple(criteria.get("reward_basis") or ("DB", "COMMUNICATE"))
        matched = outcome.db_match(db, self.gold(task.id), self.template)
        infos = [c for c in task.constraints if c.type == "tau2_inform"]
        told = [self.check(db, task, c, agent_messages) for c in infos]
        reward = 1.0
        if "DB" in basis:
            reward *= float(matched)
        if "COMMUNICATE" in basis:
            reward *= float(all(told))
        results = []
        for c in task.constraints:
            if c.type == "tau2_write":
                held = matched or outcome.write_holds(db, self._write(task, c))
            elif c.type == "tau2_transfer":
                held = self._earned_transfer(task, c, log, ended)
            else:
                held = self.check(db, task, c, agent_messages)
            result = constraint_result(self, task, c, db, agent_messages, bool(held))
            if c.type == "tau2_transfer" and not held:
                result["reason"] = self._transfer_gap(task, c, log, ended)
            results.append(result)
        satisfied = sum(r["satisfied"] for r in results)
        fraction = satisfied / len(results) if results else float(matched)
        redundant_writes = find_redundant(task, monitor.writes)
        redundant = len(redundant_writes)
        n_violations = sum(monitor.violations.values())
        penalty = max(0.0, 1.0 - 0.25 * (redundant + n_violations))
        success = reward == 1.0 and matched and satisfied == len(results) and penalty == 1.0
        nl = list(criteria.get("nl_assertions") or ())
        return Tau2Verification(
            score=fraction * penalty,
            success=bool(success), constraints=results, redundant_writes=redundant,
            violations=n_violations, violation_counts=dict(sorted(monitor.violations.items())),
            ended=ended, satisfied_fraction=fraction,
            redundant=redundant_list(redundant_writes),
            tau2={"task_id": task.id, "db_match": bool(matched),
                  "communicate_info": bool(all(told)), "reward": reward,
                  "reward_basis": list(basis),
                  "nl_assertions_unchecked": "NL_ASSERTION" in basis,
                  "rejected_gold_writes": sum(not w.ok for w in self.gold(task.id).writes),
                  "nl_assertions": nl})

    def _earned_transfer(self, task: Task, constraint: Constraint,
                         log: grounding.EpisodeLog, ended: str) -> bool:
        """The agent handed over after authenticating the task's user and reading what the
        gold reads."""
        if ended != "transfer":
            return False
        before = log.events[:-1]
        authenticated = before[-1].authenticated if before else None
        return str(authenticated) == str(task.user_id) and \
            grounding.read_records(before, constraint.evidence)

    def _transfer_gap(self, task: Task, constraint: Constraint, log: grounding.EpisodeLog,
                      ended: str) -> str:
        """Why :meth:`_earned_transfer` is false, in its order."""
        if ended != "transfer":
            return f"not transferred: the episode ended by {ended}, not a hand-over to a human"
        before = log.events[:-1]
        authenticated = before[-1].authenticated if before else None
        if str(authenticated) != str(task.user_id):
            return "not grounded: the hand-over came before the task's user was authenticated"
        return "not grounded: the hand-over came before the records the gold reads were read"

    # ------------------------------------------------------------------ the user's words
    def opening(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        greeting = ("Hi!", "Hello,", "Hi there.", "Hello!")[int(rng.integers(4))]
        return f"{greeting} {task.persona['reason']}".strip()

    def request(self, task: Task, constraint: Constraint, rng: np.random.Generator) -> str:
        if constraint.type == "tau2_write" and constraint.say:
            return constraint.say[0]
        return task.persona["reason"]

    def identify(self, task: Task, rng: np.random.Generator) -> str:
        f = task.identity.fields
        parts = []
        if "first_name" in f:
            parts.append(f"my name is {f['first_name']} {f['last_name']}")
        if "zip" in f:
            parts.append(f"my zip code is {f['zip']}")
        if "email" in f:
            parts.append(f"my email is {f['email']}")
        if "user_id" in f:
            parts.append(f"my user id is {f['user_id']}")
        text = "Sure, " + ", and ".join(parts) + "." if parts else \
            "I'm sorry, I don't have any account details at hand."
        unknown = task.persona.get("unknown_info")
        if unknown:
            text += " " + " ".join(first_person(s) for s in
                                   re.findall(r"[^.!?\n]+[.!?]*", str(unknown)) if s.strip()
                                   and re.search(r"\b(?:not|n't|never)\b", s))
        return text.strip()

    def plan(self, task: Task) -> list[PlanStep]:
        """The reference solution: identify, the gold actions in order (each effective
        write after its proposal; a write tau2 itself rejects is left out), then each
        ``communicate_info`` string, or a refusal, or the gold's transfer, last."""
        gold = self.gold(task.id)
        steps: list[PlanStep] = [PlanStep(say="Could you please tell me your name and zip "
                                              "code, or your email, or your user id, so "
                                              "that I can verify your identity?")]
        proposals = {c.args["gold_index"]: c.solution[0] for c in task.constraints
                     if c.type == "tau2_write"}
        if not any(ok and name in self.auth_tools for name, _, ok, _ in gold.results):
            steps.append(PlanStep(call=self._auth_call(task)))
        transfer = None
        for index, (name, arguments, ok, _) in enumerate(gold.results):
            call = PlanStep(call=ToolCall(name, arguments))
            if name == TRANSFER_TOOL:
                transfer = call
                continue
            if index in proposals:
                steps.append(proposals[index])
            elif any(w.index == index for w in gold.writes):
                continue  # rejected by tau2's own tool: replaying it changes nothing
            steps.append(call)
        informs = [c for c in task.constraints if c.type == "tau2_inform"]
        read = {(n, str(v)) for n, a, ok, _ in gold.results if ok for v in a.values()}
        steps.extend(_reads_of(dict.fromkeys(r for c in informs for r in c.evidence), read))
        steps.extend(PlanStep(call=call) for call in
                     self._reads_showing(task, [c.answer for c in informs]))
        for c in task.constraints:
            if c.type == "tau2_inform":
                steps.append(PlanStep(say=f"To answer your question: {c.answer}."))
            elif c.type == "tau2_refuse":
                steps.extend(_reads_of(c.refusal.records, read))
                about = c.refusal.about[0] if c.refusal.about else "your request"
                steps.append(PlanStep(say=f"I'm sorry, but I cannot do that for {about}: "
                                          f"our policy does not allow it."))
        if transfer is not None:
            steps.append(transfer)
        return steps

    def _reads_showing(self, task: Task, answers: Sequence[str]) -> list[ToolCall]:
        """Reads of the user's records whose results show the ``answers`` that no gold read
        shows (the oracle's; tau2's gold actions of some tasks read nothing)."""
        shown = " ".join(c for n, _, ok, c in self.gold(task.id).results if ok).lower()
        missing = [a for a in answers if a.lower() not in shown]
        if not missing:
            return []
        calls: list[ToolCall] = []
        with Sandbox(self.template) as box:
            queue = [ToolCall("get_user_details", {"user_id": task.user_id})]
            seen = set()
            while queue and missing:
                call = queue.pop(0)
                key = (call.name, json.dumps(call.arguments, sort_keys=True))
                if key in seen or len(seen) > 200:
                    continue
                seen.add(key)
                result = box.call(call.name, call.arguments)
                if not result.ok:
                    continue
                text = result.content.lower()
                if any(a.lower() in text for a in missing):
                    calls.append(call)
                    missing = [a for a in missing if a.lower() not in text]
                queue.extend(self._follow(result.content))
        return calls

    def _follow(self, content: str) -> list[ToolCall]:
        """Detail reads of the records a result lists (orders, reservations, products)."""
        try:
            value = json.loads(content)
        except ValueError:
            return []
        if not isinstance(value, dict):
            return []
        calls = [ToolCall("get_order_details", {"order_id": o})
                 for o in value.get("orders") or () if isinstance(o, str)]
        calls += [ToolCall("get_reservation_details", {"reservation_id": r})
                  for r in value.get("reservations") or () if isinstance(r, str)]
        calls += [ToolCall("get_product_details", {"product_id": i["product_id"]})
                  for i in value.get("items") or ()
                  if isinstance(i, dict) and isinstance(i.get("product_id"), str)]
        return calls

    def _auth_call(self, task: Task) -> ToolCall:
        """A call that authenticates the task's user from what it knows (the oracle's, when
        the gold actions hold none)."""
        f = task.identity.fields
        if self.domain == "airline":
            return ToolCall("get_user_details", {"user_id": task.user_id})
        if "email" in f:
            return ToolCall("find_user_id_by_email", {"email": f["email"]})
        row = self.template.reader().execute(
            "SELECT first_name, last_name, zip FROM users WHERE user_id = ?",
            (task.user_id,)).fetchone()
        return ToolCall("find_user_id_by_name_zip",
                        {"first_name": row[0], "last_name": row[1], "zip": row[2]})

    def scripted_user(self, task: Task, db: sqlite3.Connection, rng: np.random.Generator,
                      patience: int) -> "Tau2User":
        return Tau2User(task, self, db, rng, patience=patience)


class Tau2User(ScriptedUser):
    """The scripted user of a tau2 task: its opening already states the whole request, so
    a proposal is judged against every need not yet met (in any order), not only the
    first."""

    def respond(self, message: str, writes: Sequence[tuple[str, str, str | None]] = ()) -> str:
        """As the scripted user; a proposal made right after a write is judged at once
        (the user has the whole request in mind: it does not first restate its next
        need)."""
        text = message if isinstance(message, str) else ""
        wanted = {w for c in self.task.constraints for w in c.writes}
        if any((w[0], w[1]) not in wanted for w in writes) or self._finished \
                or not asks_approval(text[:READ_LIMIT]):
            return super().respond(message, writes)
        if self._advance():
            self._stalled = 0
        if self.current is None:
            return super().respond(message, writes)
        self.stats.turns += 1
        self.agent_messages.append(text)
        return self._judge(text[:READ_LIMIT], self.current)

    def _judge(self, message: str, need: Constraint) -> str:
        pending = [c for c in self.task.constraints[self._index:]
                   if c.type == "tau2_write" and not self._holds(c)]
        verdicts = [judge(message, intent_of(c), need_texts(c, self.task.identity)
                          + self.kit.record_before(c))
                    for c in pending if intent_of(c) is not None]
        if Verdict.YES in verdicts:
            self.stats.confirmations += 1
            self._stalled = 0
            return self._pick(["Yes, please go ahead.", "Yes, that's right. Please do it.",
                               "Yes, I confirm."])
        self.stats.declines += 1
        if Verdict.VAGUE in verdicts:
            return self._progress_or_give_up(
                "Please be specific about exactly what you will do. " + self._restatement(need))
        return self._progress_or_give_up("No, that's not what I want. " + self._restatement(need))
