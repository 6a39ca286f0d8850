"""A tiny Qwen2-style model and BPE tokenizer, built offline in seconds.

For tests and the CPU demo: nothing is downloaded. The tokenizer is a byte-level BPE
trained on the texts you give it (the tool schemas and messages of an environment, say)
plus a small built-in corpus, so that every string is encodable and the common words of
the environment are single tokens. Its chat template speaks the Hermes tool-call
convention of Qwen models:

- tool schemas go into the system turn, one JSON object per line inside ``<tools>``;
- an assistant turn is ``<|im_start|>assistant\\n`` + content + ``<tool_call>{"name": ...,
  "arguments": {...}}</tool_call>`` blocks + ``<|im_end|>`` (``<|im_end|>`` is the EOS);
- a tool result is a ``tool`` turn.

The assistant's content and its ``<|im_end|>`` sit inside ``{% generation %}`` markers, so
``return_assistant_tokens_mask=True`` (TRL's ``assistant_only_loss``) marks exactly the
tokens the model itself produces after the generation prompt, the same span a rollout
samples.

The tokenizer also carries a ``response_template`` (transformers' response parsing), so
``tokenizer.parse_response`` turns a completion back into an assistant message with its
``tool_calls``: what TRL's ``GRPOTrainer`` tool loop (``tools=`` or
``environment_factory=``) needs to run the model's calls.

With ``TinyConfig(copy_steps=N)`` the model is then taught to copy spans of those texts
(:func:`pretrain_copying`), the one skill of a pretrained LLM that tool use cannot do
without and a few hundred episodes of fine-tuning do not teach.

    from tool_gym.agents.tiny import build_tiny_model
    path = build_tiny_model("runs/tiny", texts=["some text of the domain", ...])
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

IM_START, IM_END, PAD = "<|im_start|>", "<|im_end|>", "<|endoftext|>"
#: Single tokens that are not special: they must survive ``skip_special_tokens``.
MARKUP = ("<tool_call>", "</tool_call>", "<tools>", "</tools>")

# Qwen-style template with tools and generation markers (written for this project).
CHAT_TEMPLATE = (
    "{%- set ns = namespace(system='') -%}"
    "{%- if messages and messages[0]['role'] == 'system' -%}"
    "{%- set ns.system = messages[0]['content'] -%}"
    "{%- set messages = messages[1:] -%}"
    "{%- endif -%}"
    "{%- if ns.system or tools -%}"
    "{{- '<|im_start|>system\\n' + ns.system -}}"
    "{%- if tools -%}"
    "{{- ('\\n\\n' if ns.system else '') + '# Tools\\n<tools>' -}}"
    "{%- for tool in tools -%}"
    "{{- '\\n' + (tool | tojson) -}}"
    "{%- endfor -%}"
    "{{- '\\n</tools>\\nCall a tool with <tool_call>{\"name\": name, \"arguments\": {...}}"
    "</tool_call>.' -}}"
    "{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{%- for message in messages -%}"
    "{%- if message['role'] == 'assistant' -%}"
    "{{- '<|im_start|>assistant\\n' -}}"
    "{%- generation -%}"
    "{%- if message['content'] -%}{{- message['content'] -}}{%- endif -%}"
    "{%- if message['tool_calls'] -%}"
    "{%- for call in message['tool_calls'] -%}"
    "{%- if call['function'] is defined -%}{%- set call = call['function'] -%}{%- endif -%}"
    "{{- '<tool_call>{\"name\": ' + (call['name'] | tojson) + ', \"arguments\": ' -}}"
    "{%- if call['arguments'] is string -%}{{- call['arguments'] -}}"
    "{%- else -%}{{- call['arguments'] | tojson -}}{%- endif -%}"
    "{{- '}</tool_call>' -}}"
    "{%- endfor -%}"
    "{%- endif -%}"
    "{{- '<|im_end|>' -}}"
    "{%- endgeneration -%}"
    "{{- '\\n' -}}"
    "{%- else -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' -}}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)

#: transformers' response parsing of one assistant turn of :data:`CHAT_TEMPLATE`: Hermes
#: ``<tool_call>{json}</tool_call>`` blocks become ``tool_calls``, the rest up to
#: ``<|im_end|>`` the content (the shape of TRL's Qwen3 template, without reasoning).
RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": IM_START + "assistant\n",
    "fields": {
        "tool_calls": {
            "open": "<tool_call>",
            "close_pattern": r"</tool_call>\s*",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}

_BUILTIN_CORPUS = (
    "Hello, how can I help you today? I'd be happy to help. Could you please provide the "
    "email address on your account, or your first name, last name and zip code? Thank you. "
    "Is there anything else I can help you with? Shall I proceed? Yes, please go ahead. "
    "The order has been cancelled. The tracking number of your order is 123456789. "
    '{"name": "get_order_details", "arguments": {"order_id": "#W1234567"}} '
    '{"type": "function", "function": {"name": "find_user_id_by_email", "description": '
    '"Find a user id by email.", "parameters": {"type": "object", "properties": {"email": '
    '{"type": "string", "description": "The email."}}, "required": ["email"]}}} '
    "0 1 2 3 4 5 6 7 8 9 10 100 1000 true false null Error: "
)


@dataclass
class TinyConfig:
    """Shape of the tiny model and its tokenizer.

    Attributes:
        vocab_size: BPE vocabulary size (special and markup tokens included).
        hidden_size / intermediate_size / num_hidden_layers / num_attention_heads /
        num_key_value_heads: the Qwen2 decoder's shape.
        max_position_embeddings: longest sequence (prompt and whole episode).
        seed: seed of the weight initialization and of the copy pretraining's data.
        value_tokens: digits one by one and spaces as tokens of their own
            (:func:`build_tokenizer`).
        min_frequency: fewest occurrences of a pair the BPE merges. Higher keeps random
            ids in single letters, which every text trains, instead of rare merged pieces
            a small model never learns to copy.
        copy_steps: optimizer steps of copy pretraining (:func:`pretrain_copying`; 0: none).
        copy_batch_size / copy_length / copy_learning_rate: its batch, sequence length
            and learning rate.
        copy_random: copy spans of random tokens instead of the environment's texts.
            Text can be predicted from its bigrams, which a small model learns first and
            then stays on; random tokens can only be predicted by looking back, so the
            model forms an induction circuit (the loss falls abruptly after about a
            thousand steps at the default shape).
        attention_window: tokens each layer attends back over (sliding-window attention,
            as Mistral and Qwen2 support; 0: the whole sequence). With ``L`` layers a
            token sees the last ``L * (attention_window - 1) + 1`` tokens, so a model
            trained on turns behind that much context (the ``context`` phase of
            :mod:`tool_gym.agents.turn_windows`) has seen every context it will meet,
            however long the episode; with full attention, what it learns in short
            sequences does not hold behind a system prompt of 900 tokens.
        copy_long_steps / copy_long_length / copy_long_batch_size: steps of copying in
            sequences as long as an episode, after the short ones: a circuit learnt within
            160 tokens does not hold behind a system prompt of 700 (formed directly in long
            sequences, it takes far longer to appear).
    """

    vocab_size: int = 1024
    hidden_size: int = 64
    intermediate_size: int = 192
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    max_position_embeddings: int = 8192
    seed: int = 0
    value_tokens: bool = False
    min_frequency: int = 2
    attention_window: int = 0
    copy_steps: int = 0
    copy_batch_size: int = 32
    copy_length: int = 160
    copy_learning_rate: float = 3e-3
    copy_random: bool = False
    copy_long_steps: int = 0
    copy_long_length: int = 1024
    copy_long_batch_size: int = 8
    extra: dict = field(default_factory=dict)


def build_tokenizer(texts: Iterable[str] = (), vocab_size: int = 1024,
                    value_tokens: bool = False, min_frequency: int = 2):
    """A byte-level BPE ``PreTrainedTokenizerFast`` with the tool chat template and its
    response template (``tokenizer.parse_response``). With ``value_tokens`` digits are
    tokens one by one and spaces tokens of their own (see below)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AddedToken, PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    # Digits one by one and spaces as tokens of their own: a value copied from a message
    # into a call's JSON ("my email is a.b@c.com" -> {"email": "a.b@c.com"}) is then the
    # same tokens in both places, so a small model learns copying as identity.
    # (Longer sequences: a model that copies little learns faster without it.)
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    core.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.Split(" ", behavior="isolated"), byte_level]) if value_tokens \
        else byte_level
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, show_progress=False,
        special_tokens=[PAD, IM_START, IM_END],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    corpus = [_BUILTIN_CORPUS, *(t for t in texts if isinstance(t, str) and t)]
    core.train_from_iterator(corpus, trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core, bos_token=None, eos_token=IM_END, pad_token=PAD,
        unk_token=None, padding_side="left", model_max_length=1 << 20)
    tokenizer.add_special_tokens({"additional_special_tokens": [IM_START, IM_END]})
    tokenizer.add_tokens([AddedToken(t, special=False, normalized=False) for t in MARKUP])
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.response_template = RESPONSE_TEMPLATE
    return tokenizer


