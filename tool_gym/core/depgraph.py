"""The tool dependency graph (PROVE): which tool's results feed which tool's inputs.

Nodes are tools; an edge ``A -> B`` says that B may follow A in a chain of calls:

- **explicit**: an entity type that A returns (``Tool.output_entities``) is a *required*
  input of B (``Tool.input_entities`` restricted to ``Tool.required``), e.g.
  ``get_user_details -> get_order_details`` (``order_id``);
- **implicit**: A is a WRITE tool and an entity type whose state A creates or changes
  (``Tool.writes``) is one whose state B needs (``Tool.needs``), e.g. a cancellation
  followed by a read of the cancelled order. A tool that declares no ``needs`` is taken,
  when ``infer_needs`` is true (the default), to need the state of the entity types of
  its required inputs; such edges carry ``inferred=True``. Pass ``infer_needs=False`` for
  the declared edges only.

Self-loops are left out. Edge attributes: ``explicit`` (entity types), ``params`` (the
parameters of B they bind), ``implicit`` (entity types), ``inferred``, ``kind``
(``"explicit"``, ``"implicit"`` or ``"both"``) and, in the graph across domains,
``cross_domain``. Node attributes: ``domain``, ``tool``, ``category``, ``required``,
``inputs`` (param -> entity type), ``outputs`` (result path -> entity type), ``writes``,
``needs``.

Across domains (:func:`build_cross_graph`) nodes are named ``"<domain>/<tool>"`` and,
with ``cross_edges``, an explicit edge also joins tools of different domains that share an
entity type name (``cross_domain=True``).

The module also reads entity values out of a tool's result (:func:`extract_entities`,
following the ``output_entities`` paths: ``"."`` the result itself, ``"a.b"`` through
objects and lists, ``"*"`` every value of an object; a list yields its elements and an
object its keys) and derives the data-flow dependencies of a sequence of calls
(:func:`call_dependencies`), the dependency order that PROVE's coverage checks.

Export: ``python -m tool_gym.core.depgraph --out docs/graphs`` writes, for every domain
(:func:`tool_gym.domains.domain_names`), ``<domain>.json`` (node-link JSON),
``<domain>.graphml`` and ``<domain>.png``, and ``all.json`` / ``all.graphml`` for the graph
across domains (``--png-all`` also draws its overview, one node per domain, as
``all.png``: :func:`draw_overview`).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import networkx as nx

from .domain import Domain, known_domains, lookup_domain
from .tools import Category, Tool, Toolbox

__all__ = [
    "EntityRef",
    "build_cross_graph",
    "build_graph",
    "call_dependencies",
    "domain_overview",
    "draw",
    "draw_overview",
    "export",
    "extract_entities",
    "graph_json",
    "needs_of",
    "parse_result",
    "write_graphml",
]


# ------------------------------------------------------------------------- building


def _toolbox(source: str | Domain | Toolbox) -> tuple[str, Toolbox]:
    if isinstance(source, Toolbox):
        return "", source
    domain = lookup_domain(source) if isinstance(source, str) else source
    return domain.name, domain.toolbox


def needs_of(t: Tool, infer_needs: bool = True) -> tuple[tuple[str, ...], bool]:
    """Entity types whose state ``t`` needs, and whether they were inferred (no
    declaration: the entity types of its required inputs)."""
    if t.needs or not infer_needs:
        return tuple(t.needs), False
    required = set(t.required)
    return tuple(sorted({e for p, e in t.input_entities.items() if p in required})), True


def _required_inputs(t: Tool) -> dict[str, str]:
    required = set(t.required)
    return {p: e for p, e in t.input_entities.items() if p in required}


def _node_attributes(domain: str, t: Tool) -> dict:
    return {
        "domain": domain,
        "tool": t.name,
        "category": t.category.value,
        "required": list(t.required),
        "inputs": dict(t.input_entities),
        "outputs": dict(t.output_entities),
        "writes": list(t.writes),
        "needs": list(t.needs),
    }


def _edge(a: Tool, b: Tool, infer_needs: bool) -> dict | None:
    """Attributes of the edge ``a -> b``, or ``None`` when there is none."""
    produced = set(a.output_entities.values())
    inputs = _required_inputs(b)
    params = sorted(p for p, e in inputs.items() if e in produced)
    explicit = sorted({inputs[p] for p in params})
    implicit: list[str] = []
    inferred = False
    if a.category is Category.WRITE and a.writes:
        needs, inferred = needs_of(b, infer_needs)
        implicit = sorted(set(a.writes) & set(needs))
    if not explicit and not implicit:
        return None
    kind = "both" if explicit and implicit else ("explicit" if explicit else "implicit")
    return {"explicit": explicit, "params": params, "implicit": implicit,
            "inferred": bool(implicit) and inferred, "kind": kind}


def build_graph(source: str | Domain | Toolbox, *, infer_needs: bool = True) -> nx.DiGraph:
    """The dependency graph of one domain's tools (nodes named by tool name)."""
    name, toolbox = _toolbox(source)
    graph = nx.DiGraph(domain=name)
    tools = list(toolbox)
    for t in tools:
        graph.add_node(t.name, **_node_attributes(name, t))
    for a in tools:
        for b in tools:
            if a.name == b.name:
                continue
            attributes = _edge(a, b, infer_needs)
            if attributes is not None:
                graph.add_edge(a.name, b.name, **attributes)
    return graph


