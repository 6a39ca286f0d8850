"""``VLLMDecoder``: BatchDecoder's interface over TRL's vLLM generation, checked against a
stand-in for ``trainer.vllm_generation`` (vLLM needs a GPU) that samples with the tiny model."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tool_gym.agents.batched_rollouts import BatchedRollouts, RolloutConfig
from tool_gym.llm.transformers_backend import BatchDecoder
from tool_gym.llm.vllm_decoder import VLLMDecoder


class FakeGeneration:
    """What the rollouts use of TRL's ``VLLMGeneration``: ``generate(prompts, images,
    num_generations)`` on token ids and ``max_completion_length``; greedy here, with the
    model itself, returning per-token top-1 logprob lists as vLLM does."""

    def __init__(self, model, pad_id, stop_ids):
        self.model, self.pad_id, self.stop_ids = model, pad_id, stop_ids
        self.max_completion_length = 999
        self.calls = []

    def generate(self, prompts, images, num_generations):
        assert images is None and num_generations == 1
        self.calls.append((len(prompts), self.max_completion_length))
        decoder = BatchDecoder(self.model, self.pad_id, self.stop_ids, temperature=0.0)
        decoder.add(prompts)
        out = decoder.generate(self.max_completion_length)
        return (prompts, [ids for ids, _, _ in out], [[[lp] for lp in lps] for _, lps, _ in out],
                None)


def test_rows_turns_and_stop_tokens(tiny):
    model, tokenizer = tiny
    stop = {tokenizer.eos_token_id}
    generation = FakeGeneration(model, tokenizer.pad_token_id, stop)
    decoder = VLLMDecoder(generation, stop)
    decoder.add([[5, 6, 7], [8, 9]])
    out = decoder.generate(4)
    assert generation.max_completion_length == 999  # restored after the turn
    assert generation.calls == [(2, 4)] and decoder.rows == 2
    for (ids, logps, closed), row in zip(out, decoder.sequences):
        assert len(ids) == len(logps) <= 4 and row[-len(ids):] == ids
        assert closed == (ids[-1] in stop) and all(i not in stop for i in ids[:-1])
    decoder.extend(1, [1, 2])
    decoder.drop([1])
    assert decoder.rows == 1 and decoder.sequences[0][-2:] == [1, 2]


def test_rollouts_through_vllm_equal_transformers_greedy(tiny):
    """The same greedy episodes whether turns are sampled by BatchDecoder or by the vLLM
    path (here a stand-in): the rollout loop, masks and rewards do not depend on it."""
    model, tokenizer = tiny
    config = RolloutConfig(max_new_tokens=12, max_turns=2, temperature=0.0, max_context=8192)
    episodes = [("train-0", 0), ("train-1", 1)]
    plain = BatchedRollouts(model, tokenizer, "ToolCall-Simple-v0", config).run(episodes)
    rollouts = BatchedRollouts(model, tokenizer, "ToolCall-Simple-v0", config)
    generation = FakeGeneration(model, tokenizer.pad_token_id, rollouts.stop_ids)
    rollouts.decoder_factory = lambda seed: VLLMDecoder(generation, rollouts.stop_ids)
    via_vllm = rollouts.run(episodes)
    assert generation.calls
    for a, b in zip(plain, via_vllm):
        assert a.completion_ids == b.completion_ids and a.env_mask == b.env_mask
        assert a.rewards == b.rewards
        assert b.logprobs == pytest.approx(a.logprobs, abs=1e-4)
