"""Batched lockstep rollouts: token ids as sampled, env tokens masked out, log-probs that a
training forward pass reproduces, per-turn rewards, and the same episodes as one at a time."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tool_gym.agents.batched_rollouts import BatchedRollouts, RolloutConfig, evaluate_model, summarize  # noqa: E402

from .lockstep_env import ENV_ID  # noqa: E402

EPISODES = [(f"train-{n}", 100 + n) for n in range(6)]


def spans(ids, mask, value):
    """Maximal runs of ``ids`` where ``mask == value``."""
    out, current = [], []
    for token, m in zip(ids, mask):
        if m == value:
            current.append(token)
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def run(tiny, env=ENV_ID, episodes=EPISODES, sequential=False, **config):
    model, tokenizer = tiny
    settings = dict(max_new_tokens=24, max_turns=3, temperature=1.0, seed=3)
    settings.update(config)
    runner = BatchedRollouts(model, tokenizer, env, RolloutConfig(**settings))
    trajectories = (runner.run_sequential if sequential else runner.run)(episodes)
    runner.close()
    return trajectories, runner.stats


@pytest.fixture(scope="module")
def sampled(tiny):
    return run(tiny)


def test_env_mask_covers_exactly_the_model_tokens(tiny, sampled):
    _, tokenizer = tiny
    trajectories, stats = sampled
    assert stats.episodes == len(EPISODES) and stats.generations <= 3
    for t in trajectories:
        assert len(t.completion_ids) == len(t.env_mask) == len(t.logprobs)
        assistant = [m["content"] for m in t.messages if m["role"] == "assistant"]
        replies = [m for m in t.messages[2:] if m["role"] != "assistant"]
        model_spans = spans(t.completion_ids, t.env_mask, 1)
        env_spans = spans(t.completion_ids, t.env_mask, 0)
        # one model span per turn, decoding to the text the env received (+ its EOS)
        assert len(model_spans) == len(assistant) == len(t.rewards)
        for ids, text in zip(model_spans, assistant):
            decoded = tokenizer.decode(ids)
            assert decoded in (text + "<|im_end|>", text)
            assert decoded.endswith("<|im_end|>") or len(ids) == 24
        # one env span between turns: the template's reply, nothing of the model's
        assert len(env_spans) == len(replies) == len(assistant) - 1
        for ids, reply, before in zip(env_spans, replies, model_spans):
            closed = tokenizer.decode(before).endswith("<|im_end|>")
            expected = ("" if closed else "<|im_end|>") + \
                f"\n<|im_start|>{reply['role']}\n{reply['content']}<|im_end|>\n" \
                "<|im_start|>assistant\n"
            assert tokenizer.decode(ids) == expected
        assert all(lp == 0.0 for lp, m in zip(t.logprobs, t.env_mask) if m == 0)
        assert all(lp < 0.0 for lp, m in zip(t.logprobs, t.env_mask) if m == 1)
        assert tokenizer.decode(t.prompt_ids).endswith("<|im_start|>assistant\n")
        assert t.reward == pytest.approx(sum(t.rewards)) == pytest.approx(t.record["reward"])
        assert t.record["steps"] == len(t.rewards) and t.model_tokens == sum(t.env_mask)


def test_sampled_logprobs_match_a_training_forward_pass(tiny, sampled):
    """What GRPO recomputes (one forward over prompt + completion, no padding) equals what
    the lockstep decoder saw with its cache, padding and positions."""
    model, _ = tiny
    for t in sampled[0][:3]:
        ids = torch.tensor([t.prompt_ids + t.completion_ids])
        with torch.no_grad():
            logps = torch.log_softmax(model(ids).logits[0].float(), dim=-1)
        start = len(t.prompt_ids)
        for k, (token, m, lp) in enumerate(zip(t.completion_ids, t.env_mask, t.logprobs)):
            if m:
                assert logps[start + k - 1, token].item() == pytest.approx(lp, abs=1e-4)


def test_cache_reuse_and_recompute_sample_the_same_tokens(tiny, sampled):
    for settings in ({"reuse_cache": False}, {"prefill_chunk": 5}):
        again, _ = run(tiny, **settings)
        assert [t.completion_ids for t in again] == [t.completion_ids for t in sampled[0]]
        assert [t.rewards for t in again] == [t.rewards for t in sampled[0]]


def test_batched_greedy_equals_one_episode_at_a_time(tiny):
    batched, b_stats = run(tiny, temperature=0.0)
    sequential, s_stats = run(tiny, temperature=0.0, sequential=True)
    assert [t.completion_ids for t in batched] == [t.completion_ids for t in sequential]
    assert [t.record for t in batched] == [t.record for t in sequential]
    assert s_stats.generations == sum(t.record["steps"] for t in sequential)
    assert b_stats.generations == max(t.record["steps"] for t in batched)


def test_retail_episode_and_limits(tiny):
    trajectories, _ = run(tiny, env="ToolRetail-v0", episodes=[("test-0", 1), ("test-1", 2)],
                          max_turns=2, max_new_tokens=8, max_context=32768)
    for t in trajectories:
        assert t.record["steps"] == 2 and t.record["ended"] == "max_turns"
        assert not t.record["verified"] and t.score == 0.0
        assert t.tools and t.messages[0]["role"] == "system"  # policy and tool schemas
    cut, _ = run(tiny, env="ToolRetail-v0", episodes=[("test-0", 1)], max_context=100)
    assert cut[0].record["ended"] == "max_context" and cut[0].completion_ids == []


def test_evaluate_model_summary(tiny):
    model, tokenizer = tiny
    summary, trajectories = evaluate_model(
        model, tokenizer, ENV_ID, ["test-0", "test-1", "test-2"],
        RolloutConfig(max_new_tokens=8, max_turns=2, temperature=0.0), batch_size=2)
    assert summary == summarize(trajectories) and summary["episodes"] == 3
    assert 0.0 <= summary["success_rate"] <= 1.0
    assert model.training is False