def sliding_window(tokens: int) -> dict:
    """Qwen2Config's settings for sliding-window attention over ``tokens`` in every
    layer (none for 0)."""
    if not tokens:
        return {}
    return {"use_sliding_window": True, "sliding_window": tokens, "max_window_layers": 0}


def build_tiny_model(out_dir: str | Path, texts: Iterable[str] = (),
                     config: TinyConfig | None = None) -> Path:
    """Write a randomly initialized tiny Qwen2 model and its tokenizer to ``out_dir``.

    Returns the directory, loadable with ``AutoModelForCausalLM.from_pretrained`` and
    ``AutoTokenizer.from_pretrained`` (and as a policy with ``hf:<out_dir>``).
    """
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    config = config or TinyConfig()
    if config.attention_window < 0:
        raise ValueError("attention_window must be 0 (whole sequence) or positive")
    texts = list(texts)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(texts, config.vocab_size, config.value_tokens,
                                config.min_frequency)
    model_config = Qwen2Config(
        vocab_size=len(tokenizer), hidden_size=config.hidden_size,
        intermediate_size=config.intermediate_size,
        num_hidden_layers=config.num_hidden_layers,
        num_attention_heads=config.num_attention_heads,
        num_key_value_heads=config.num_key_value_heads,
        max_position_embeddings=config.max_position_embeddings,
        tie_word_embeddings=True, attention_dropout=0.0,
        bos_token_id=None, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id, **sliding_window(config.attention_window),
        **config.extra)
    generator = torch.random.fork_rng()
    with generator:
        torch.manual_seed(config.seed)
        model = Qwen2ForCausalLM(model_config)
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
        do_sample=True, temperature=1.0)
    if config.copy_steps or config.copy_long_steps:
        report = pretrain_copying(model, tokenizer, texts, config)
        (out / "copy_pretraining.json").write_text(json.dumps(report, indent=2) + "\n")
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    (out / "tiny_config.json").write_text(json.dumps(asdict(config), indent=2) + "\n")
    return out