def build_cross_graph(domains: Iterable[str] | None = None, *, infer_needs: bool = True,
                      cross_edges: bool = True) -> nx.DiGraph:
    """The graph over the tools of several domains (default: every domain of the table).

    Nodes are ``"<domain>/<tool>"``. Edges within a domain are those of
    :func:`build_graph`; with ``cross_edges``, explicit edges also join tools of two
    domains through a shared entity type name (``cross_domain=True``).
    """
    names = list(known_domains() if domains is None else domains)
    graph = nx.DiGraph(domain="*")
    tools: list[tuple[str, Tool]] = []
    for name in names:
        for t in lookup_domain(name).toolbox:
            tools.append((name, t))
            graph.add_node(f"{name}/{t.name}", **_node_attributes(name, t))
    for da, a in tools:
        for db, b in tools:
            if da == db and a.name == b.name:
                continue
            if da != db and not cross_edges:
                continue
            attributes = _edge(a, b, infer_needs)
            if attributes is None:
                continue
            if da != db:  # across domains only shared data can flow, not state
                if not attributes["explicit"]:
                    continue
                attributes.update(implicit=[], inferred=False, kind="explicit")
            graph.add_edge(f"{da}/{a.name}", f"{db}/{b.name}", cross_domain=da != db,
                           **attributes)
    return graph


# -------------------------------------------------------------------------- export


def graph_json(graph: nx.DiGraph) -> dict:
    """A JSON-ready node-link description (deterministic order)."""
    return {
        "directed": True,
        "graph": dict(graph.graph),
        "nodes": [{"id": n, **graph.nodes[n]} for n in sorted(graph.nodes)],
        "edges": [{"source": a, "target": b, **graph.edges[a, b]}
                  for a, b in sorted(graph.edges)],
    }


def _scalar(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Mapping):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, (list, tuple, set)):
        return ",".join(str(v) for v in value)
    return str(value)


def write_graphml(graph: nx.DiGraph, path: str | Path) -> None:
    """GraphML (list and dict attributes joined into comma-separated strings)."""
    flat = nx.DiGraph(**{k: _scalar(v) for k, v in graph.graph.items()})
    for n in sorted(graph.nodes):
        flat.add_node(n, **{k: _scalar(v) for k, v in graph.nodes[n].items()})
    for a, b in sorted(graph.edges):
        flat.add_edge(a, b, **{k: _scalar(v) for k, v in graph.edges[a, b].items()})
    nx.write_graphml(flat, str(path))


def _column(graph: nx.DiGraph, node: str) -> int:
    """Layout column: entry points, other reads, writes, generic tools."""
    data = graph.nodes[node]
    if data["category"] == Category.GENERIC.value:
        return 3
    if data["category"] == Category.WRITE.value:
        return 2
    required = set(data["required"])
    return 1 if any(p in required for p in data["inputs"]) else 0


def _layout(graph: nx.DiGraph) -> dict:
    columns: dict[int, list[str]] = {}
    for n in sorted(graph.nodes):
        columns.setdefault(_column(graph, n), []).append(n)
    height = max((len(v) for v in columns.values()), default=1)
    positions = {}
    for x, nodes in columns.items():
        offset = (height - len(nodes)) / 2
        for y, n in enumerate(nodes):
            positions[n] = (x * 3.0, -(offset + y))
    return positions


