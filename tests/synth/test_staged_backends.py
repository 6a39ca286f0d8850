"""The staged synthesis command line names its models openai:URL#MODEL, checks the server
before any work, and sends --temperature / --max-tokens / --api-key-env."""

import pytest

from tool_gym.llm import TemplateBackend
from tool_gym.synth.staged import main

from ..llm.fake_openai import FakeOpenAIServer, answer, free_port


def refused(capsys, argv) -> str:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_bad_backends_are_refused_before_any_work(tmp_path, capsys):
    out = tmp_path / "run"
    base = ["--n", "1", "--out", str(out), "--bfcl", "no"]
    line = refused(capsys, base + ["--backend", "openai:m", "--base-url", "http://h/v1"])
    assert "--base-url is gone" in line and "openai:URL#MODEL" in line
    assert "names no model" in refused(capsys, base + ["--backend", "openai:http://h/v1"])
    assert "unknown backend 'mystery'" in refused(capsys, base + ["--verifier", "mystery"])
    assert "temperature must be" in refused(capsys, base + ["--temperature", "-1"])
    line = refused(capsys, base + ["--backend", f"openai:http://127.0.0.1:{free_port()}/v1#m"])
    assert "cannot reach the OpenAI-compatible server" in line
    with FakeOpenAIServer(models=("other",)) as server:
        line = refused(capsys, base + ["--verifier", f"openai:{server.url}#m"])
    assert "does not serve model 'm'" in line
    assert not out.exists()


def test_flags_reach_the_server(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TOOL_GYM_TEST_KEY", "secret")
    with FakeOpenAIServer(lambda body: answer("no idea"), models=("gen",)) as server:
        assert main(["--n", "1", "--out", str(tmp_path / "run"), "--bfcl", "no",
                     "--domains", "retail", "--categories", "simple", "--max-retries", "0",
                     "--backend", server.spec, "--temperature", "0.3", "--max-tokens", "50",
                     "--api-key-env", "TOOL_GYM_TEST_KEY"]) == 0
    assert [r["path"] for r in server.requests[:2]] == ["/v1/models",
                                                        "/v1/chat/completions"]
    chat = server.chats()[0]
    assert chat["auth"] == "Bearer secret" and chat["body"]["model"] == "gen"
    assert (chat["body"]["temperature"], chat["body"]["max_tokens"]) == (0.3, 50)
    assert "wrote 0 samples" in capsys.readouterr().out


def test_template_stays_the_offline_default(tmp_path):
    from argparse import Namespace

    from tool_gym.synth.staged import _cli_backends

    args = Namespace(backend="template", verifier=None, base_url=None, temperature=None,
                     max_tokens=None, api_key_env="OPENAI_API_KEY", seed=4)
    generator, verifier = _cli_backends(args)
    assert isinstance(generator, TemplateBackend) and generator.seed == 4
    assert verifier is None
    with FakeOpenAIServer(models=("judge",)) as server:
        args.verifier, args.temperature, args.max_tokens = f"openai:{server.url}#judge", 0.9, 9
        generator, verifier = _cli_backends(args)
        assert isinstance(generator, TemplateBackend) and generator.seed == 4
        assert (verifier.model, verifier.temperature, verifier.max_tokens) == ("judge", None, 9)
        args.backend, args.verifier = "openai:" + server.url + "#judge", "template"
        generator, verifier = _cli_backends(args)
        assert (generator.temperature, generator.max_tokens) == (0.9, 9)
        assert isinstance(verifier, TemplateBackend)
