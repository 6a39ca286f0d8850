"""The tiny model builder: offline, fast, a tool-capable chat template whose assistant
mask covers exactly what the model generates."""

import json
import time

import numpy as np

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tool_gym.agents.tiny import TinyConfig, build_tiny_model  # noqa: E402
from tool_gym.llm.transformers_backend import ChatFormat, load_model  # noqa: E402

TOOLS = [{"type": "function", "function": {
    "name": "get_order_details", "description": "Details of an order.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}},
                   "required": ["order_id"]}}}]
CALL = {"name": "get_order_details", "arguments": {"order_id": "#W1234567"}}
EPISODE = [
    {"role": "system", "content": "Follow the policy."},
    {"role": "user", "content": "Where is my order #W1234567? Ça va, 東京 ✓"},
    {"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": CALL["name"],
                                          "arguments": json.dumps(CALL["arguments"])}}]},
    {"role": "tool", "content": '{"status": "delivered"}'},
    {"role": "assistant", "content": "It was delivered. Anything else?"},
    {"role": "user", "content": "No, thanks."},
    {"role": "assistant", "content": "Goodbye!"},
]


def test_build_is_fast_offline_and_loadable(tmp_path):
    started = time.perf_counter()
    path = build_tiny_model(tmp_path / "m", ["hello world " * 20],
                            TinyConfig(vocab_size=512, hidden_size=32, intermediate_size=64))
    assert time.perf_counter() - started < 60
    model, tokenizer = load_model(path, device="cpu")
    assert model.config.model_type == "qwen2" and model.dtype == torch.float32
    assert sum(p.numel() for p in model.parameters()) < 200_000
    assert tokenizer.padding_side == "left" and tokenizer.eos_token == "<|im_end|>"
    text = 'naïve 東京 🙂 <tool_call>{"a": 1}</tool_call>'
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    assert tokenizer.decode(ids) == text  # byte-level: every string round-trips
    assert tokenizer.convert_tokens_to_ids("<tool_call>") in ids  # one token, not special
    assert "<tool_call>" in tokenizer.decode(ids, skip_special_tokens=True)


def test_template_renders_tools_and_hermes_calls(tiny):
    _, tokenizer = tiny
    text = tokenizer.apply_chat_template(EPISODE, tools=TOOLS, tokenize=False)
    assert json.dumps(TOOLS[0]) in text  # schemas in the system turn
    from tool_gym.core.actions import ToolCall

    hermes = ToolCall(CALL["name"], CALL["arguments"]).to_hermes()
    assert f"<|im_start|>assistant\n{hermes}<|im_end|>\n" in text  # what the env parses
    assert text.endswith("<|im_start|>assistant\nGoodbye!<|im_end|>\n")
    prompt = tokenizer.apply_chat_template(EPISODE[:2], tools=TOOLS, tokenize=False,
                                           add_generation_prompt=True)
    assert text.startswith(prompt) and prompt.endswith("<|im_start|>assistant\n")


def test_assistant_mask_is_exactly_the_model_tokens(tiny):
    """The SFT loss mask (TRL's assistant_only_loss) on a constructed episode: the masked
    tokens are each assistant turn's text and its <|im_end|>, nothing else."""
    _, tokenizer = tiny
    out = tokenizer.apply_chat_template(EPISODE, tools=TOOLS, return_dict=True,
                                        return_assistant_tokens_mask=True)
    ids, mask = out["input_ids"], out["assistant_masks"]
    spans, current = [], []
    for token, m in zip(ids, mask):
        if m:
            current.append(token)
        elif current:
            spans.append(current)
            current = []
    if current:
        spans.append(current)
    from tool_gym.core.actions import ToolCall

    expected = [ToolCall(CALL["name"], CALL["arguments"]).to_hermes() + "<|im_end|>",
                "It was delivered. Anything else?<|im_end|>", "Goodbye!<|im_end|>"]
    assert [tokenizer.decode(s) for s in spans] == expected
    # and every unmasked token belongs to the prompt side: system, user, tool, markup
    unmasked = tokenizer.decode([t for t, m in zip(ids, mask) if not m])
    for part in ("Follow the policy.", "Where is my order", '{"status": "delivered"}',
                 "No, thanks.", "<|im_start|>assistant\n"):
        assert part in unmasked
    assert "Goodbye" not in unmasked and "It was delivered" not in unmasked