def draw(graph: nx.DiGraph, path: str | Path, title: str | None = None) -> None:
    """A PNG picture: columns of entry points, reads, writes and generic tools; explicit
    edges solid blue, implicit-only edges dashed orange (cross-domain edges dotted)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    positions = _layout(graph)
    height = max(4.0, 0.55 * max((sum(1 for n in graph if _column(graph, n) == c)
                                  for c in range(4)), default=1) + 1.5)
    fig, ax = plt.subplots(figsize=(14, height))
    colours = {0: "#7fc97f", 1: "#80b1d3", 2: "#fb8072", 3: "#cccccc"}
    explicit = [(a, b) for a, b, d in graph.edges(data=True)
                if d["explicit"] and not d.get("cross_domain")]
    implicit = [(a, b) for a, b, d in graph.edges(data=True)
                if not d["explicit"] and not d.get("cross_domain")]
    cross = [(a, b) for a, b, d in graph.edges(data=True) if d.get("cross_domain")]
    columns = {n: _column(graph, n) for n in graph.nodes}

    def edges(edgelist, same, **style):
        chosen = sorted(e for e in edgelist if (columns[e[0]] == columns[e[1]]) == same)
        if chosen:
            nx.draw_networkx_edges(graph, pos=positions, ax=ax, edgelist=chosen, arrows=True,
                                   arrowsize=9, node_size=900,
                                   connectionstyle=f"arc3,rad={0.45 if same else 0.06}",
                                   **style)

    for same in (False, True):
        edges(explicit, same, edge_color="#3b6ea8", width=0.9, alpha=0.55)
        edges(implicit, same, edge_color="#e6862e", width=0.9, style="dashed", alpha=0.7)
        edges(cross, same, edge_color="#999999", width=0.5, style="dotted", alpha=0.4)
    nodes = sorted(graph.nodes)
    nx.draw_networkx_nodes(graph, positions, nodelist=nodes, ax=ax, node_size=900,
                           node_color=[colours[_column(graph, n)] for n in nodes],
                           edgecolors="#444444", linewidths=0.6)
    nx.draw_networkx_labels(graph, positions, ax=ax, font_size=7,
                            labels={n: graph.nodes[n]["tool"] if not graph.graph.get("domain")
                                    == "*" else n for n in nodes})
    for x, label in enumerate(("entry reads", "reads", "writes", "generic")):
        ax.text(x * 3.0, 0.7, label, ha="center", fontsize=10, fontweight="bold")
    n_exp = sum(1 for *_, d in graph.edges(data=True) if d["explicit"])
    n_imp = sum(1 for *_, d in graph.edges(data=True) if d["implicit"])
    ax.set_title(f"{title or graph.graph.get('domain', '')}: {graph.number_of_nodes()} tools, "
                 f"{graph.number_of_edges()} edges ({n_exp} explicit, {n_imp} implicit)", pad=30)
    ax.axis("off")
    fig.tight_layout()
    _save(fig, path)


def _save(fig, path: str | Path) -> None:
    """The figure as a PNG of 64 colours (a quarter of the bytes of matplotlib's own for
    these line drawings: the figures are committed under docs/graphs)."""
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    buffer.seek(0)
    with Image.open(buffer) as image:
        image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(
            str(path), format="PNG", optimize=True)


def domain_overview(cross: nx.DiGraph) -> nx.DiGraph:
    """The graph across domains folded to one node per domain: node ``tools`` (how many),
    ``writes``, ``edges`` (within the domain); an edge ``A -> B`` where a tool of A feeds a
    tool of B, with ``count`` (tool-to-tool edges) and ``entities`` (the shared entity
    types, most frequent first)."""
    overview = nx.DiGraph(domain="overview")
    for node, data in cross.nodes(data=True):
        name = data["domain"]
        if name not in overview:
            overview.add_node(name, tools=0, writes=0, edges=0)
        overview.nodes[name]["tools"] += 1
        overview.nodes[name]["writes"] += data["category"] == "write"
    shared: dict[tuple[str, str], dict[str, int]] = {}
    for a, b, data in cross.edges(data=True):
        da, db = cross.nodes[a]["domain"], cross.nodes[b]["domain"]
        if da == db:
            overview.nodes[da]["edges"] += 1
            continue
        counts = shared.setdefault((da, db), {})
        for entity in data["explicit"]:
            counts[entity] = counts.get(entity, 0) + 1
    for (da, db), counts in sorted(shared.items()):
        overview.add_edge(da, db, count=sum(counts.values()),
                          entities=sorted(counts, key=lambda e: (-counts[e], e)))
    return overview


def draw_overview(cross: nx.DiGraph, path: str | Path) -> None:
    """The cross-domain overview as a PNG: one circle per domain (area by its tool count,
    labelled with its tools and edges), and a grey line between two domains whose tools
    share an entity type (width by the tool-to-tool edges, labelled with the types; a type
    that joins more than half the domains, such as a user id, is named in the title). The
    tool-level graph of each domain is in its own figure (:func:`draw`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    overview = domain_overview(cross)
    names = sorted(overview.nodes)
    positions = nx.circular_layout(names)
    fig, ax = plt.subplots(figsize=(13, 13))
    # An entity type that joins most domains (a user id) would join every pair: it is named
    # in the title instead of drawn.
    reach: dict[str, set[str]] = {}
    for a, b, data in overview.edges(data=True):
        for entity in data["entities"]:
            reach.setdefault(entity, set()).update((a, b))
    common = sorted(e for e, domains in reach.items() if len(domains) > len(names) / 2)
    undirected: dict[tuple[str, str], tuple[int, list[str]]] = {}
    for a, b, data in overview.edges(data=True):
        entities = [e for e in data["entities"] if e not in common]
        if not entities:
            continue
        key = tuple(sorted((a, b)))
        count, seen = undirected.get(key, (0, []))
        undirected[key] = (count + data["count"], seen + [e for e in entities if e not in seen])
    if undirected:
        most = max(count for count, _ in undirected.values())
        for (a, b), (count, entities) in sorted(undirected.items()):
            (xa, ya), (xb, yb) = positions[a], positions[b]
            ax.plot([xa, xb], [ya, yb], color="#8c8c8c", alpha=0.5,
                    linewidth=0.8 + 3.5 * count / most, zorder=1)
            ax.text((xa + xb) / 2, (ya + yb) / 2, ", ".join(entities[:2]), fontsize=7,
                    color="#555555", ha="center", va="center", zorder=2,
                    bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.7, "pad": 0.5})
    for name in names:
        data = overview.nodes[name]
        x, y = positions[name]
        ax.scatter([x], [y], s=60 * data["tools"] + 200, color="#80b1d3",
                   edgecolors="#444444", linewidths=0.8, zorder=3)
        ax.text(x, y, f"{name}\n{data['tools']} tools, {data['edges']} edges", fontsize=8,
                ha="center", va="center", zorder=4)
    tools = sum(overview.nodes[n]["tools"] for n in names)
    joined = f"; {', '.join(common)} joins most domains (not drawn)" if common else ""
    ax.set_title(f"{len(names)} domains, {tools} tools. Lines: the tools of two domains share "
                 f"an entity type (width: how many tool pairs){joined}", fontsize=11)
    ax.set_xlim(-1.25, 1.25)
    ax.set_ylim(-1.25, 1.25)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    _save(fig, path)


