"""Multi-turn batched sampling through TRL's vLLM generation (``GRPOConfig(use_vllm=True)``).

:class:`VLLMDecoder` has the interface of
:class:`~tool_gym.llm.transformers_backend.BatchDecoder` (``add``, ``extend``, ``drop``,
``generate``, ``rows``, ``forward_tokens``), so the batched rollouts of
:mod:`tool_gym.agents.batched_rollouts` play their episodes the same way with either. Each
turn sends every live episode's whole token sequence (prompt, earlier turns, environment
replies) to ``trainer.vllm_generation.generate`` as token ids, one completion each; vLLM's
prefix cache keeps the repeated prefixes cheap. TRL syncs the trained weights into vLLM
before each rollout and samples with the trainer's settings (temperature, top-p, top-k); a
turn is cut at its first stop token, or after ``max_new_tokens``.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["VLLMDecoder"]


class VLLMDecoder:
    """``BatchDecoder``'s interface over ``trl``'s ``VLLMGeneration``.

    Args:
        generation: the trainer's ``vllm_generation`` (``generate(prompts, images,
            num_generations)`` returning ``(prompt_ids, completion_ids, logprobs, _)``).
        stop_ids: a turn ends at the first of these tokens (kept, as the model sampled it).
    """

    def __init__(self, generation: Any, stop_ids: set[int]):
        self.generation = generation
        self.stop_ids = set(int(i) for i in stop_ids)
        self.sequences: list[list[int]] = []
        self.forward_tokens = 0

    @property
    def rows(self) -> int:
        return len(self.sequences)

    def add(self, prompts: Sequence[Sequence[int]]) -> None:
        self.sequences.extend([list(p) for p in prompts])

    def extend(self, row: int, ids: Sequence[int]) -> None:
        self.sequences[row].extend(int(i) for i in ids)

    def drop(self, keep: Sequence[int]) -> None:
        self.sequences = [self.sequences[row] for row in keep]

    def generate(self, max_new_tokens: int) -> list[tuple[list[int], list[float], bool]]:
        """One turn of every row: ``(token ids, their log-probabilities, ended at a stop
        token)``; the tokens are appended to the rows."""
        limit = self.generation.max_completion_length
        self.generation.max_completion_length = int(max_new_tokens)
        try:
            _, completions, logprobs, _ = self.generation.generate(
                prompts=[list(s) for s in self.sequences], images=None, num_generations=1)
        finally:
            self.generation.max_completion_length = limit
        self.forward_tokens += sum(len(s) for s in self.sequences)
        out = []
        for row, (ids, logps) in enumerate(zip(completions, logprobs)):
            ids = [int(i) for i in ids][:max_new_tokens]
            logps = [float(lp[0]) if isinstance(lp, (list, tuple)) else float(lp)
                     for lp in logps][:len(ids)]
            stop = next((k for k, i in enumerate(ids) if i in self.stop_ids), None)
            if stop is not None:
                ids, logps = ids[:stop + 1], logps[:stop + 1]
            self.sequences[row].extend(ids)
            out.append((ids, logps, stop is not None))
        return out
