"""``TransformersPolicy``: a local Hugging Face model plays the agent.

Each turn the conversation is rendered with the model's chat template and the episode's
tool schemas (``info["tools"]``), the model samples a reply, and the raw text goes to the
environment, which parses it (Hermes ``<tool_call>`` blocks or a message to the user).
The conversation is kept as token ids with one KV cache across turns: the model's tokens
stay exactly as sampled, the environment's replies are appended in the template's format
(see :class:`tool_gym.llm.transformers_backend.ChatFormat`).

    python evaluate.py --policy hf:runs/demo/final --split test --tasks 20 --trials 1
    python evaluate.py --policy hf:/path/to/SmolLM2-135M-Instruct.Q4_1.gguf

Model paths are local (a ``save_pretrained`` directory, a ``.gguf`` file or a directory
holding one); nothing is downloaded. ``torch`` is imported only when a policy is built.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Sequence

from tool_gym.chat import initial_messages, tool_names
from tool_gym.core.actions import parse_action

__all__ = ["TransformersPolicy", "initial_messages", "observation_message"]


def observation_message(observation: str, action: Any, tools: Sequence[dict] | None = None
                        ) -> dict:
    """The environment's reply to ``action`` as a chat message: a ``tool`` message when
    the action called tools (or was a malformed call), a ``user`` message when it was a
    message to the user."""
    parsed = parse_action(action, tool_names=tool_names(tools) or None)
    role = "user" if parsed.is_message else "tool"
    return {"role": role, "content": str(observation)}


def episode_seed(seed: int, info: dict, observation: str) -> int:
    """A sampling seed that depends only on the episode (its task id and opening message,
    which the env draws from the reset seed), not on earlier episodes."""
    key = json.dumps([seed, (info or {}).get("task_id"), observation])
    return int.from_bytes(hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()[:8],
                          "little") >> 1


class TransformersPolicy:
    """A local causal LM as the agent.

    Args:
        model_path: a local model directory or ``.gguf`` file (or give ``model`` and
            ``tokenizer``).
        max_new_tokens: longest reply of one turn.
        temperature: 0 (default) for greedy decoding.
        top_p: nucleus sampling.
        seed: base seed; each episode reseeds from it and the episode.
        system_prompt: text put before the domain policy in the system message.
        max_context: longest conversation in tokens (default: the model's
            ``max_position_embeddings``); a turn that would pass it returns an empty
            action, which the env counts as an error.
        device / dtype: default GPU with bf16 if there is one, else CPU with fp32.
    """

    def __init__(self, model_path: str | None = None, *, model: Any = None,
                 tokenizer: Any = None, max_new_tokens: int = 256, temperature: float = 0.0,
                 top_p: float = 1.0, seed: int = 0, system_prompt: str | None = None,
                 max_context: int | None = None, device: str | None = None,
                 dtype: Any = None):
        from tool_gym.llm.transformers_backend import (load_model, prepare_tokenizer,
                                                       stop_token_ids)

        if model is None:
            if model_path is None:
                raise ValueError("give model_path, or model and tokenizer")
            model, tokenizer = load_model(model_path, device=device, dtype=dtype)
        elif tokenizer is None:
            raise ValueError("give the tokenizer with a loaded model")
        prepare_tokenizer(tokenizer)
        self.model, self.tokenizer = model, tokenizer
        self.stop_ids = stop_token_ids(model, tokenizer)
        self.max_new_tokens = int(max_new_tokens)
        self.temperature = float(temperature)
        self.top_p = float(top_p)
        self.seed = int(seed)
        self.system_prompt = system_prompt
        limit = getattr(getattr(model, "config", None), "max_position_embeddings", None)
        self.max_context = int(max_context or limit or 32768)
        self.messages: list[dict] = []
        self.tools: list[dict] = []
        self._format = None
        self._decoder = None
        self._last: tuple[Any, bool] | None = None

    def reset(self, observation: str, info: dict) -> None:
        from tool_gym.llm.transformers_backend import BatchDecoder, ChatFormat

        self.tools = list((info or {}).get("tools") or [])
        self.messages = initial_messages(observation, info, self.system_prompt)
        self._format = ChatFormat(self.tokenizer, self.tools, self.stop_ids)
        self._decoder = BatchDecoder(
            self.model, self.tokenizer.pad_token_id, self.stop_ids,
            temperature=self.temperature, top_p=self.top_p,
            seed=episode_seed(self.seed, info, observation))
        self._decoder.add([self._format.prompt_ids(self.messages)])
        self._last = None

    def act(self, observation: str, info: dict) -> str:
        if self._decoder is None:
            raise RuntimeError("TransformersPolicy.act before reset")
        if self._last is not None:  # the env's reply to our previous action
            action, closed = self._last
            message = observation_message(observation, action, self.tools)
            self.messages.append(message)
            self._decoder.extend(0, self._format.env_ids([message], closed=closed))
        budget = min(self.max_new_tokens,
                     self.max_context - len(self._decoder.history[0]))
        if budget < 1:
            text, closed = "", True
        else:
            ids, _, closed = self._decoder.generate(budget)[0]
            text = self._format.decode(ids)
        self.messages.append({"role": "assistant", "content": text})
        self._last = (text, closed)
        return text
