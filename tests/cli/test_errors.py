"""Bad command lines: each stops before any work with exit status 2, exactly one line on
stderr (``<prog>: error: ...``) and no run directory; a ``module:Class`` policy in the
current directory is found without ``PYTHONPATH``."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents.fake_env import ENV_ID
from tool_gym.cli import checks, evaluate
from tool_gym.cli.checks import UsageError

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


EVALUATE_MISTAKES = [
    (["--env", "NoSuchEnv-v0"], "--env 'NoSuchEnv-v0': "),
    (["--env", "no_such_module_xyz:Env-v0"], "cannot import module 'no_such_module_xyz'"),
    (["--split", "valid"], "argument --split: invalid choice: 'valid'"),
    (["--split", "all"], "--split all plays tau2's tasks"),
    (["--split", "test", "--tasks", "300"],
     "--tasks 300 goes past the test split of ToolRetail-v0: test task ids go from test-0"),
    (["--tasks", "0"], "--tasks must be positive, got 0"),
    (["--tasks", "many"], "argument --tasks: invalid int value: 'many'"),
    (["--task-ids", "test-1,test-999"], "--task-ids: test task ids go from test-0 to test-199"),
    (["--task-ids", "test-1", "--tasks", "2"], "give --tasks or --task-ids, not both"),
    (["--trials", "0"], "--trials must be positive"),
    (["--env-kwargs", '{"max_turn": 3}'],
     "--env-kwargs: ToolRetail-v0 takes no 'max_turn'; did you mean 'max_turns'?"),
    (["--env-kwargs", "{oops"], "--env-kwargs must be a JSON object"),
    (["--env-kwargs", "[1]"], "--env-kwargs must be a JSON object"),
    (["--env-kwargs", '{"max_turns": "x"}'], "ToolRetail-v0's 'max_turns' takes int, got \"x\""),
    (["--env-kwargs", '{"max_turns": true}'], "'max_turns' takes int, got true"),
    (["--env-kwargs", '{"fuzziness": "high"}'], "'fuzziness' takes float"),
    (["--env-kwargs", '{"constraint_types": ["a", 2]}'], "'constraint_types' takes tuple[str"),
    (["--out", "/proc/no/such/run"], "--out /proc/no/such/run: cannot write in /proc"),
    (["--out", __file__], "a file is there, not a directory"),
    (["--env-kwargs", '{"task_source": "tau9"}'], "--env-kwargs: ToolRetail-v0: task_source"),
    (["--policy", "nosuch"], "--policy: unknown policy 'nosuch': use 'oracle', 'random'"),
    (["--policy", "json:nothing"], "--policy: policy 'json:nothing': module 'json' has no"),
    (["--policy", "no_such_module_xyz:P"], "cannot import module 'no_such_module_xyz'"),
    (["--policy", "hf:/no/such/model"], "no local model"),
    (["--policy", "openai:http://127.0.0.1:8000/v1"], "names no model"),
    (["--policy", f"openai:http://127.0.0.1:{closed_port()}/v1#m"], "cannot reach"),
    (["--env-kwargs", '{"user": "llm", "user_llm": "openai:http://127.0.0.1:8000/v1"}'],
     "--env-kwargs user_llm: 'openai:http://127.0.0.1:8000/v1' names no model"),
    (["--env-kwargs", '{"user": "llm", "user_llm": "openai:http://127.0.0.1:%d/v1#m"}'
      % closed_port()], "--env-kwargs user_llm: cannot reach"),
    (["--env-kwargs", '{"user_llm_kwargs": [1]}'], "'user_llm_kwargs' takes dict | None"),
    (["--policy", "random", "--temperature", "0.5"],
     "--temperature applies to hf: and openai: policies only"),
    (["--ray", "--ray-cpus", "0"], "--ray-cpus must be positive, got 0"),
    (["--ray", f"127.0.0.1:{closed_port()}"], "no Ray cluster answers there"),
    (["--ray", "127.0.0.1:port"], "--ray 127.0.0.1:port: no Ray cluster answers there"),
    (["--ray", "--save-trajectories"], "--save-trajectories is not supported with --ray"),
    (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
]

TRAIN_MISTAKES = [
    (["--algo", "ppo"], "argument --algo: invalid choice: 'ppo'"),
    (["--config", "missing.yaml"], "--config: cannot read missing.yaml"),
    (["--config"], "--config needs a YAML file"),
    (["--env", "NoSuchEnv-v0"], "--env 'NoSuchEnv-v0': "),
    (["--env-kwargs", '{"max_turn": 3}'], "did you mean 'max_turns'?"),
    (["--sft-policy", "no_such_module_xyz:P"], "--sft-policy: policy 'no_such_module_xyz:P'"),
    (["--model", "/no/such/model"], "--model: no local model"),
    (["--eval-tasks", "201"], "--eval-tasks 201 goes past the test split"),
    (["--algo", "grpo", "--num-generations", "1"], "--num-generations must be at least 2"),
    (["--report-to", "wandb"], "--report-to must be 'tensorboard' or 'none'"),
    (["--output-dir", "/proc/no/such/run"], "--output-dir /proc/no/such/run: cannot write"),
    (["--learning-rate", "-1"], "--learning-rate must be positive, got -1.0"),
    (["--warm-start-lr", "nan"], "--warm-start-lr must be positive, got nan"),
    (["--beta", "-0.1"], "--beta must be >= 0"),
    (["--max-context", "10"], "--max-context 10 leaves no room"),
    (["--sft-databases", "0"], "--sft-databases must be"),
    (["--env-kwargs", '{"data": "x"}', "--sft-databases", "2"], "--env-kwargs names data"),
    (["--eval-databases", "0"], "--eval-databases must be"),
    (["--env-kwargs", '{"data": "x"}', "--eval-databases", "2"], "--env-kwargs names data"),
    (["--eval-tasks", "402", "--eval-databases", "2"],
     "--eval-tasks 402 over --eval-databases 2 goes past the test split"),
    (["--tiny-corpus-episodes", "0"], "--tiny-corpus-episodes must be"),
    (["--tiny-vocab-size", "100"], "--tiny-vocab-size must be at least 300"),
]


def assert_usage_error(capsys, call, prog: str, message: str) -> None:
    with pytest.raises(SystemExit) as stop:
        call()
    captured = capsys.readouterr()
    assert stop.value.code == 2
    assert captured.err.startswith(f"{prog}: error: "), captured.err
    assert message in captured.err, captured.err
    assert captured.err.count("\n") == 1 and captured.err.endswith("\n"), captured.err


@pytest.mark.parametrize("argv,message", EVALUATE_MISTAKES,
                         ids=[" ".join(a)[:40] for a, _ in EVALUATE_MISTAKES])
def test_evaluate_mistakes_exit_2_with_one_line(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert_usage_error(capsys, lambda: evaluate.run_command(["--tasks", "1", *argv]
                                                            if "--tasks" not in argv and
                                                            "--task-ids" not in argv
                                                            else argv),
                       evaluate.PROG, message)
    assert list(tmp_path.iterdir()) == []  # no run directory


@pytest.mark.parametrize("argv,message", TRAIN_MISTAKES,
                         ids=[" ".join(a)[:40] for a, _ in TRAIN_MISTAKES])
def test_train_mistakes_exit_2_with_one_line(argv, message, tmp_path, monkeypatch, capsys):
    pytest.importorskip("trl")
    from tool_gym.cli import train

    monkeypatch.chdir(tmp_path)
    assert_usage_error(capsys, lambda: train.run_command(
        ["--algo", "sft", "--steps", "1", "--output-dir", "out", *argv]),
        train.PROG, message)
    assert list(tmp_path.iterdir()) == []


def hide_modules(monkeypatch, *names):
    """``find_spec`` as if ``names`` were not installed."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name.split(".")[0] in names else real(name, *args, **kwargs)

    monkeypatch.setattr(checks.importlib.util, "find_spec", find_spec)