def copy_examples(pieces: list[list[int]], rng, batch_size: int, length: int):
    """A batch of copy sequences: slices of ``pieces`` (token ids of the environment's
    texts) one after another, and among them, repeats of spans that came earlier in the
    same sequence, at any distance (a conversation copies a value said a few hundred tokens
    before as often as one said just now). ``(ids, mask)``, the mask on the tokens of each
    repeat that can be read back (all but its first)."""
    ids, mask = [], []
    for _ in range(batch_size):
        row: list[int] = []
        bits: list[int] = []
        while len(row) < length:
            if len(row) > 8 and rng.random() < 0.5:
                at = int(rng.integers(len(row) - 4))
                span = row[at:at + int(rng.integers(4, 21))]
                bits += [0] + [1] * (len(span) - 1)
            else:
                source = pieces[int(rng.integers(len(pieces)))]
                at = int(rng.integers(len(source)))
                span = source[at:at + int(rng.integers(4, 41))]
                bits += [0] * len(span)
            row += span
        ids.append(row[:length])
        mask.append(bits[:length])
    return ids, mask


def pretrain_copying(model, tokenizer, texts: Iterable[str], config: TinyConfig,
                     progress: bool = True) -> dict:
    """Teach a freshly initialized model to copy, as pretraining teaches an LLM.

    A tool-using agent copies all the time: the email the user gave into the call that
    finds their id, that id into the next call, a figure from a tool result into its
    answer. A pretrained LLM arrives able to do so; a model initialized a second ago does
    not, and supervised fine-tuning on a few hundred episodes (a handful of copies each)
    does not teach it in CPU minutes. So the tiny model first learns copying alone:
    sequences of spans of the environment's texts, each repeated after other text, with the
    loss on the repeats (the induction behaviour of pretrained models). Nothing of any task
    is in the data: only which tokens follow which, in text already seen. Returns the copy
    accuracy and loss of the last batch, and the seconds taken.
    """
    import time

    import numpy as np
    import torch
    from tqdm import tqdm

    pieces = [tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts
              if isinstance(t, str) and t]
    pieces = [p for p in pieces if len(p) >= 4]
    if not pieces:
        raise ValueError("copy pretraining needs texts of at least 4 tokens")
    rng = np.random.default_rng([config.seed, 1])
    special = set(tokenizer.all_special_ids)
    plain = np.array([i for i in range(len(tokenizer)) if i not in special])

    def sources() -> list[list[int]]:
        if not config.copy_random:
            return pieces
        return [plain[rng.integers(len(plain), size=64)].tolist() for _ in range(64)]

    plan = [(config.copy_length, config.copy_batch_size)] * config.copy_steps + \
        [(config.copy_long_length, config.copy_long_batch_size)] * config.copy_long_steps
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.copy_learning_rate)
    started = time.perf_counter()
    model.train()
    accuracy = loss_value = 0.0
    for length, batch_size in tqdm(plan, desc="copy pretraining", unit="step",
                                   disable=not progress):
        ids, mask = copy_examples(sources(), rng, batch_size, length)
        ids, mask = torch.tensor(ids), torch.tensor(mask, dtype=torch.bool)
        # the LM head only where a repeat can be read back (the vocabulary dominates the
        # cost of so small a model)
        hidden = model.model(input_ids=ids).last_hidden_state[:, :-1][mask[:, 1:]]
        target = ids[:, 1:][mask[:, 1:]]
        logits = model.lm_head(hidden)
        loss = torch.nn.functional.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            accuracy = float((logits.argmax(-1) == target).float().mean())
            loss_value = float(loss)
    model.eval()
    return {"steps": config.copy_steps + config.copy_long_steps, "copy_accuracy": round(accuracy, 4),
            "loss": round(loss_value, 4), "seconds": round(time.perf_counter() - started, 1)}


