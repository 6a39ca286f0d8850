"""Turn-window SFT: each assistant turn learnt first from the messages just before it.

A whole episode is mostly context around a few tokens that decide it. In a shopping-cart
episode of the tiny tokenizer the system prompt and tool schemas alone are about 870
tokens, the rest about 350, and what the model must get right are the values it copies:
the username the user typed into the login call, the id a tool returned into the next
call, the total into the answer. A model initialized a second ago learns to find those
values far faster in the few messages since its previous turn (50-250 tokens: attention
spread over a thousand tokens gives a copying head almost no gradient at first; on that
family, 700 steps from scratch leave the loss at 0.15 on windows alone and at 0.50 on the
same windows behind the prompt) and at a fraction of the cost. So before SFT on whole
episodes, the model is trained on windows:

1. ``windows``: each assistant turn with the messages since the assistant's previous
   turn, alone (no system prompt, no tools);
2. ``context``: the same windows behind the last ``r`` tokens the episode shows before
   them (the end of the system turn, earlier turns), ``r`` drawn for each step up to
   ``context_tokens``, a ``bare_fraction`` of the steps with none. For a model with
   sliding-window attention (:attr:`tool_gym.agents.tiny.TinyConfig.attention_window`)
   whose layers together see ``context_tokens`` back, this is every context the whole
   episode will show it, at a fraction of an episode's cost;
3. ``prompted``: the same windows behind the episode's system turn (policy and tool
   schemas), so that what was learnt holds behind the prompt;
4. ``episodes``: whole episodes.

What a full-attention model learns in windows does not carry over to whole episodes by
itself (after 1,100 window steps the tiny model got no turn of a held-out episode right,
not even the canned question); ``prompted`` then ``episodes`` carry it, or, with a sliding
window, ``context`` (which then needs neither).

In the last two phases the system turn is the same token prefix for every example of a
task family; it is run once per batch and its keys and values shared by the batch (the
gradient still flows through it), so a batch costs its windows plus one prompt.

Each optimizer step takes a batch of one kind of turn (the name of the turn's first tool
call, or ``message``), kinds drawn with equal
probability (or in proportion to their recent loss, ``sampling="loss"``): no short window
is padded to a long one's length, and a rare turn is learnt as often as a common one.
The loss is on the assistant's tokens (the chat template's ``{% generation %}`` span), the
LM head applied only there.

    from tool_gym.agents.turn_windows import WindowConfig, train_windows
    report = train_windows(model, tokenizer, rows, WindowConfig(steps=1100))
"""

from __future__ import annotations

import inspect
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass

from .tiny import IM_START

__all__ = ["PHASES", "RenderedEpisode", "Window", "WindowConfig", "render_episodes",
           "split_windows", "train_windows"]

#: The phases, in the order a curriculum runs them.
PHASES = ("windows", "context", "prompted", "episodes")


@dataclass(frozen=True)
class Window:
    """One training example: ``ids`` and the ``mask`` of the assistant's tokens, after the
    shared ``prefix`` (token ids of the system turn; empty for a bare window). ``source``
    is the whole episode's tokens and ``start`` where ``ids`` begin in them, so that the
    ``context`` phase can show what comes before."""

    prefix: tuple[int, ...]
    ids: tuple[int, ...]
    mask: tuple[bool, ...]
    kind: str
    source: tuple[int, ...] = ()
    start: int = 0

    def behind(self, tokens: int) -> Window:
        """This window after the last ``tokens`` tokens the episode shows before it (no
        loss on them)."""
        before = self.source[max(0, self.start - tokens):self.start] if tokens else ()
        return Window(self.prefix, before + self.ids, (False,) * len(before) + self.mask,
                      self.kind)


@dataclass
class WindowConfig:
    """One phase of window training.

    Attributes:
        phase: ``windows``, ``context``, ``prompted`` or ``episodes`` (see the module's
            docstring).
        steps: optimizer steps.
        batch_size: examples per step (all of one kind, behind one prefix).
        learning_rate: AdamW's peak rate: a linear warmup over ``warmup_steps`` then a
            linear decay to 5% of it.
        sampling: how each step's kind is drawn: ``uniform``, or ``loss`` (in proportion
            to the kind's recent loss, a quarter of the steps spread evenly: the steps go
            where the model still errs, a kind it has learnt keeps being rehearsed; in the
            shopping demo's runs it did no better than uniform).
        context_tokens: ``context`` phase: most tokens shown before a window (each
            step draws how many, from 1 to this); the tokens a sliding-window model sees
            back (layers x window) cover every context it will meet.
        bare_fraction: ``context`` phase: the fraction of steps whose windows are shown
            alone.
        seed: the sampling of kinds, examples and context lengths.
    """

    phase: str = "windows"
    steps: int = 1000
    batch_size: int = 32
    learning_rate: float = 3e-3
    warmup_steps: int = 30
    sampling: str = "uniform"
    context_tokens: int = 512
    bare_fraction: float = 0.2
    seed: int = 0

    def __post_init__(self):
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, got {self.phase!r}")
        if self.sampling not in ("loss", "uniform"):
            raise ValueError(f"sampling must be 'loss' or 'uniform', got {self.sampling!r}")
        if self.steps < 1 or self.batch_size < 1:
            raise ValueError("steps and batch_size must be at least 1")
        if self.context_tokens < 1 or not 0 <= self.bare_fraction <= 1:
            raise ValueError("context_tokens must be at least 1 and bare_fraction in [0, 1]")


