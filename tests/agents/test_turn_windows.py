"""Turn-window SFT: the windows are the episode's own tokens, the shared-prompt loss is the
loss of the whole sequence, and training is deterministic."""

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tool_gym.agents.turn_windows import (  # noqa: E402
    WindowConfig,
    _batch_loss,
    split_windows,
    train_windows,
)

TOOLS = [{"type": "function", "function": {
    "name": "get_order_details", "description": "Details of an order.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}},
                   "required": ["order_id"]}}}]


def row(order: str) -> dict:
    call = {"type": "function", "function": {
        "name": "get_order_details", "arguments": json.dumps({"order_id": order})}}
    return {"tools": TOOLS, "messages": [
        {"role": "system", "content": "Follow the policy."},
        {"role": "user", "content": f"Where is my order {order}?"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "content": '{"status": "delivered"}'},
        {"role": "assistant", "content": "It was delivered."},
        {"role": "user", "content": "Thanks."},
        {"role": "assistant", "content": "Goodbye!"}]}


ROWS = [row(f"#W{n:07d}") for n in (1234567, 7654321, 1111119)]


def whole(tokenizer, messages, tools=None):
    out = tokenizer.apply_chat_template(messages, tools=tools, tokenize=True,
                                        return_dict=True, return_assistant_tokens_mask=True)
    return list(out["input_ids"]), list(map(bool, out["assistant_masks"]))


def test_windows_are_each_turn_with_the_messages_since_the_last(tiny):
    _, tokenizer = tiny
    windows = split_windows(ROWS[:1], tokenizer, "windows")
    assert [w.kind for w in windows] == ["get_order_details", "message", "message"]
    messages = ROWS[0]["messages"]
    assert all(w.prefix == () for w in windows)
    for window, span in zip(windows, ([1, 2], [3, 4], [5, 6])):
        ids, mask = whole(tokenizer, messages[span[0]:span[1] + 1])
        assert list(window.ids) == ids and list(window.mask) == mask
    # the second window starts at the tool result, not at the user's question
    assert "Where is my order" not in tokenizer.decode(windows[1].ids)


def test_prompted_windows_and_episodes_are_the_episode_tokens(tiny):
    _, tokenizer = tiny
    messages = ROWS[0]["messages"]
    prompted = split_windows(ROWS[:1], tokenizer, "prompted")
    system_ids, _ = whole(tokenizer, messages[:1], TOOLS)
    assert all(list(w.prefix) == system_ids for w in prompted)
    ids, mask = whole(tokenizer, messages[:1] + messages[3:5], TOOLS)
    assert list(prompted[1].prefix + prompted[1].ids) == ids
    assert [False] * len(system_ids) + list(prompted[1].mask) == mask
    (episode,) = split_windows(ROWS[:1], tokenizer, "episodes")
    ids, mask = whole(tokenizer, messages, TOOLS)
    assert list(episode.prefix + episode.ids) == ids
    assert [False] * len(system_ids) + list(episode.mask) == mask


@pytest.mark.parametrize("phase", ["windows", "prompted", "episodes"])
def test_the_batched_loss_is_the_loss_of_each_whole_sequence(tiny, phase):
    """One prompt run for the batch, its cache shared: the same loss as running every
    sequence whole, on the assistant tokens only."""
    model, tokenizer = tiny
    windows = split_windows(ROWS, tokenizer, phase)
    prefix = windows[0].prefix
    batch = [w for w in windows if w.prefix == prefix][:4]
    total, count = 0.0, 0
    with torch.no_grad():
        shared = float(_batch_loss(model, prefix, batch))
        for w in batch:
            ids = torch.tensor([list(w.prefix + w.ids)])
            mask = torch.tensor([False] * len(w.prefix) + list(w.mask))
            logits = model(input_ids=ids).logits[0, :-1][mask[1:]]
            total += float(torch.nn.functional.cross_entropy(
                logits, ids[0, 1:][mask[1:]], reduction="sum"))
            count += int(mask[1:].sum())
    assert shared == pytest.approx(total / count, rel=1e-4)


def test_training_changes_the_weights_deterministically(tiny_dir):
    from tool_gym.llm.transformers_backend import load_model

    results = []
    for _ in range(2):
        model, tokenizer = load_model(tiny_dir, device="cpu")
        before = {k: v.clone() for k, v in model.state_dict().items()}
        report = train_windows(model, tokenizer, ROWS, WindowConfig(
            phase="prompted", steps=3, batch_size=2, learning_rate=1e-3), progress=False)
        after = model.state_dict()
        assert any(not torch.equal(before[k], after[k]) for k in before)
        kinds = {"get_order_details": 3, "message": 6}
        assert report["examples"] == 9 and report["kinds"] == kinds
        assert set(report["final_loss"]) <= set(kinds)
        results.append(after)
    assert all(torch.equal(results[0][k], results[1][k]) for k in results[0])


