"""Shared fixtures of the model tests: one tiny model per session, built offline."""

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory):
    """A tiny Qwen2 model and BPE tokenizer, trained on texts of the fake and retail envs."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    torch.set_num_threads(1)  # tiny matrices: threads only contend on a shared machine
    from tool_gym.agents.tiny import build_tiny_model, env_texts

    from .fake_env import ENV_ID
    from .lockstep_env import ENV_ID as LOCKSTEP_ID

    texts = env_texts(ENV_ID, 4) + env_texts(LOCKSTEP_ID, 4) + env_texts("ToolRetail-v0", 4)
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", texts)


@pytest.fixture(scope="session")
def tiny(tiny_dir):
    """``(model, tokenizer)`` of the tiny model, fp32 on CPU."""
    from tool_gym.llm.transformers_backend import load_model

    return load_model(tiny_dir, device="cpu")