def _kind(message: dict) -> str:
    calls = message.get("tool_calls") or []
    if calls:
        call = calls[0].get("function", calls[0])
        return str(call.get("name"))
    return "message"


def _render(tokenizer, messages: list[dict], tools=None) -> tuple[list[int], list[bool]]:
    out = tokenizer.apply_chat_template(messages, tools=tools or None, tokenize=True,
                                        return_dict=True, return_assistant_tokens_mask=True)
    return list(out["input_ids"]), list(map(bool, out.get("assistant_masks") or []))


def _split(messages: list[dict], tools) -> tuple[bool, list[dict], list[dict]]:
    """``(has a system turn, its messages, the body)``: the template renders a system turn
    when the episode opens with one or when there are tools to show."""
    head = messages[:1] if messages[0]["role"] == "system" else []
    return bool(head or tools), head, messages[len(head):]


def _blocks(tokenizer, messages: list[dict], tools) -> list[tuple[list[int], list[bool]]]:
    """The episode rendered once and cut where each turn starts (``<|im_start|>``): one
    ``(ids, mask)`` block per turn, the system turn (with the tools) first when there is
    one. A template whose turns cannot be found that way is rendered turn by turn."""
    ids, mask = _render(tokenizer, messages, tools)
    opener = tokenizer.convert_tokens_to_ids(IM_START)
    starts = [i for i, token in enumerate(ids) if token == opener]
    system, head, body = _split(messages, tools)
    if starts[:1] == [0] and len(starts) == system + len(body):
        bounds = starts + [len(ids)]
        return [(ids[a:b], mask[a:b]) for a, b in zip(bounds, bounds[1:])]
    blocks = [_render(tokenizer, head, tools)] if system else []
    blocks += [_render(tokenizer, [message]) for message in body]
    if [t for b in blocks for t in b[0]] != ids:
        raise ValueError("the chat template does not render an episode turn by turn")
    return blocks


@dataclass(frozen=True)
class RenderedEpisode:
    """An episode's tokens cut into turns: the system turn (with the tools; empty when
    there is none), then one ``(ids, mask)`` block per message of ``body``."""

    prompt: tuple[int, ...]
    blocks: tuple
    body: tuple


def render_episodes(rows: list[dict], tokenizer) -> list[RenderedEpisode]:
    """Each chat record (:mod:`tool_gym.chat`: ``messages`` with the system turn first,
    ``tools``) rendered once with the chat template and cut into turns; one tuple per
    distinct prompt, so that examples behind the same prompt batch together."""
    prompts: dict[tuple[int, ...], tuple[int, ...]] = {}
    episodes = []
    for row in rows:
        messages, tools = list(row["messages"]), row.get("tools")
        if not messages:
            continue
        blocks = _blocks(tokenizer, messages, tools)
        system, _, body = _split(messages, tools)
        head = tuple(blocks[0][0]) if system else ()
        blocks = blocks[1:] if system else blocks
        episodes.append(RenderedEpisode(prompts.setdefault(head, head), tuple(blocks),
                                        tuple(body)))
    return episodes