def sizes(graph: nx.DiGraph) -> dict:
    """Counts of nodes and edges by kind."""
    edges = list(graph.edges(data=True))
    return {
        "nodes": graph.number_of_nodes(),
        "edges": len(edges),
        "explicit": sum(1 for *_, d in edges if d["explicit"]),
        "implicit": sum(1 for *_, d in edges if d["implicit"]),
        "implicit_declared": sum(1 for *_, d in edges if d["implicit"] and not d["inferred"]),
        "cross_domain": sum(1 for *_, d in edges if d.get("cross_domain")),
    }


def export(out: str | Path, domains: Sequence[str] | None = None, png: bool = True,
           png_all: bool = False, infer_needs: bool = True) -> dict:
    """Write JSON, GraphML (and PNG) per domain and across domains; return the sizes."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = list(known_domains() if domains is None else domains)
    report = {}
    for name in names:
        graph = build_graph(name, infer_needs=infer_needs)
        (out / f"{name}.json").write_text(json.dumps(graph_json(graph), indent=1) + "\n")
        write_graphml(graph, out / f"{name}.graphml")
        if png:
            draw(graph, out / f"{name}.png", title=name)
        report[name] = sizes(graph)
    cross = build_cross_graph(names, infer_needs=infer_needs)
    (out / "all.json").write_text(json.dumps(graph_json(cross), indent=1) + "\n")
    write_graphml(cross, out / "all.graphml")
    if png_all:
        draw_overview(cross, out / "all.png")
    report["*"] = sizes(cross)
    return report


# ------------------------------------------------------------------ entity values


@dataclass(frozen=True)
class EntityRef:
    """An entity value found in a result: its type, the path it was found at, and the
    object around it (for the values of sibling fields)."""

    type: str
    value: Any
    path: str
    context: Any = None


def parse_result(content: str) -> Any:
    """A tool result as data: JSON when it parses, else the text itself."""
    if not isinstance(content, str):
        return content
    try:
        return json.loads(content)
    except ValueError:
        return content


def _walk(value: Any, parts: list[str], context: Any) -> Iterable[tuple[Any, Any]]:
    if isinstance(value, list):
        for item in value:
            yield from _walk(item, parts, context)
        return
    if not parts:
        if isinstance(value, dict):
            for key, item in value.items():
                yield key, item if isinstance(item, dict) else value
        elif value is not None:
            yield value, context
        return
    head, rest = parts[0], parts[1:]
    if not isinstance(value, dict):
        return
    if head == "*":
        for item in value.values():
            yield from _walk(item, rest, value)
    elif head in value:
        yield from _walk(value[head], rest, value)


def extract_entities(t: Tool, result: Any) -> list[EntityRef]:
    """Entity values in a result of tool ``t`` (JSON text or data), by its output paths."""
    data = parse_result(result) if isinstance(result, str) else result
    found: list[EntityRef] = []
    seen: set = set()
    for path, entity in t.output_entities.items():
        parts = [] if path == "." else path.split(".")
        for value, context in _walk(data, parts, data if isinstance(data, dict) else None):
            if isinstance(value, (dict, list)) or isinstance(value, bool):
                continue
            key = (entity, json.dumps(value), path)
            if key in seen:
                continue
            seen.add(key)
            found.append(EntityRef(entity, value, path, context))
    return found


def _flat(value: Any) -> list:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


def call_dependencies(toolbox: Toolbox, calls: Sequence[tuple[str, dict]],
                      results: Sequence[Any], infer_needs: bool = True
                      ) -> list[tuple[int, ...]]:
    """For each call, the earlier calls it depends on (indices), by data flow:

    - call ``j`` produced (first, among the calls before ``i``) a value of an entity type
      that call ``i`` passes in one of its entity-typed parameters;
    - or call ``j`` is a WRITE whose ``writes`` meet the needs of call ``i``'s tool (see
      :func:`needs_of`) and both name the same entity value (the state ``i`` sees is the
      one ``j`` made).

    ``calls`` are ``(name, arguments)``; ``results`` their results (text or data; ``None``
    for a call that produced nothing). Unknown tools depend on nothing.
    """
    produced: dict[tuple[str, str], int] = {}
    touched: list[tuple[int, set, set]] = []  # (index, entity types written, values)
    out: list[tuple[int, ...]] = []
    for i, ((name, arguments), result) in enumerate(zip(calls, results)):
        deps: set[int] = set()
        t = toolbox[name] if name in toolbox else None
        values: set[str] = set()
        if t is not None and isinstance(arguments, dict):
            for param, entity in t.input_entities.items():
                for v in _flat(arguments.get(param)):
                    if v is None:
                        continue
                    key = (entity, json.dumps(v))
                    values.add(json.dumps(v))
                    if key in produced:
                        deps.add(produced[key])
            needs, _ = needs_of(t, infer_needs)
            for j, written, touched_values in touched:
                if set(needs) & written and values & touched_values:
                    deps.add(j)
        out.append(tuple(sorted(deps)))
        if t is None or result is None:
            continue
        for ref in extract_entities(t, result):
            produced.setdefault((ref.type, json.dumps(ref.value)), i)
        if t.category is Category.WRITE and t.writes:
            touched.append((i, set(t.writes), values))
    return out


# ----------------------------------------------------------------------------- CLI


def main(argv: Sequence[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description="Export the tool dependency graphs (JSON, GraphML, PNG) of the domains.")
    parser.add_argument("--out", default="docs/graphs", help="output directory")
    parser.add_argument("--domains", default=None,
                        help="comma-separated domains (default: every registered domain)")
    parser.add_argument("--no-png", action="store_true", help="skip the pictures")
    parser.add_argument("--png-all", action="store_true",
                        help="also draw the overview across domains (all.png: one node per "
                             "domain)")
    parser.add_argument("--declared-only", action="store_true",
                        help="implicit edges from declared needs only (no inference)")
    args = parser.parse_args(argv)
    domains = [d.strip() for d in args.domains.split(",")] if args.domains else None
    report = export(args.out, domains, png=not args.no_png, png_all=args.png_all,
                    infer_needs=not args.declared_only)
    for name, s in report.items():
        print(f"{name:>12}: {s['nodes']} nodes, {s['edges']} edges ({s['explicit']} explicit, "
              f"{s['implicit']} implicit of which {s['implicit_declared']} declared"
              + (f", {s['cross_domain']} across domains" if name == "*" else "") + ")")
    return report


if __name__ == "__main__":
    main()
