"""The catalog of the registered domains as markdown: ``python -m tool_gym.domains.catalog``
prints ``docs/domains.md`` (a test keeps the committed page equal to it)."""

from __future__ import annotations

from . import domain_names, get_domain

HEADER = """# The domains

Every registered domain: its env id, its tools and the task types of its kit. Each folder
`tool_gym/domains/<name>/` holds the schema, policy, tools, generator, invariants, task kit and
`requests.json`; `docs/graphs/<name>.png` draws its tool dependency graph. This page is
written by `python -m tool_gym.domains.catalog > docs/domains.md`.

| domain | id | tools (reads / writes / other) | task types |
|---|---|---|---|
"""


def catalog() -> str:
    """The page: one row per domain, then the totals."""
    rows, total = [], 0
    for name in domain_names():
        domain = get_domain(name)
        tools = list(domain.toolbox)
        total += len(tools)
        reads = sum(t.category.value == "read" for t in tools)
        writes = sum(t.category.value == "write" for t in tools)
        kinds = domain.tasks.constraint_types if domain.tasks is not None else ()
        ids = ", ".join(f"`{spec.id}`" for spec in domain.envs)
        rows.append(f"| {name} | {ids} | {len(tools)} ({reads} / {writes} / "
                    f"{len(tools) - reads - writes}) | {', '.join(f'`{k}`' for k in kinds)} |")
    return HEADER + "\n".join(rows) + f"\n\n{len(rows)} domains, {total} tools.\n"


if __name__ == "__main__":
    print(catalog(), end="")