def test_env_reply_tokens_follow_the_template(tiny):
    model, tokenizer = tiny
    fmt = ChatFormat(tokenizer, TOOLS)
    assert fmt.env_text([{"role": "tool", "content": "42"}]) == \
        "\n<|im_start|>tool\n42<|im_end|>\n<|im_start|>assistant\n"
    assert fmt.env_ids([{"role": "user", "content": "ok"}], closed=False)[0] == \
        tokenizer.eos_token_id  # a turn cut before its end gets its end-of-turn token


def test_response_template_parses_what_the_template_renders(tiny_dir):
    """TRL's tool loop reads the model's calls with ``tokenizer.parse_response``: the
    reloaded tokenizer parses an assistant turn rendered by its own chat template back
    into the same content and tool calls."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_dir)
    assert tokenizer.response_template is not None  # saved and reloaded with the tokenizer
    prompt = tokenizer.apply_chat_template(EPISODE[:2], tools=TOOLS, tokenize=False,
                                           add_generation_prompt=True)
    turn = tokenizer.apply_chat_template(EPISODE[:3], tools=TOOLS, tokenize=False)
    ids = tokenizer(turn[len(prompt):], add_special_tokens=False)["input_ids"]
    prefix = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    parsed = tokenizer.parse_response(ids, prefix=prefix)
    assert parsed["tool_calls"] == [{"type": "function", "function": CALL}]
    text = tokenizer("All done.<|im_end|>", add_special_tokens=False)["input_ids"]
    assert tokenizer.parse_response(text, prefix=prefix) == {"role": "assistant",
                                                           "content": "All done."}


def test_a_copied_value_is_the_same_tokens_in_a_message_and_in_json():
    from tool_gym.agents.tiny import build_tokenizer

    tokenizer = build_tokenizer(["You can find my account under dalia.salazar5134@example.com."],
                                value_tokens=True)
    said = tokenizer("under dalia.salazar5134@example.com.", add_special_tokens=False)
    call = tokenizer('{"email": "dalia.salazar5134@example.com"}', add_special_tokens=False)
    value = tokenizer("dalia.salazar5134@example.com", add_special_tokens=False)["input_ids"]
    for ids in (said["input_ids"], call["input_ids"]):
        assert any(ids[i:i + len(value)] == value for i in range(len(ids)))
    assert [tokenizer.decode([i]) for i in tokenizer("5134", add_special_tokens=False)[
        "input_ids"]] == ["5", "1", "3", "4"]


def test_copy_pretraining_teaches_copying_deterministically(tmp_path):
    from tool_gym.agents.tiny import copy_examples, env_texts

    texts = env_texts("ToolRetail-v0", episodes=4, env_kwargs={"prompt": "compact"})
    config = TinyConfig(hidden_size=32, intermediate_size=96, copy_steps=150, value_tokens=True,
                        copy_batch_size=16, copy_length=96)
    first = build_tiny_model(tmp_path / "a", texts, config)
    again = build_tiny_model(tmp_path / "b", texts, config)
    report = json.loads((first / "copy_pretraining.json").read_text())
    assert report["steps"] == 150 and report["copy_accuracy"] > 0.3, report
    a = load_model(first, device="cpu")[0].state_dict()
    b = load_model(again, device="cpu")[0].state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    pieces = [list(range(100 * k, 100 * k + 60)) for k in range(5)]
    ids, mask = copy_examples(pieces, np.random.default_rng(0), 4, 400)
    for row, bits in zip(ids, mask):
        assert len(row) == len(bits) == 400 and 0.2 < sum(bits) / 400 < 0.8
        # every masked run is the tail of a repeat: the run and the token before it (the
        # repeat's first, unmasked) stand earlier in the row, some far back
        runs, i = [], 0
        while i < len(bits):
            if bits[i]:
                j = i
                while j < len(bits) and bits[j]:
                    j += 1
                runs.append((i - 1, j))
                i = j
            else:
                i += 1
        distances = []
        for a, b in runs:
            span = row[a:b]
            earlier = [k for k in range(a) if row[k:k + len(span)] == span]
            assert earlier, (a, b)
            distances.append(a - earlier[-1])
        assert max(distances) > 100


def test_random_copy_pretraining_forms_an_induction_circuit_then_goes_long(tmp_path,
                                                                          monkeypatch):
    """Random-token spans: only looking back predicts them, so the loss falls only once
    the model copies; the long steps run at the long length, after the short ones."""
    import tool_gym.agents.tiny as tiny

    texts = tiny.env_texts("ToolRetail-v0", episodes=2, env_kwargs={"prompt": "compact"})
    shapes, drawn = [], []
    real = tiny.copy_examples

    def spy(pieces, rng, batch_size, length):
        shapes.append((batch_size, length))
        drawn.extend(t for p in pieces for t in p)
        return real(pieces, rng, batch_size, length)

    monkeypatch.setattr(tiny, "copy_examples", spy)
    config = TinyConfig(hidden_size=32, intermediate_size=96, copy_steps=3, copy_random=True,
                        copy_long_steps=2, copy_long_length=300, copy_long_batch_size=2,
                        copy_batch_size=4, copy_length=64)
    path = build_tiny_model(tmp_path / "m", texts, config)
    assert shapes == [(4, 64)] * 3 + [(2, 300)] * 2
    tokenizer = load_model(path, device="cpu")[1]
    assert not set(drawn) & set(tokenizer.all_special_ids)
    assert len(set(drawn)) > len(tokenizer) / 2  # random tokens, not the texts' own
    assert json.loads((path / "copy_pretraining.json").read_text())["steps"] == 5


def test_a_higher_min_frequency_keeps_random_ids_in_single_letters():
    """With the BPE's default ``min_frequency`` of 2, random ids seen a few times are
    merged into rare pieces; at 20 they stay letters, which every text trains."""
    from tool_gym.agents.tiny import build_tokenizer

    rng = np.random.default_rng(0)
    alphabet = list("abcdefghijklmnopqrstuvwxyz0123456789")
    texts = [f"Your customer id is cus_{''.join(rng.choice(alphabet, 8))}." for _ in range(400)]
    low = build_tokenizer(texts, 2048, value_tokens=True, min_frequency=2)
    high = build_tokenizer(texts, 2048, value_tokens=True, min_frequency=20)
    probe = "cus_" + "".join(rng.choice(alphabet, 8))
    assert high.tokenize(probe)[:2] == ["cus", "_"]
    assert all(len(piece) == 1 for piece in high.tokenize(probe)[2:])
    assert len(low.tokenize(probe)) < len(high.tokenize(probe))
    assert high.decode(high(probe, add_special_tokens=False)["input_ids"]) == probe


def test_an_attention_window_bounds_what_a_token_sees(tmp_path):
    """With ``attention_window`` W each of the L layers attends W tokens back, so a token's
    logits depend on the last L * (W - 1) + 1 tokens and on nothing before them."""
    path = build_tiny_model(tmp_path / "windowed", config=TinyConfig(attention_window=8))
    model, _ = load_model(path, device="cpu")
    assert (model.config.sliding_window, model.config.layer_types) == \
        (8, ["sliding_attention"] * 2)
    seen = 2 * (8 - 1) + 1
    ids = torch.randint(3, 200, (1, 60), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        last = model(input_ids=ids).logits[0, -1]
        assert torch.allclose(last, model(input_ids=ids[:, -seen:]).logits[0, -1], atol=1e-5)
        assert not torch.allclose(last, model(input_ids=ids[:, -seen + 1:]).logits[0, -1],
                                  atol=1e-5)
    with pytest.raises(ValueError, match="attention_window"):
        build_tiny_model(tmp_path / "bad", config=TinyConfig(attention_window=-1))
