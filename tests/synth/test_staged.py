"""Staged synthesis: every sample passes every check and runs, the loop repairs with
feedback, discards are counted, the ablation modes behave, the CLI writes its files."""

import importlib.util
import json

import pytest

from tool_gym.core.ast_match import check
from tool_gym.synth.formats import CATEGORIES, FunctionTask, read_jsonl
from tool_gym.synth.pool import cached_pool
from tool_gym.synth.staged import (STAGES, StagedConfig, StagedSynthesizer, SynthesisStats,
                                   audit, main, names_in, naturalness_problems, task_phrase)

HAS_BFCL = importlib.util.find_spec("bfcl_eval") is not None


@pytest.fixture(scope="module")
def pool():
    return cached_pool()


@pytest.fixture(scope="module")
def result(pool):
    return StagedSynthesizer(pool, categories=CATEGORIES).run(60)


def test_every_sample_passes_every_check_and_runs(result):
    assert len(result.tasks) >= 55
    assert {t.category for t in result.tasks} == set(CATEGORIES)
    for task in result.tasks:
        assert audit(task) == [], task.id
        assert check(task.functions, task.calls, task.answers, task.category).valid
        if task.category in ("parallel", "parallel_multiple"):
            assert 2 <= len(task.calls) <= 4
        elif task.category != "irrelevance":
            assert len(task.calls) == 1
        if task.category == "multiple":
            assert len(task.functions) >= 2
        if task.category == "parallel":
            assert len({c["function"]["name"] for c in task.calls}) == 1
        if task.category == "parallel_multiple":
            assert len({c["function"]["name"] for c in task.calls}) >= 2
        for call in task.calls:  # OpenAI format
            assert call["type"] == "function" and call["id"].startswith("call_")
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
        names = [f["name"] for f in task.functions]
        assert len(names) == len(set(names))
        json.dumps(task.to_dict())


def test_retry_table(result):
    stats = result.stats
    table = stats.table()
    header = table.splitlines()[0].split()
    assert header == ["stage", "0", "1", "2", "3", "discarded"]
    assert [line.split()[0] for line in table.splitlines()[1:4]] == list(STAGES)
    assert stats.total == 60 and stats.kept == len(result.tasks)
    # each row counts the samples that reached the stage
    assert sum(stats.passed["targets"]) + stats.discarded["targets"] == 60
    assert sum(stats.passed["calls"]) == stats.kept
    assert sum(sum(row[1:]) for row in stats.passed.values()) > 0  # something was repaired


def test_deterministic_by_seed(pool, result):
    again = StagedSynthesizer(pool, categories=CATEGORIES).run(20)
    assert [t.to_dict() for t in again.tasks] == [t.to_dict() for t in result.tasks
                                                   if int(t.id.rsplit("-", 1)[1]) < 20]
    other = StagedSynthesizer(pool, categories=CATEGORIES, seed=1).run(5)
    assert [t.question for t in other.tasks] != [t.question for t in again.tasks[:5]]


class Scripted:
    """A generator that replays scripted replies per stage and records the messages."""

    def __init__(self, replies):
        self.replies = {stage: list(r) for stage, r in replies.items()}
        self.seen = []

    def generate(self, messages, template=None, context=None, **kw):
        stage = template.split(".")[1]
        self.seen.append((stage, [dict(m) for m in messages]))
        queue = self.replies[stage]
        return queue.pop(0) if len(queue) > 1 else queue[0]


def _simple_scenario(pool):
    synth = StagedSynthesizer(pool, categories=("simple",))
    index = next(i for i in range(200)
                 if pool.tools[synth._scenario(i, "simple").offered[0]].name == "get_order_details")
    order_id = next(a["order_id"] for a in pool.banks["retail/get_order_details"])
    return index, order_id


def test_feedback_names_the_problem_and_shows_the_failed_output(pool):
    index, order_id = _simple_scenario(pool)
    plan = [{"name": "get_order_details", "arguments": {"order_id": order_id}}]
    bad_query = json.dumps({"query": f"Use get_order_details for {order_id}.", "calls": plan})
    good_query = json.dumps({"query": f"Where is my order {order_id}? Please check it.",
                             "calls": plan})
    call = {"role": "assistant", "content": None, "tool_calls": [{
        "id": "c1", "type": "function", "function": {
            "name": "get_order_details", "arguments": json.dumps({"order_id": order_id})}}]}
    generator = Scripted({"targets": ['{"functions": ["get_order_details"]}'],
                          "query": [bad_query, bad_query, good_query],
                          "calls": [json.dumps(call)]})
    synth = StagedSynthesizer(pool, generator, categories=("simple",))
    task = synth.sample(index)
    assert isinstance(task, FunctionTask), task
    assert task.meta["retries"] == {"targets": 0, "query": 2, "calls": 0}
    last_query_prompt = [m for stage, m in generator.seen if stage == "query"][-1]
    roles = [m["role"] for m in last_query_prompt]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    assert last_query_prompt[2]["content"] == bad_query  # the failed output, then feedback
    assert "query.names_function" in last_query_prompt[3]["content"]
    assert "get_order_details" in last_query_prompt[3]["content"]
    assert audit(task) == []


