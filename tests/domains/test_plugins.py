"""Plug-in domains: the toy shop of docs/adding-a-domain.md, built from the document's files
as a separate package with an entry point, registers and runs in a fresh interpreter; broken
or clashing plug-ins are refused by name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-domain.md"


def guide_files() -> dict[str, str]:
    """The files the guide spells out (``File `path`:`` followed by a code block)."""
    text = GUIDE.read_text(encoding="utf-8")
    return dict(re.findall(r"File `([^`]+)`:\n\n```[a-z]*\n(.*?)```", text, re.S))


def install(site: Path, name: str, entry_points: str, files: dict[str, str]) -> None:
    """Write a package's files and a ``<name>-0.1.dist-info`` that importlib.metadata finds."""
    for path, text in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text, encoding="utf-8")
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[tool_gym.domains]\n{entry_points}\n")


def run(site: Path, script: str) -> subprocess.CompletedProcess:
    """``script`` in a fresh interpreter with ``site`` on the path (tool_gym untouched)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=site, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def toyshop(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    files = {p: t for p, t in guide_files().items() if p.startswith("toyshop/")}
    assert set(files) >= {"toyshop/__init__.py", "toyshop/schema.sql", "toyshop/policy.md",
                          "toyshop/tools.py", "toyshop/generate.py", "toyshop/tasks.py"}
    install(site, "toyshop", "toyshop = toyshop:DOMAIN", files)
    return site


def test_guide_declares_the_entry_point():
    assert '[project.entry-points."tool_gym.domains"]\ntoyshop = "toyshop:DOMAIN"' in \
        guide_files()["pyproject.toml"]


def test_toy_domain_registers_and_passes_the_checks(toyshop):
    result = run(toyshop, """
        import json
        import os
        import sys

        import anyio
        import gymnasium as gym
        from gymnasium.utils.env_checker import check_env
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        import tool_gym
        from tool_gym.agents.oracle import OraclePolicy
        from tool_gym.agents.episode_loop import run_episode
        from tool_gym.domains import domain_names, get_domain
        from tool_gym.envs.frozen import TEST_SET_DIGESTS, compute_test_set_digest

        async def mcp_listing():
            server = StdioServerParameters(command=sys.executable, env=dict(os.environ),
                                           args=["-m", "tool_gym.mcp", "toyshop"])
            async with stdio_client(server) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return [t.name for t in (await session.list_tools()).tools]

        env = gym.make("ToolToyShop-v0")
        check_env(env.unwrapped)
        wins = [run_episode(env, OraclePolicy(), seed=n, task_id=f"{split}-{n}")["success"]
                for split in ("train", "test") for n in range(8)]
        print(json.dumps({
            "names": domain_names(), "ids": tool_gym.CONVERSATION_IDS, "wins": wins,
            "tools": get_domain("toyshop").toolbox.names,
            "mcp": anyio.run(mcp_listing),
            "digest": compute_test_set_digest(env.unwrapped),
            "pinned": TEST_SET_DIGESTS["ToolToyShop-v0"],
        }))
    """)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.splitlines()[-1])
    assert out["names"][-1] == "toyshop" and out["ids"][-1] == "ToolToyShop-v0"
    assert out["wins"] == [1.0] * 16
    assert out["tools"] == ["find_customer_by_email", "list_orders", "cancel_order",
                            "transfer_to_human_agents"]
    assert out["mcp"] == out["tools"]
    assert out["digest"] == out["pinned"]


def test_plug_in_changes_no_existing_pool(toyshop, tmp_path):
    script = """
        import json
        import tool_gym
        from tool_gym.synth.chains import ChainTaskKit
        from tool_gym.synth.pool import domain_tools
        print(json.dumps({"pool": [t.key for t in domain_tools()],
                          "foreign": ChainTaskKit("banking")._foreign}))
    """
    with_plugin, without = run(toyshop, script), run(tmp_path, script)
    assert with_plugin.returncode == 0, with_plugin.stderr
    assert with_plugin.stdout == without.stdout
    assert "toyshop" not in with_plugin.stdout


def test_broken_entry_point_is_named(tmp_path):
    install(tmp_path, "broken", "broken = broken_pkg:DOMAIN",
            {"broken_pkg/__init__.py": "raise ImportError('no such thing')\n"})
    result = run(tmp_path, "import tool_gym")
    assert result.returncode != 0
    assert "PluginError" in result.stderr and "broken = broken_pkg:DOMAIN" in result.stderr


def test_plug_in_named_like_a_built_in_is_refused(tmp_path):
    install(tmp_path, "fake_retail", "retail = tool_gym.domains.retail:DOMAIN", {})
    result = run(tmp_path, "import tool_gym")
    assert result.returncode != 0
    assert "PluginError" in result.stderr and "'retail'" in result.stderr


def test_entry_point_must_name_its_own_domain(tmp_path):
    install(tmp_path, "alias", "shop = tool_gym.domains.crm:DOMAIN", {})
    result = run(tmp_path, "from tool_gym.domains import get_domain; get_domain('shop')")
    assert result.returncode != 0
    assert "PluginError" in result.stderr and "declares a domain named 'crm'" in result.stderr
