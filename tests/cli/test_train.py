"""train.py: the CPU demo in small (tiny model, SFT warm start on oracle trajectories,
GRPO with batched rollouts) learns, measured on held-out test tasks; flags; resume."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("peft")

from tool_gym.cli import train

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def weights(directory):
    from safetensors.torch import load_file

    return load_file(str(Path(directory) / "model.safetensors"))


def changed(a, b):
    return any(not torch.equal(a[k], b[k]) for k in a)


def test_help_lists_the_public_flags():
    result = subprocess.run([sys.executable, "train.py", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    for flag in ("--algo {sft,grpo}", "--env", "--model", "--output-dir", "--lora",
                 "--resume", "--warm-start-steps", "--num-generations"):
        assert flag in result.stdout, flag


def test_cpu_demo_learns_on_held_out_tasks(tmp_path):
    """SFT warm start then GRPO on ToolCall-Simple-v0 (retail functions): every phase
    changes the weights and the held-out mean reward (test split, graded PROVE reward)
    rises by at least 0.1; it is 0 for the untrained model, about 0.3 after this run."""
    out = tmp_path / "demo"
    results = train.run_command([
        "--algo", "grpo", "--env", "ToolCall-Simple-v0",
        "--env-kwargs", '{"reward": "prove", "domains": ["retail"]}',
        "--model", "tiny", "--output-dir", str(out), "--threads", "1",
        "--warm-start-steps", "200", "--warm-start-lr", "3e-3", "--sft-tasks", "300",
        "--steps", "3", "--learning-rate", "1e-4", "--batch-size", "4",
        "--num-generations", "4", "--temperature", "0.7", "--beta", "0.02",
        "--eval-tasks", "32", "--max-new-tokens", "48", "--max-turns", "1",
        "--max-context", "2048", "--save-steps", "100", "--logging-steps", "1"])
    held = results["held_out"]
    assert list(held) == ["before", "sft", "grpo"]
    for stage in held.values():
        low, high = stage["success_ci"]
        assert 0.0 <= low <= stage["success"] <= high <= 1.0
        assert stage["episodes"] == 32 and "reward" in stage
    before, after = held["before"]["reward"], held["grpo"]["reward"]
    assert after >= before + 0.1, held
    assert results["opening_context"]["total"] > results["opening_context"]["opening"] > 0
    assert results["throughput"]["tokens_per_second"] > 0
    init, sft, final = weights(out / "tiny-init"), weights(out / "sft" / "final"), \
        weights(out / "final")
    assert changed(init, sft) and changed(sft, final)
    assert json.loads((out / "results.json").read_text())["held_out"] == held
    data = [json.loads(line) for line in (out / "sft_data" / "train.jsonl").open()]
    assert data and all(row["score"] == 1.0 for row in data)
    assert {m["role"] for m in data[0]["messages"]} >= {"user", "assistant"}
    assert list((out / "grpo").glob("runs/*/events.out.tfevents.*"))  # tensorboard
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(out / "eval"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"held_out/success", "held_out/reward", "held_out/success_ci_low"} <= tags
    assert [e.step for e in events.Scalars("held_out/success")] == [0, 1, 2]


def test_sft_checkpoints_and_resume(tmp_path):
    out = tmp_path / "sft"
    common = ["--algo", "sft", "--env", "ToolCall-Simple-v0", "--model", "tiny",
              "--output-dir", str(out), "--threads", "1", "--sft-tasks", "8",
              "--batch-size", "2", "--eval-tasks", "0", "--save-steps", "2",
              "--report-to", "none", "--learning-rate", "1e-3"]
    train.run_command(common + ["--steps", "2"])
    assert (out / "sft" / "checkpoint-2").exists()
    (out / "sft" / "final" / "model.safetensors").unlink()  # as if killed after the checkpoint
    (out / "sft" / "final" / "config.json").unlink()
    train.run_command(common + ["--steps", "4", "--resume"])
    state = json.loads((out / "sft" / "checkpoint-4" / "trainer_state.json").read_text())
    assert state["global_step"] == 4 and len(state["log_history"]) >= 3  # continued


def test_lora_sft_then_grpo(tmp_path):
    """With --lora both phases train an adapter (folded into the saved weights)."""
    out = tmp_path / "lora"
    results = train.run_command([
        "--algo", "grpo", "--env", "ToolCall-Simple-v0", "--model", "tiny", "--output-dir",
        str(out), "--threads", "1", "--lora", "--lora-r", "4", "--warm-start-steps", "2",
        "--warm-start-lr", "1e-2", "--sft-tasks", "4", "--steps", "1", "--batch-size", "2",
        "--num-generations", "2", "--eval-tasks", "0", "--max-new-tokens", "8",
        "--report-to", "none"])
    assert changed(weights(out / "tiny-init"), weights(out / "sft" / "final"))
    assert set(weights(out / "final")) == set(weights(out / "tiny-init"))  # merged
    assert results["final"] == str(out / "final")


def test_turn_windows_run_before_sft_and_make_its_stage(tmp_path):
    """The four turn-window phases alone make the SFT stage (no TRL SFT steps): each is
    reported, the weights move, the tiny model has the asked shape, attention window and
    tokenizer."""
    out = tmp_path / "windows"
    results = train.run_command([
        "--algo", "sft", "--steps", "0", "--env", "ToolShopping-v0",
        "--env-kwargs", '{"prompt": "compact", "constraint_types": ["info_cart_total"]}',
        "--model", "tiny", "--tiny-hidden", "32", "--tiny-heads", "4", "--tiny-kv-heads", "4",
        "--tiny-min-frequency", "20", "--tiny-value-tokens", "--sft-tasks", "6",
        "--tiny-attention-window", "64", "--window-context-steps", "2",
        "--sft-databases", "2", "--window-steps", "3", "--window-prompt-steps", "2",
        "--window-episode-steps", "2", "--window-batch-size", "4", "--eval-tasks", "2",
        "--max-new-tokens", "16", "--max-turns", "2", "--max-context", "2048",
        "--threads", "1", "--report-to", "none", "--output-dir", str(out)])
    assert [r["phase"] for r in results["turn_windows"]] == \
        ["windows", "context", "prompted", "episodes"]
    assert [r["steps"] for r in results["turn_windows"]] == [3, 2, 2, 2]
    assert results["turn_windows"][0]["kinds"]["get_cart"] == 6
    assert set(results["held_out"]) == {"before", "sft"}
    assert changed(weights(out / "tiny-init"), weights(out / "sft" / "final"))
    config = json.loads((out / "tiny-init" / "config.json").read_text())
    assert (config["num_attention_heads"], config["num_key_value_heads"]) == (4, 4)
    assert config["sliding_window"] == 64 and config["use_sliding_window"]
    assert json.loads((out / "tiny-init" / "tiny_config.json").read_text())["min_frequency"] == 20


def test_the_readme_demo_command_is_accepted():
    """The README's CPU demo parses and passes every argument check (it is run by hand:
    about 10 minutes on 2 cores)."""
    import shlex

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Train"):]
    line = next(text for text in section.splitlines()
                if text.startswith("tool-gym-train --algo"))
    args = train.parse_args(shlex.split(line)[1:])
    train.check_args(args)
    assert args.env_id == "ToolShopping-v0" and args.eval_tasks >= 64
    assert args.window_steps and args.window_context_steps and args.tiny_attention_window
    assert train.context_tokens_of(args) == 2 * args.tiny_attention_window


@pytest.mark.parametrize("argv, message", [
    (["--lora", "--window-steps", "5"], "--window-*-steps train every weight"),
    (["--tiny-heads", "3"], "--tiny-kv-heads 2 must divide --tiny-heads 3"),
    (["--window-lr", "0"], "--window-lr must be positive"),
    (["--window-prompt-steps", "-1"], "--window-prompt-steps must be >= 0"),
    (["--window-context-steps", "5"], "--window-context-steps needs --window-context-tokens"),
    (["--tiny-attention-window", "-8"], "--tiny-attention-window must be >= 0"),
])
def test_window_and_tiny_shape_mistakes_are_one_line(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        train.run_command(argv + ["--output-dir", str(tmp_path / "x")])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not (tmp_path / "x").exists()


def test_config_file_sets_arguments_and_flags_override_it(tmp_path):
    """``--config run.yaml`` (TRL's TrlParser): the file sets fields, the command line wins;
    ``--env`` and ``--no-lora`` still work."""
    config = tmp_path / "run.yaml"
    config.write_text("env_id: ToolBanking-v0\nsteps: 7\nlora: true\nenv:\n  TOOL_GYM_X: '1'\n")
    args = train.parse_args(["--config", str(config), "--steps", "3"])
    assert (args.env_id, args.steps, args.lora) == ("ToolBanking-v0", 3, True)
    assert os.environ.pop("TOOL_GYM_X") == "1"  # TRL's env: mapping
    args = train.parse_args(["--config", str(config), "--env", "ToolCrm-v0", "--no-lora"])
    assert (args.env_id, args.steps, args.lora) == ("ToolCrm-v0", 7, False)


def test_a_prompt_longer_than_max_context_is_one_line(tmp_path, capsys):
    """GRPO whose opening prompt cannot fit ``--max-context`` stops with one line naming
    the length to use (no TRL traceback on empty completions)."""
    with pytest.raises(SystemExit) as stop:
        train.run_command(["--algo", "grpo", "--env", "ToolRetail-v0", "--steps", "1",
                           "--eval-tasks", "0", "--batch-size", "2", "--num-generations", "2",
                           "--max-context", "300", "--max-new-tokens", "64", "--threads", "1",
                           "--tiny-layers", "1", "--output-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2
    assert err[-1].startswith("tool-gym-train: error: --max-context: the prompt of task train-")
    assert "use at least" in err[-1]


@pytest.mark.parametrize("recipe", ["cove", "prove", "toolloop"])
def test_recipe_help_shows_what_it_sets(recipe):
    result = subprocess.run([sys.executable, "train.py", "--recipe", recipe, "--help"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert f"--recipe {recipe}:" in result.stdout and "paper:" in result.stdout
    args = train.parse_args(["--recipe", recipe])
    for name, value in train.RECIPES[recipe].defaults.items():
        assert getattr(args, name) == value, name
    assert train.parse_args(["--recipe", recipe, "--steps", "3"]).steps == 3  # flags win


def test_the_recipes_page_is_current():
    """``docs/recipes.md`` is what ``python -m tool_gym.cli.recipes`` prints."""
    from tool_gym.cli.recipes import markdown

    assert (ROOT / "docs" / "recipes.md").read_text() == markdown()


RECIPE_RUNS = {
    "cove": ["--env-kwargs", '{"prompt": "compact", "max_constraints": 1}',
             "--sft-tasks", "3", "--steps", "2", "--max-context", "4096"],
    "prove": ["--env-kwargs", '{"task_source": "chains", "reward": "prove", "prompt": "compact"}',
              "--steps", "1", "--batch-size", "1", "--num-generations", "2",
              "--train-tasks", "2", "--max-new-tokens", "8", "--max-turns", "2",
              "--max-context", "8192"],
    "toolloop": ["--sft-tasks", "4", "--steps", "2", "--max-new-tokens", "32"],
}


@pytest.mark.parametrize("recipe", sorted(RECIPE_RUNS))
def test_a_short_run_of_each_recipe(tmp_path, recipe):
    out = tmp_path / recipe
    results = train.run_command(["--recipe", recipe, "--output-dir", str(out), "--threads",
                                 "1", "--eval-tasks", "2", "--report-to", "none",
                                 "--batch-size", "1", *RECIPE_RUNS[recipe]])
    assert results["args"]["recipe"] == recipe
    assert results["args"]["algo"] == train.RECIPES[recipe].defaults["algo"]
    assert set(results["held_out"]) == {"before", "sft" if recipe != "prove" else "grpo"}
    if recipe != "prove":  # one GRPO step of equal returns has no advantage to follow
        assert changed(weights(out / "tiny-init"), weights(out / "final"))
    assert (out / "results.json").exists()


def test_recipe_and_vllm_mistakes_are_one_line(capsys):
    for argv, message in ((["--recipe", "nope"], "--recipe 'nope': unknown"),
                          (["--recipe"], "--recipe needs a name"),
                          (["--use-vllm", "--output-dir", "/tmp/x-vllm"], "--use-vllm")):
        with pytest.raises(SystemExit) as stop:
            train.run_command(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err