def split_windows(rows: list[dict], tokenizer, phase: str = "windows",
                  rendered: list[RenderedEpisode] | None = None) -> list[Window]:
    """The examples of ``phase`` from chat records, cut from each episode's own tokens
    (:func:`render_episodes`; pass ``rendered`` to reuse them), so a window is exactly
    what the episode shows there."""
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}, got {phase!r}")
    examples = []
    for episode in rendered if rendered is not None else render_episodes(rows, tokenizer):
        prefix = episode.prompt if phase in ("prompted", "episodes") else ()
        blocks = episode.blocks
        source = episode.prompt + tuple(t for b in blocks for t in b[0]) \
            if phase == "context" else ()
        offset = len(episode.prompt)

        def joined(first: int, last: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
            part = blocks[first:last + 1]
            return tuple(t for b in part for t in b[0]), tuple(m for b in part for m in b[1])

        if phase == "episodes":
            examples.append(Window(prefix, *joined(0, len(blocks) - 1), "episode"))
            continue
        start = 0
        for j, message in enumerate(episode.body):
            if message["role"] != "assistant":
                continue
            ids, mask = joined(start, j)
            start = j + 1
            if any(mask):
                examples.append(Window(prefix, ids, mask, _kind(message), source, offset))
            offset += len(ids)
    return examples


def _cache_keyword(model) -> str:
    """The keyword the decoder takes its KV cache by (transformers renamed
    ``past_key_values`` to ``cache``; either is accepted)."""
    return "cache" if "cache" in inspect.signature(model.model.forward).parameters \
        else "past_key_values"


def _batch_loss(model, prefix: tuple[int, ...], batch: list[Window],
                cache_keyword: str | None = None):
    """Mean cross-entropy over the assistant tokens of ``batch``, all behind ``prefix``
    (run once, its cache repeated over the batch; ``cache_keyword``: :func:`_cache_keyword`)."""
    import torch
    from transformers import DynamicCache

    size, longest, p = len(batch), max(len(w.ids) for w in batch), len(prefix)
    ids = torch.zeros((size, longest), dtype=torch.long)  # padding: masked out
    mask = torch.zeros((size, longest), dtype=torch.bool)
    attention = torch.zeros((size, p + longest), dtype=torch.long)
    attention[:, :p] = 1
    for i, window in enumerate(batch):
        n = len(window.ids)
        ids[i, :n] = torch.tensor(window.ids)
        mask[i, :n] = torch.tensor(window.mask)
        attention[i, p:p + n] = 1
    device = model.device
    ids, mask, attention = ids.to(device), mask.to(device), attention.to(device)
    body = model.model
    if p:
        # the cache is filled by the prompt's run, then repeated over the batch
        cache_keyword = cache_keyword or _cache_keyword(model)
        cache = DynamicCache(config=model.config)
        head = body(input_ids=torch.tensor([prefix], device=device), use_cache=True,
                    **{cache_keyword: cache})
        cache.batch_repeat_interleave(size)
        positions = torch.arange(p, p + longest, device=device).expand(size, longest)
        hidden = body(input_ids=ids, attention_mask=attention, position_ids=positions,
                      use_cache=True, **{cache_keyword: cache}).last_hidden_state
        # token t is predicted at t - 1; the first one by the prompt's last position
        hidden = torch.cat([head.last_hidden_state[:, -1:].expand(size, 1, -1),
                            hidden[:, :-1]], 1)
        targets = mask
    else:
        hidden = body(input_ids=ids, attention_mask=attention).last_hidden_state[:, :-1]
        targets, ids = mask[:, 1:], ids[:, 1:]
    return torch.nn.functional.cross_entropy(model.lm_head(hidden[targets]), ids[targets])


def train_windows(model, tokenizer, rows: list[dict], config: WindowConfig,
                  progress: bool = True, rendered: list[RenderedEpisode] | None = None) -> dict:
    """Train ``model`` in place on ``config.phase``'s examples of ``rows`` (or of their
    ``rendered`` episodes). Returns the phase's report: examples and kinds, the steps
    each kind took, the mean loss of the last tenth of the steps per kind, the seconds."""
    import torch
    from tqdm import tqdm

    if not (hasattr(model, "model") and hasattr(model, "lm_head")):
        raise ValueError(f"{type(model).__name__} is not a decoder with .model and .lm_head "
                         "(Qwen2, Llama, SmolLM2 are): turn windows cannot train it")
    examples = split_windows(rows, tokenizer, config.phase, rendered)
    if not examples:
        raise ValueError("no assistant turn to train on")
    groups: dict[tuple, list[Window]] = defaultdict(list)
    for window in examples:
        groups[(window.prefix, window.kind)].append(window)
    keys = sorted(groups, key=lambda key: (key[1], len(key[0]), key[0]))
    cache_keyword = _cache_keyword(model)
    rng = random.Random(config.seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate,
                                  weight_decay=0.0)
    steps, warmup = config.steps, max(1, config.warmup_steps)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.05, 1 - s / steps))
    late: dict[str, list[float]] = defaultdict(list)
    recent = [1.0] * len(keys)  # moving average of each kind's loss
    taken: dict[str, int] = defaultdict(int)
    started = time.perf_counter()
    model.train()
    bar = tqdm(range(steps), desc=f"turn windows ({config.phase})", unit="step",
               disable=not progress)
    for step in bar:
        if config.sampling == "loss":
            total = sum(recent)
            chosen = rng.choices(range(len(keys)), [0.25 / len(keys) + 0.75 * r / total
                                                    for r in recent])[0]
        else:
            chosen = rng.randrange(len(keys))
        prefix, kind = keys[chosen]
        taken[kind] += 1
        group = groups[(prefix, kind)]
        batch = [group[rng.randrange(len(group))] for _ in range(config.batch_size)]
        if config.phase == "context" and rng.random() >= config.bare_fraction:
            # one length for the batch: no window is padded to another's context
            tokens = rng.randint(1, config.context_tokens)
            batch = [window.behind(tokens) for window in batch]
        loss = _batch_loss(model, prefix, batch, cache_keyword)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        value = float(loss.detach())
        recent[chosen] = 0.8 * recent[chosen] + 0.2 * value
        if step >= steps - max(1, steps // 10):
            late[kind].append(value)
        bar.set_postfix(loss=f"{value:.3f}")
    model.eval()
    return {"phase": config.phase, "steps": steps, "examples": len(examples),
            "kinds": dict(sorted(Counter(w.kind for w in examples).items())),
            "steps_by_kind": dict(sorted(taken.items())),
            "final_loss": {kind: round(sum(v) / len(v), 4) for kind, v in sorted(late.items())},
            "seconds": round(time.perf_counter() - started, 1)}
