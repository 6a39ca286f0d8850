"""SFT data and training: verified episodes as chat records, their token lengths reported
before training (never dropped in silence), and an exported run trained for three steps."""

import json
import warnings

import pytest

from tool_gym.agents.oracle import OraclePolicy
from tool_gym.agents.policy import RandomPolicy
from tool_gym.agents.sft import (
    LengthReport,
    SFTDataConfig,
    check_lengths,
    collect_verified,
    export_dataset,
    make_sft_trainer,
    measure_lengths,
)
from tool_gym.export import run_command as export_main

from ..test_export import write_run
from .fake_env import ENV_ID

torch = pytest.importorskip("torch")
pytest.importorskip("trl")


@pytest.fixture(scope="module")
def rows():
    """Verified fake-env episodes (task 3 is always solved by the oracle)."""
    rows = collect_verified(SFTDataConfig(env_id=ENV_ID, tasks=4, task_offset=3))
    assert rows and all(r["score"] == 1.0 and r["env_id"] == ENV_ID for r in rows)
    return rows


@pytest.fixture(scope="module")
def tokenizer(tiny_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_dir)


def sft_config(path, max_length, steps=3):
    from trl import SFTConfig

    return SFTConfig(output_dir=str(path), max_steps=steps, learning_rate=1e-2,
                     per_device_train_batch_size=2, max_length=max_length, report_to=[],
                     save_strategy="no", logging_steps=1, lr_scheduler_type="constant",
                     warmup_steps=0, disable_tqdm=True, dataset_num_proc=None, use_cpu=True)


def test_export_dataset_writes_a_loadable_directory(rows, tmp_path):
    from datasets import load_dataset

    dataset = export_dataset(rows, tmp_path / "sft_data")
    loaded = load_dataset(str(tmp_path / "sft_data"), split="train")
    assert loaded["messages"] == dataset["messages"] == [r["messages"] for r in rows]
    assert loaded["score"] == [1.0] * len(rows) and loaded["trial"] == [0] * len(rows)
    first = json.loads((tmp_path / "sft_data" / "train.jsonl").open().readline())
    assert first["tools"] == rows[0]["tools"] and first["score"] == 1.0


def test_lengths_are_reported_before_training(rows, tokenizer, tmp_path):
    dataset = export_dataset(rows)
    whole = measure_lengths(dataset, tokenizer, 10**6)
    assert whole.over == 0 and whole.examples == len(rows) and whole.longest > 50
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # all fit: nothing to say
        assert check_lengths(dataset, tokenizer, whole.longest).over == 0
    # one example whose prompt alone is longer than the max length, one that fits
    long = dict(rows[0], messages=[{"role": "user", "content": "order " * 400}]
                + rows[0]["messages"])
    mixed = export_dataset([rows[0], long])
    with pytest.warns(UserWarning, match=r"1 of 2 examples are longer than max_length="
                                         rf"{whole.longest} .* 1 of them .* dropped"):
        report = check_lengths(mixed, tokenizer, whole.longest)
    assert (report.over, report.lost) == (1, 1) and report.suggested >= report.longest
    # every example lost: an error with the length to use, before TRL drops them all
    with pytest.raises(ValueError, match=r"every example would be lost.*max_length >= \d+"):
        check_lengths(dataset, tokenizer, 8)
    with pytest.raises(ValueError, match="every example would be lost"):
        make_sft_trainer(None, tokenizer, dataset, sft_config(tmp_path / "no", 8))
    assert check_lengths(dataset, tokenizer, None) is None
    assert LengthReport(1, 10, 65, 1, 0).suggested == 128


def test_exported_run_loads_and_trains_three_steps(tmp_path, capsys, tiny_dir):
    from datasets import load_dataset

    from tool_gym.llm.transformers_backend import load_model

    run = write_run(tmp_path / "run", ENV_ID, [
        ("train-3", OraclePolicy()), ("train-0", OraclePolicy()),
        ("train-7", OraclePolicy()), ("train-1", RandomPolicy(seed=1))])
    out = tmp_path / "data"
    counts = export_main([str(run), "--only-success", "--out", str(out),
                          "--max-length", "64", "--tokenizer", str(tiny_dir)])
    printed = capsys.readouterr().out
    assert (counts["episodes"], counts["kept"], counts["dropped"]) == (4, 2, 2)
    assert "dropped by --only-success: 2" in printed
    assert counts["lengths"]["over"] == 2 and "longer than max_length=64" in printed
    dataset = load_dataset(str(out), split="train")
    source = [json.loads(line) for line in (run / "trajectories.jsonl").open()]
    wanted = [s for s in source if s["success"]]
    assert [row["messages"] for row in dataset] == [s["messages"] for s in wanted]
    assert [row["tools"] for row in dataset] == [s["tools"] for s in wanted]
    assert dataset["env_id"] == [ENV_ID] * 2 and dataset["task_id"] == ["train-3", "train-7"]

    model, tokenizer = load_model(tiny_dir, device="cpu")
    before = {k: v.clone() for k, v in model.state_dict().items()}
    trainer = make_sft_trainer(model, tokenizer, dataset, sft_config(tmp_path / "sft", 1024))
    assert trainer.length_report.over == 0
    trainer.train()
    assert trainer.state.global_step == 3
    after = model.state_dict()
    assert any(not torch.equal(before[k], after[k]) for k in before)


def test_episodes_spread_over_generated_databases():
    """``databases=N``: task k plays on database ``db_seed + k % N``, train split only;
    the users differ from one database to the next, and one database gives the same
    episodes as before."""
    kwargs = {"prompt": "compact", "constraint_types": ["info_gift_card_balance"]}
    one = collect_verified(SFTDataConfig(env_id="ToolRetail-v0", env_kwargs=kwargs, tasks=6))
    spread = collect_verified(SFTDataConfig(env_id="ToolRetail-v0", env_kwargs=kwargs,
                                            tasks=6, databases=3))
    assert len(one) == len(spread) == 6
    assert spread[0]["messages"] == one[0]["messages"]  # task 0 plays on db_seed 0

    def user(row):
        return next(m["content"] for m in row["messages"] if m["role"] == "tool")

    assert len({user(r) for r in spread[:3]}) == 3
    assert user(spread[1]) != user(one[1]) and user(spread[3]) == user(one[3])
    at_one = dict(kwargs, db_seed=1)  # the first database is env_kwargs' own
    shifted = collect_verified(SFTDataConfig(env_id="ToolRetail-v0", tasks=1, databases=2,
                                             env_kwargs=at_one))
    alone = collect_verified(SFTDataConfig(env_id="ToolRetail-v0", tasks=1, env_kwargs=at_one))
    assert shifted[0]["messages"] == alone[0]["messages"] != one[0]["messages"]
    with pytest.raises(ValueError, match="at least 1"):
        collect_verified(SFTDataConfig(env_id="ToolRetail-v0", tasks=1, databases=0))