def test_discarded_after_three_retries_with_its_reason(pool):
    index, order_id = _simple_scenario(pool)
    plan = [{"name": "get_order_details", "arguments": {"order_id": order_id}}]
    missing = json.dumps({"query": "Where is my latest order? Please check it.", "calls": plan})
    generator = Scripted({"targets": ['{"functions": ["get_order_details"]}'],
                          "query": [missing], "calls": ["{}"]})
    synth = StagedSynthesizer(pool, generator, categories=("simple",))
    discard = synth.sample(index)
    assert not isinstance(discard, FunctionTask)
    assert discard.stage == "query" and discard.reason == "query.missing_value"
    assert discard.attempts == 4
    assert len([s for s, _ in generator.seen if s == "query"]) == 4
    stats = SynthesisStats()
    synth._count(stats, discard)
    assert stats.discarded["query"] == 1 and stats.passed["targets"][0] == 1


def test_verifier_failure_is_repaired(pool):
    class Picky:
        def __init__(self):
            self.calls = 0

        def generate(self, messages, **kw):
            self.calls += 1
            return "FAIL: the request is vague" if self.calls == 1 else "PASS"

    verifier = Picky()
    synth = StagedSynthesizer(pool, verifier=verifier, categories=("simple",), noise=0.0)
    task = synth.sample(0)
    assert isinstance(task, FunctionTask)
    assert task.meta["retries"]["targets"] == 1 and verifier.calls == 4


@pytest.mark.parametrize("mode", ["retry", "filter", "none"])
def test_ablation_modes(pool, mode):
    run = StagedSynthesizer(pool, categories=CATEGORIES, feedback=mode, noise=0.5).run(30)
    if mode == "retry":
        assert all(audit(t) == [] for t in run.tasks)
    if mode == "filter":
        assert all(audit(t) == [] for t in run.tasks)
        assert all(set(t.meta["retries"].values()) == {0} for t in run.tasks)
        assert run.discards  # at a mistake rate of 0.5 some samples fail the end check
    if mode == "none":
        assert any(t.meta.get("unchecked_problems") for t in run.tasks)
        assert len(run.tasks) >= 15  # only unparseable stages are lost


def test_config_validation(pool):
    with pytest.raises(ValueError):
        StagedConfig(feedback="sometimes")
    with pytest.raises(ValueError):
        StagedConfig(categories=("nested",))
    with pytest.raises(ValueError):
        StagedSynthesizer(pool, max_parallel=1)


def test_query_rules():
    assert names_in("Please use get_order_details now.", ["get_order_details"])
    assert names_in("Help me, using calculate for 2 + 2.", ["calculate"])
    assert not names_in("Please calculate 2 + 2.", ["calculate"])
    assert naturalness_problems("order_id=#W1", ["#W1"])
    assert not naturalness_problems("Where is my order #W1?", ["#W1"])
    phrase = task_phrase("Retrieves the weather for a city.", "w")
    assert phrase == "retrieve the weather for a city"
    assert task_phrase("The current status of a flight.", "s").startswith("look up the")


def test_command_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["--n", "25", "--out", str(out), "--seed", "3", "--bfcl", "no"]) == 0
    printed = capsys.readouterr().out
    assert "stage" in printed and "discarded" in printed and "targets" in printed
    samples = read_jsonl(out / "samples.jsonl")
    assert samples and all(audit(FunctionTask.from_dict(s)) == [] for s in samples)
    stats = json.loads((out / "stats.json").read_text())
    assert stats["kept"] == len(samples) and stats["total"] == 25
    assert (out / "retry_table.txt").read_text().startswith("stage")
    chat = read_jsonl(out / "hf_chat.jsonl")
    assert len(chat) == len(samples)
    assert chat[0]["messages"][0]["role"] == "user" and chat[0]["tools"]
    assert any((out / "bfcl").glob("BFCL_v4_synth_*.json"))


@pytest.mark.skipif(not HAS_BFCL, reason="bfcl-eval is not installed (optional extra)")
def test_synthesized_samples_pass_bfcl_own_checker(result, tmp_path):
    from tests.core.test_ast_match import bfcl_checker
    from tool_gym.synth import bfcl

    verdict = bfcl_checker()
    for task in result.tasks:
        if task.category == "irrelevance":
            continue
        calls = [(c["function"]["name"], json.loads(c["function"]["arguments"]))
                 for c in task.calls]
        assert verdict(task, calls), task.id
        if len(calls) > 1:
            assert verdict(task, calls[::-1]), task.id
            assert not verdict(task, calls[1:]), task.id
    paths = bfcl.export(result.tasks, tmp_path, "synth")
    rows = read_jsonl(paths[0])
    assert len(rows) == len(result.tasks) and rows[0]["question"][0][0]["role"] == "user"