@pytest.mark.parametrize("hidden,argv,line", [
    ("ray", ["--ray"], '--ray needs ray: pip install "tool_gym[distributed]"'),
    ("openai", ["--policy", "openai:http://127.0.0.1:1/v1#m"],
     '--policy openai: needs openai: pip install "tool_gym[openai]"'),
    ("torch", ["--policy", "hf:/some/model"],
     '--policy hf: needs torch: pip install "tool_gym[train]"'),
])
def test_a_missing_extra_says_what_to_install(hidden, argv, line, tmp_path, monkeypatch,
                                              capsys):
    hide_modules(monkeypatch, hidden)
    monkeypatch.chdir(tmp_path)
    assert_usage_error(capsys, lambda: evaluate.run_command(["--tasks", "1", *argv]),
                       evaluate.PROG, line)
    assert list(tmp_path.iterdir()) == []


def test_train_without_the_train_extra(tmp_path, monkeypatch, capsys):
    from tool_gym.cli import train

    hide_modules(monkeypatch, "torch", "trl")
    monkeypatch.chdir(tmp_path)
    assert_usage_error(capsys, lambda: train.run_command(["--output-dir", "out"]), train.PROG,
                       'tool-gym-train needs torch, trl: pip install "tool_gym[train]"')
    assert list(tmp_path.iterdir()) == []