def test_bad_config_and_empty_data_are_refused(tiny):
    model, tokenizer = tiny
    with pytest.raises(ValueError, match="phase"):
        WindowConfig(phase="everything")
    with pytest.raises(ValueError, match="steps"):
        WindowConfig(steps=0)
    with pytest.raises(ValueError, match="sampling"):
        WindowConfig(sampling="greedy")
    no_turns = {"tools": TOOLS, "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(ValueError, match="no assistant turn"):
        train_windows(model, tokenizer, [no_turns], WindowConfig(steps=1), progress=False)


def test_loss_sampling_gives_the_steps_to_the_turns_still_wrong(tiny_dir):
    """Every episode makes the same call, and ends on a message of random digits no model
    can predict: sampled by loss, the messages take more of the steps than uniform
    sampling gives them, the call fewer."""
    import random

    from tool_gym.llm.transformers_backend import load_model

    draw = random.Random(0)
    rows = []
    for _ in range(40):
        episode = row("#W1234567")
        episode["messages"][-1] = {"role": "assistant", "content": " ".join(
            str(draw.randrange(10)) for _ in range(12))}
        rows.append(episode)
    taken = {}
    for sampling in ("uniform", "loss"):
        model, tokenizer = load_model(tiny_dir, device="cpu")
        report = train_windows(model, tokenizer, rows, WindowConfig(
            steps=200, batch_size=4, learning_rate=3e-3, sampling=sampling), progress=False)
        assert sum(report["steps_by_kind"].values()) == 200
        taken[sampling] = report["steps_by_kind"]
    assert taken["loss"]["message"] > taken["uniform"]["message"]
    assert taken["loss"]["get_order_details"] < taken["uniform"]["get_order_details"]


def test_context_windows_are_the_episode_tokens_just_before_them(tiny):
    """A context window behind ``r`` tokens is the slice of the whole rendered episode
    that ends where the window ends, with the loss on the window's assistant tokens
    only; ``r`` past the episode's start stops at its first token."""
    _, tokenizer = tiny
    messages = ROWS[0]["messages"]
    ids, mask = whole(tokenizer, messages, TOOLS)
    windows = split_windows(ROWS[:1], tokenizer, "context")
    assert [w.kind for w in windows] == ["get_order_details", "message", "message"]
    end = 0
    for window in windows:
        end = window.start + len(window.ids)
        assert list(window.source) == ids and list(window.ids) == ids[window.start:end]
        for tokens in (0, 1, 7, 10_000):
            shown = window.behind(tokens)
            first = max(0, window.start - tokens)
            assert list(shown.ids) == ids[first:end]
            assert list(shown.mask) == [False] * (window.start - first) + \
                mask[window.start:end]
            assert shown.prefix == () and shown.kind == window.kind
    assert end == len(ids)


def test_the_context_phase_draws_its_lengths_and_can_be_bare(tiny_dir, monkeypatch):
    """The windows of a step are all behind the same number of context tokens, drawn up
    to ``context_tokens``; with ``bare_fraction`` 1 every window is shown alone, as in the
    ``windows`` phase."""
    from tool_gym.agents import turn_windows
    from tool_gym.llm.transformers_backend import load_model

    batches = []
    real = turn_windows._batch_loss

    def spy(model, prefix, batch, cache_keyword=None):
        batches.append(batch)
        return real(model, prefix, batch, cache_keyword)

    monkeypatch.setattr(turn_windows, "_batch_loss", spy)
    model, tokenizer = load_model(tiny_dir, device="cpu")
    bare = split_windows(ROWS, tokenizer, "windows")

    def context_lengths(batch) -> set[int]:
        """Tokens each shown window has before the bare window it ends with."""
        return {len(w.ids) - next(len(b.ids) for b in bare if b.kind == w.kind
                                  and w.ids[len(w.ids) - len(b.ids):] == b.ids
                                  and w.mask[len(w.mask) - len(b.mask):] == b.mask
                                  and not any(w.mask[:len(w.mask) - len(b.mask)]))
                for w in batch}

    for fraction, steps in ((0.0, 30), (1.0, 10)):
        batches.clear()
        train_windows(model, tokenizer, ROWS, WindowConfig(
            phase="context", steps=steps, batch_size=3, context_tokens=5,
            bare_fraction=fraction), progress=False)
        lengths = [context_lengths(batch) for batch in batches]
        assert len(lengths) == steps and all(len(one) == 1 for one in lengths)
        drawn = {n for (n,) in lengths}
        if fraction:
            assert drawn == {0}
        else:  # the first window of an episode has only the system turn before it
            assert drawn <= set(range(1, 6)) and len(drawn) >= 3
    with pytest.raises(ValueError, match="context_tokens"):
        WindowConfig(phase="context", context_tokens=0)
    with pytest.raises(ValueError, match="bare_fraction"):
        WindowConfig(phase="context", bare_fraction=1.5)
