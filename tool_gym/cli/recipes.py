"""The three papers' training recipes as named presets of ``tool-gym-train --recipe NAME``.

A recipe sets the defaults of ``tool-gym-train``'s arguments; a ``--config`` file and the
flags on the command line still override any of them (recipe < config file < flags), and
``tool-gym-train --recipe NAME --help`` shows the defaults the recipe sets. Each recipe
records the paper's own settings where the paper (or its released code) gives them, and
what differs here; ``docs/recipes.md`` has the same table in prose.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = ["RECIPES", "Recipe", "markdown", "recipe_from_argv"]


@dataclass(frozen=True)
class Recipe:
    """A named preset.

    Attributes:
        name: ``--recipe`` value.
        summary: one line of what it trains.
        paper: the paper it follows.
        defaults: ``tool-gym-train`` field -> default value.
        paper_settings: what the paper reports (``"not given"`` where it gives nothing).
        differs: how this preset departs from the paper, and why.
    """

    name: str
    summary: str
    paper: str
    defaults: dict = field(default_factory=dict)
    paper_settings: dict = field(default_factory=dict)
    differs: tuple[str, ...] = ()

    def describe(self) -> str:
        """The recipe as the text ``--help`` shows."""
        lines = [f"--recipe {self.name}: {self.summary}", f"  after {self.paper}",
                 "  sets: " + ", ".join(f"--{k.replace('_', '-')} {v}"
                                        for k, v in self.defaults.items()),
                 "  paper: " + "; ".join(f"{k} {v}" for k, v in self.paper_settings.items())]
        lines += [f"  here: {d}" for d in self.differs]
        return "\n".join(lines)


RECIPES: dict[str, Recipe] = {r.name: r for r in (
    Recipe(
        name="cove",
        summary="SFT on verified trajectories only (CoVe's best setting): the oracle plays "
                "hidden-intent retail tasks, only episodes verified with score 1.0 are kept",
        paper="CoVe: Training Interactive Tool-Use Agents via Constraint-Guided "
              "Verification (Chen et al., 2026, arXiv 2603.01940)",
        defaults={"algo": "sft", "env_id": "ToolRetail-v0", "env_kwargs": "{}",
                  "sft_policy": "oracle", "sft_tasks": 12000, "learning_rate": 1e-5,
                  "batch_size": 8, "steps": 4500, "max_context": 16384, "eval_tasks": 200},
        paper_settings={"base model": "Qwen3-4B-Instruct-2507",
                        "data": "12K constraint-verified trajectories (tau2 retail, airline)",
                        "best": "SFT alone (SFT then RL did worse with their open user "
                                "simulator)",
                        "learning rate, epochs, batch, max length": "not given"},
        differs=("the trajectories are the oracle's on procedurally generated tasks "
                 "(CoVe has an LLM play them against its user simulator, then verifies): "
                 "the verification filter is the same, min score 1.0",
                 "4,500 steps of 8 = 3 epochs of 12,000; learning rate 1e-5 is ours "
                 "(the paper gives none)",
                 "one domain by default; --env ToolAirline-v0 for the other"),
    ),
    Recipe(
        name="prove",
        summary="GRPO with PROVE's five-part programmatic reward on chain tasks synthesized "
                "along the tool dependency graph",
        paper="Synthesize and Reward: Reinforcement Learning for Multi-Step Tool Use in "
              "Live Environments (PROVE; Abdelaziz et al., 2026, arXiv 2606.03892)",
        defaults={"algo": "grpo", "env_id": "ToolBanking-v0",
                  "env_kwargs": json.dumps({"task_source": "chains", "reward": "prove",
                                            "chain_config": {"p_unanswerable": 0.05}}),
                  "train_tasks": 13500, "num_generations": 8, "batch_size": 4,
                  "learning_rate": 1e-6, "beta": 0.0, "temperature": 1.0, "steps": 1000,
                  "max_turns": 20, "max_context": 16384, "eval_tasks": 200},
        paper_settings={"base models": "Qwen3-4B, Qwen3-8B, Qwen2.5-7B, Granite-4.1-8B",
                        "algorithm": "GRPO on live stateful MCP servers (20 servers, 343 "
                                     "tools)",
                        "data": "about 13.5K examples (multi-turn, clarification, "
                                "abstention)",
                        "reward": "validity, dependency-ordered coverage, adaptive "
                                  "efficiency penalty, tool name, argument values; same "
                                  "weights for every model",
                        "learning rate": "swept over three values per model family (values "
                                         "not given)",
                        "group size, batch, KL, steps": "not given"},
        differs=("one domain's chains by default (22 domains here, PROVE's 20 servers "
                 "spread over several); --env picks another",
                 "5% of the tasks are unanswerable, as in PROVE's data: an always-refusing "
                 "policy wins that share (the env's own default is none)",
                 "group size 8, batch 4 tasks, learning rate 1e-6, no KL are ours; "
                 "the reward weights are tool_gym.core.prove's defaults"),
    ),
    Recipe(
        name="toolloop",
        summary="SFT on ToolLoop's staged synthesis samples (single-turn function calling: "
                "simple, multiple, parallel, parallel-multiple), each checked stage by "
                "stage and verified by BFCL's AST rules",
        paper="ToolLoop's closed-loop staged synthesis (tool_gym.synth.staged: target functions, a "
              "query derived backwards, the calls; each stage checked and repaired); its "
              "training follows LoopTool (Zhang et al., 2025, arXiv 2511.09148)",
        defaults={"algo": "sft", "env_id": "ToolCall-v0", "env_kwargs": "{}",
                  "sft_policy": "oracle", "sft_tasks": 20000, "learning_rate": 1e-5,
                  "batch_size": 16, "steps": 2500, "max_turns": 1, "max_context": 4096,
                  "max_new_tokens": 1024, "eval_tasks": 200},
        paper_settings={"base model": "Qwen3-8B (LoopTool-8B), Qwen3-32B",
                        "data": "LoopTool-23k",
                        "training (released script)": "GRPO with verl: learning rate 1e-6, "
                        "256 prompts a step, 16 rollouts each, 4 epochs, no KL, prompt "
                        "4096 / response 1024 tokens",
                        "SFT settings": "not given (the loop trains with GRPO)"},
        differs=("SFT on the verified samples, the supervised half of the loop; "
                 "--algo grpo --learning-rate 1e-6 --num-generations 16 --beta 0 gives "
                 "LoopTool's GRPO settings on the same tasks",
                 "20,000 samples, 2,500 steps of 16 = 2 epochs, learning rate 1e-5 are ours"),
    ),
)}


def recipe_from_argv(argv: list[str]) -> Recipe | None:
    """The recipe ``argv`` names with ``--recipe NAME`` or ``--recipe=NAME`` (``None``
    when none); an unknown name is a :class:`~tool_gym.cli.checks.UsageError`."""
    from tool_gym.cli.checks import UsageError

    name = None
    for i, arg in enumerate(argv):
        if arg == "--recipe":
            if i + 1 >= len(argv):
                raise UsageError(f"--recipe needs a name: one of {', '.join(RECIPES)}")
            name = argv[i + 1]
        elif arg.startswith("--recipe="):
            name = arg.partition("=")[2]
    if name is None:
        return None
    if name not in RECIPES:
        raise UsageError(f"--recipe {name!r}: unknown; use one of {', '.join(RECIPES)}")
    return RECIPES[name]


def markdown() -> str:
    """``docs/recipes.md``: every recipe's flags, the paper's settings and what differs."""
    out = ["# Training recipes (`tool-gym-train --recipe NAME`)", "",
           "The three papers' recipes as named presets (`tool_gym/cli/recipes.py`). A recipe "
           "sets the defaults of `tool-gym-train`'s flags; a `--config` file and the flags on "
           "the command line override any of them (recipe < config file < flags). "
           "`tool-gym-train --recipe NAME --help` prints what it sets. The paper rows say "
           "what each paper (or its released code) reports, `not given` where it reports "
           "nothing; a recipe never invents a paper's number.", "",
           "Generated from `RECIPES`: `python -m tool_gym.cli.recipes > docs/recipes.md`.", ""]
    for r in RECIPES.values():
        out += [f"## `--recipe {r.name}`", "", r.summary + ".", "", f"After {r.paper}.", "",
                "| flag | default |", "|---|---|"]
        out += [f"| `--{k.replace('_', '-')}` | `{v}` |" for k, v in r.defaults.items()]
        out += ["", "| the paper | |", "|---|---|"]
        out += [f"| {k} | {v} |" for k, v in r.paper_settings.items()]
        out += ["", "What differs here:", ""] + [f"- {d}" for d in r.differs] + [""]
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown(), end="")