def test_a_resumed_run_with_other_settings_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    common = ["--env", ENV_ID, "--tasks", "1", "--trials", "1", "--out", "run"]
    evaluate.run_command([*common, "--seed", "1"])
    before = {p.name: p.read_bytes() for p in (tmp_path / "run").iterdir()}
    capsys.readouterr()
    assert_usage_error(capsys, lambda: evaluate.run_command([*common, "--seed", "2"]),
                       evaluate.PROG, "holds a run with other settings")
    assert {p.name: p.read_bytes() for p in (tmp_path / "run").iterdir()} == before


def test_policy_kwargs_go_to_the_policy():
    assert checks.policy_kwargs("openai:http://h/v1#m", 0.7, 64, "MY_KEY") == \
        {"temperature": 0.7, "max_tokens": 64, "api_key_env": "MY_KEY"}
    assert checks.policy_kwargs("hf:/m", 0.7, 64, None) == \
        {"temperature": 0.7, "max_new_tokens": 64}
    assert checks.policy_kwargs("oracle", None, None, None) == {}
    with pytest.raises(UsageError, match="--api-key-env applies to openai: policies only"):
        checks.policy_kwargs("hf:/m", None, None, "KEY")
    with pytest.raises(UsageError, match="--max-tokens must be positive"):
        checks.policy_kwargs("openai:http://h/v1#m", None, 0, None)


POLICY = '''
class Echo:
    """Says the same thing every turn."""

    def reset(self, observation, info):
        pass

    def act(self, observation, info):
        return "Hello, how can I help?"
'''


def test_module_class_policy_in_the_current_directory(tmp_path):
    """``--policy mypkg.agent:Echo`` from the directory that holds ``mypkg``, with no
    ``PYTHONPATH``, run as a console script runs (``sys.path[0]`` is the script's folder,
    not the current directory)."""
    work, bin_dir = tmp_path / "work", tmp_path / "bin"
    (work / "mypkg").mkdir(parents=True)
    (work / "mypkg" / "__init__.py").write_text("")
    (work / "mypkg" / "agent.py").write_text(POLICY)
    bin_dir.mkdir()
    script = bin_dir / "tool-gym-evaluate"
    script.write_text("import sys\nfrom tool_gym.cli.evaluate import main\nsys.exit(main())\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, str(script), "--env", "ToolBanking-v0", "--policy", "mypkg.agent:Echo",
         "--tasks", "1", "--trials", "1", "--env-kwargs", '{"max_turns": 2}', "--out", "run"],
        cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert (work / "run" / "summary.json").exists()