def env_texts(env_id: str, episodes: int = 8, env_kwargs: dict | None = None,
              databases: int = 1) -> list[str]:
    """Texts of an environment for the tokenizer: tool schemas, policy, openings, and the
    reference policy's actions where the env has one (no model involved). With
    ``databases`` > 1 the episodes are spread over that many generated databases
    (``db_seed``, ``db_seed + 1``, ...), so that no one user's values recur in the corpus
    often enough to become tokens of their own."""
    import gymnasium as gym

    import tool_gym  # noqa: F401  (registers the ids)

    texts: list[str] = []
    first = int((env_kwargs or {}).get("db_seed", 0))
    for k in range(databases):
        kwargs = dict(env_kwargs or {}, db_seed=first + k) if databases > 1 else env_kwargs
        env = gym.make(env_id, **(kwargs or {}))
        try:
            for seed in range(k, episodes, databases):
                observation, info = env.reset(seed=seed)
                if seed == 0:
                    texts.append(json.dumps(info.get("tools") or [], ensure_ascii=False))
                    texts.append(str(info.get("policy") or ""))
                texts.append(observation)
                texts.extend(_oracle_texts(env, observation, info))
        finally:
            env.close()
    return texts


def _oracle_texts(env, observation: str, info: dict) -> list[str]:
    from .oracle import OraclePolicy
    from .privileged import OracleAccess

    policy = OraclePolicy()
    try:
        policy.reset_privileged(observation, info, OracleAccess.from_env(env))
    except (ValueError, RuntimeError, AttributeError, TypeError):
        return []
    texts = []
    for _ in range(12):
        action = policy.act(observation, info)
        texts.append(action if isinstance(action, str) else json.dumps(action, default=str))
        observation, _, terminated, truncated, info = env.step(action)
        texts.append(observation)
        if terminated or truncated:
            break
    return texts
