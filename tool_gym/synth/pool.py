"""The tool pool of the staged synthesis: tools, semantic groups, argument values, isolation.

The pool holds every tool of the domains of :data:`POOL_DOMAINS_V0` by default
(executable: a call runs on a sandbox of its domain) and, where the optional
``bfcl-eval`` package is installed, BFCL's function documents (not executable). Tools are
grouped by what their descriptions say, so that a task's candidate functions and its
distractors come from one group and look alike:

- Text of a tool: its name split into words, its description, its parameters' names and
  descriptions (stop words removed).
- Vectors: TF-IDF by default (scikit-learn's ``TfidfVectorizer`` for pools of more than
  500 tools when it is installed, else a small numpy implementation with the same
  formula: raw counts x smoothed idf ``ln((1 + n) / (1 + df)) + 1``, rows L2-normalized,
  over one shared vocabulary, so both give the same vectors), or sentence embeddings:
  a local sentence-transformers model (``$TOOL_GYM_EMBEDDING_MODEL``, never downloaded)
  or any callable.
- Groups: spherical k-means (numpy, k-means++ start, seeded), ``k = round(sqrt(n / 2))``
  unless given.

Argument values. For an executable tool the pool *probes* its domain once: it draws
arguments from the domain's template database (a row of the table that covers most
parameters, the other parameters from rows that share a column with it, closed sets
quoted in the parameter descriptions, enums) and runs the call inside a savepoint that is
rolled back; argument sets that ran without error form the tool's bank. A tool without
any working set is left out of synthesis (``pool.unusable``). For a tool that is not
executable, values come from its schema: enums, quoted closed sets, examples quoted in the
description, and a small lexicon keyed by parameter names.

Isolation: :func:`isolate` removes the tools that overlap an evaluation set, by name and
by schema similarity, before anything is synthesized from the pool.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from ..core.tools import Category
from ..domains import get_domain
from .formats import openai_to_bfcl

__all__ = [
    "POOL_DOMAINS_V0",
    "PoolTool",
    "ToolPool",
    "build_pool",
    "isolate",
    "name_overlap",
    "schema_similarity",
    "tfidf",
]

# ----------------------------------------------------------------------- tools


@dataclass(frozen=True)
class PoolTool:
    """One tool of the pool. ``parameters`` is a JSON schema (OpenAI style)."""

    key: str  # unique: "<source>/<name>" (+ "#<n>" for BFCL documents that share a name)
    name: str
    description: str
    parameters: dict
    source: str  # a domain name, or "bfcl"
    executable: bool = False
    category: str = ""  # read / write / generic for domain tools
    input_entities: dict = field(default_factory=dict)
    output_entities: dict = field(default_factory=dict)
    #: The domain's tool that hands the user to a human (it can "serve" any request).
    transfer: bool = False

    @property
    def schema(self) -> dict:
        """OpenAI ``tools`` entry."""
        return {"type": "function", "function": {"name": self.name,
                                                 "description": self.description,
                                                 "parameters": self.parameters}}

    @functools.cached_property
    def doc(self) -> dict:
        """BFCL function document (what the checker reads; shared: do not modify)."""
        return openai_to_bfcl(self.schema)

    @property
    def properties(self) -> dict:
        return self.parameters.get("properties") or {}

    @property
    def required(self) -> list[str]:
        return list(self.parameters.get("required") or [])

    @property
    def is_write(self) -> bool:
        return self.category == Category.WRITE.value

    def text(self) -> str:
        """What the tool is about, for the semantic vectors."""
        parts = [split_identifier(self.name), self.description]
        for param, spec in self.properties.items():
            parts.append(split_identifier(param))
            parts.append(str(spec.get("description", "")))
        return " ".join(parts)


#: The domains of the default pool (``ToolCall-v0``) and of chain tasks' foreign distractors.
#: Versioned: a new domain joins a new list (and new ids), so existing ids never change.
POOL_DOMAINS_V0 = ("retail", "airline", "banking", "calendar", "crm", "email", "filesystem",
                   "food_delivery", "issue_tracker", "team_chat")


def split_identifier(name: str) -> str:
    """``getOrderDetails`` / ``get_order.details`` -> ``get order details``."""
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return re.sub(r"[_.\-/]+", " ", name).strip().lower()


def domain_tools(domains: Iterable[str] | None = None) -> list[PoolTool]:
    """Every tool of these domains (default: :data:`POOL_DOMAINS_V0`), executable."""
    out = []
    for name in (POOL_DOMAINS_V0 if domains is None else domains):
        domain = get_domain(name)
        for t in domain.toolbox:
            out.append(PoolTool(
                key=f"{name}/{t.name}", name=t.name, description=t.description,
                parameters=json.loads(json.dumps(t.parameters)), source=name, executable=True,
                category=t.category.value, input_entities=dict(t.input_entities),
                output_entities=dict(t.output_entities),
                transfer=t.name == domain.transfer_tool))
    return out


def bfcl_tools(categories: str | Iterable[str] = "all") -> list[PoolTool]:
    """BFCL's function documents as tools that are not executable (needs bfcl-eval)."""
    from . import bfcl
    from .formats import bfcl_to_openai

    out, seen = [], {}
    for doc in bfcl.function_docs(categories):
        schema = bfcl_to_openai(doc)["function"]
        count = seen.get(doc["name"], 0)
        seen[doc["name"]] = count + 1
        key = f"bfcl/{doc['name']}" + (f"#{count}" if count else "")
        out.append(PoolTool(key=key, name=doc["name"], description=schema["description"],
                            parameters=schema["parameters"], source="bfcl"))
    return out


# ----------------------------------------------------------------- vectors

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_STOP = frozenset("""a an and are as at be by for from has have if in into is it its of on
or such that the their then there these this to was were which will with can may must
should would given get returns return value values specified specific default optional
number type id ids""".split())


def _clean(text: str) -> str:
    return " ".join(w for w in _TOKEN.findall(text.lower()) if w not in _STOP)


def tfidf(texts: Sequence[str], max_features: int = 4096,
          backend: str = "auto") -> np.ndarray:
    """TF-IDF rows (L2-normalized, float64) of ``texts``.

    ``backend``: ``"sklearn"``, ``"numpy"`` or ``"auto"`` (scikit-learn when installed).
    Both count over the same vocabulary (the ``max_features`` terms found in most texts,
    ties by term), so they agree to rounding.
    """
    docs = [_clean(t) for t in texts]
    tokens = [d.split() for d in docs]
    df: dict[str, int] = {}
    for words in tokens:
        for w in set(words):
            df[w] = df.get(w, 0) + 1
    terms = sorted(df, key=lambda w: (-df[w], w))[:max_features]
    vocabulary = {w: i for i, w in enumerate(sorted(terms))}
    if not vocabulary:
        return np.zeros((len(texts), 1))
    if backend == "auto":  # scikit-learn pays off only for large pools (its import is slow)
        backend = "sklearn" if len(docs) > 500 and _has_sklearn() else "numpy"
    if backend == "sklearn":
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = TfidfVectorizer(vocabulary=vocabulary, token_pattern=r"(?u)\b\w\w+\b",
                                     lowercase=False)
        return np.asarray(vectorizer.fit_transform(docs).todense(), dtype=np.float64)
    counts = np.zeros((len(docs), len(vocabulary)))
    for row, words in enumerate(tokens):
        for w in words:
            column = vocabulary.get(w)
            if column is not None:
                counts[row, column] += 1
    n = len(docs)
    document_frequency = (counts > 0).sum(axis=0)
    idf = np.log((1 + n) / (1 + document_frequency)) + 1
    weights = counts * idf
    norms = np.linalg.norm(weights, axis=1, keepdims=True)
    return weights / np.where(norms == 0, 1, norms)


@functools.lru_cache(maxsize=1)
def _has_sklearn() -> bool:
    import importlib.util

    return importlib.util.find_spec("sklearn") is not None


def _embed(texts: list[str], embedder: Any) -> tuple[np.ndarray, str]:
    """Vectors and the name of the method used."""
    if callable(embedder):
        vectors = np.asarray(embedder(texts), dtype=np.float64)
        method = getattr(embedder, "__name__", "callable")
    elif isinstance(embedder, str) and embedder.startswith("sentence-transformers:"):
        path = embedder.split(":", 1)[1]
        from sentence_transformers import SentenceTransformer  # optional

        model = SentenceTransformer(path, local_files_only=True)
        vectors = np.asarray(model.encode(texts), dtype=np.float64)
        method = embedder
    elif embedder == "auto" and _local_embedding_model():
        return _embed(texts, "sentence-transformers:" + _local_embedding_model())
    elif embedder in (None, "tfidf", "auto"):
        return tfidf(texts), "tfidf"
    else:
        raise ValueError(f"unknown embedder {embedder!r}: use 'tfidf', a callable "
                         "texts -> vectors, or 'sentence-transformers:<local path>'")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms), method


def _local_embedding_model() -> str | None:
    """The local sentence-embedding model ``embedder="auto"`` uses: the path in
    ``$TOOL_GYM_EMBEDDING_MODEL`` when it exists and sentence-transformers is installed."""
    import importlib.util
    import os

    path = os.environ.get("TOOL_GYM_EMBEDDING_MODEL")
    if path and os.path.exists(path) and importlib.util.find_spec("sentence_transformers"):
        return path
    return None


def kmeans(vectors: np.ndarray, k: int, seed: int = 0, iterations: int = 30) -> np.ndarray:
    """Spherical k-means labels (cosine), k-means++ start; deterministic for a seed."""
    n = len(vectors)
    k = max(1, min(k, n))
    rng = np.random.default_rng(seed)
    centers = [vectors[int(rng.integers(n))]]
    for _ in range(1, k):
        similarity = np.max(vectors @ np.array(centers).T, axis=1)
        distance = np.clip(1 - similarity, 0, None) ** 2
        total = distance.sum()
        index = int(rng.choice(n, p=distance / total)) if total > 0 else int(rng.integers(n))
        centers.append(vectors[index])
    centers = np.array(centers)
    labels = np.full(n, -1)
    for _ in range(iterations):
        new = np.argmax(vectors @ centers.T, axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
        for c in range(k):
            members = vectors[labels == c]
            if len(members) == 0:  # re-seed an empty group at the worst-served point
                worst = int(np.argmin(np.max(vectors @ centers.T, axis=1)))
                centers[c] = vectors[worst]
                continue
            mean = members.sum(axis=0)
            norm = np.linalg.norm(mean)
            centers[c] = mean / norm if norm else mean
    # relabel in order of first appearance, so labels do not depend on the start
    order: dict[int, int] = {}
    for label in labels:
        order.setdefault(int(label), len(order))
    return np.array([order[int(label)] for label in labels])


# ------------------------------------------------------------------ values

_QUOTED = re.compile(r"'([^']{1,60})'|\"([^\"]{1,60})\"")
_CLOSED = re.compile(r"\b(either|must be|one of|only|allowed|valid values|can be)\b", re.I)
_EXAMPLE = re.compile(r"\b(such as|e\.g\.|for example|like|example)\b", re.I)


def quoted(text: str) -> list[str]:
    return [a or b for a, b in _QUOTED.findall(text or "")]


def closed_set(spec: dict) -> list:
    """The values a parameter can take, when its schema or description lists them."""
    if spec.get("enum"):
        return list(spec["enum"])
    description = str(spec.get("description", ""))
    if _CLOSED.search(description) and not _EXAMPLE.search(description):
        values = quoted(description)
        if len(values) >= 2:
            return values
    return []


_LEXICON: dict[str, tuple] = {
    "city": ("Paris", "Tokyo", "Chicago", "Boston", "Denver", "Seattle", "Madrid", "Berlin",
             "Toronto", "Sydney", "Austin", "Rome"),
    "country": ("France", "Japan", "Canada", "Brazil", "Germany", "India", "Kenya", "Mexico"),
    "state": ("CA", "NY", "TX", "WA", "FL", "IL"),
    "name": ("Maria Lopez", "James Chen", "Aisha Khan", "Tom Becker", "Sofia Rossi"),
    "first": ("Maria", "James", "Aisha", "Tom", "Sofia", "Liam"),
    "last": ("Lopez", "Chen", "Khan", "Becker", "Rossi", "Novak"),
    "company": ("Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries"),
    "language": ("English", "Spanish", "French", "German", "Japanese"),
    "color": ("red", "blue", "green", "black", "white"),
    "genre": ("jazz", "rock", "comedy", "drama", "classical"),
    "currency": ("USD", "EUR", "JPY", "GBP"),
    "unit": ("meters", "kilograms", "celsius", "miles", "liters"),
    "symbol": ("AAPL", "MSFT", "TSLA", "NVDA"),
    "title": ("The Silent Sea", "Blue Horizon", "Night Train", "Golden Fields"),
    "email": ("maria.lopez@example.com", "j.chen@example.org", "aisha.k@example.net"),
    "location": ("Central Park", "the Louvre", "Golden Gate Park", "Union Station"),
    "topic": ("climate change", "machine learning", "ancient history", "renewable energy"),
    "text": ("the package arrived damaged", "please call me back tomorrow",
             "the invoice total looks wrong", "I would like a window seat"),
}
_KEYWORDS = (
    ("email", "email"), ("city", "city"), ("town", "city"), ("country", "country"),
    ("state", "state"), ("first", "first"), ("last", "last"), ("company", "company"),
    ("brand", "company"), ("language", "language"), ("lang", "language"),
    ("colou", "color"), ("genre", "genre"), ("currency", "currency"), ("unit", "unit"),
    ("symbol", "symbol"), ("ticker", "symbol"), ("title", "title"), ("movie", "title"),
    ("book", "title"), ("song", "title"), ("location", "location"), ("place", "location"),
    ("address", "location"), ("destination", "city"), ("origin", "city"),
    ("topic", "topic"), ("subject", "topic"), ("query", "topic"), ("keyword", "topic"),
    ("name", "name"), ("author", "name"), ("artist", "name"), ("person", "name"),
    ("summary", "text"), ("reason", "text"), ("message", "text"), ("note", "text"),
    ("comment", "text"), ("description", "text"), ("content", "text"),
)


def _lexicon_string(param: str, spec: dict, rng: np.random.Generator) -> str:
    low = param.lower()
    if "date" in low or "day" == low:
        return f"2024-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d}"
    if "time" in low:
        return f"{int(rng.integers(6, 22)):02d}:{int(rng.choice([0, 15, 30, 45])):02d}"
    if "expression" in low or "formula" in low:
        a, b, c = (int(x) for x in rng.integers(2, 99, size=3))
        op1, op2 = rng.choice(["+", "-", "*"], size=2)
        return f"{a} {op1} {b} {op2} {c}"
    if "url" in low or "link" in low:
        return f"https://example.com/{split_identifier(param).replace(' ', '-')}"
    if "path" in low or "file" in low:
        stem = ("report", "data", "notes", "sales", "results")[int(rng.integers(5))]
        return f"{stem}_{int(rng.integers(1, 99))}.{('csv', 'txt', 'json')[int(rng.integers(3))]}"
    words = split_identifier(param).split()
    if words and words[-1] in ("id", "number", "code", "no", "num", "ref", "reference"):
        letters = "".join(chr(65 + int(c)) for c in rng.integers(0, 26, size=2))
        return f"{letters}-{int(rng.integers(1000, 9999))}"
    if words and words[-1] in ("type", "class", "level", "mode", "kind", "category", "tier"):
        examples = quoted(str(spec.get("description", "")))
        options = examples or ["standard", "premium", "basic", "advanced"]
        return options[int(rng.integers(len(options)))]
    for keyword, kind in _KEYWORDS:
        if keyword in low:
            words = _LEXICON[kind]
            return words[int(rng.integers(len(words)))]
    examples = quoted(str(spec.get("description", "")))
    if examples:
        return examples[int(rng.integers(len(examples)))]
    words = _LEXICON["topic"]
    return words[int(rng.integers(len(words)))]


def _lexicon_number(param: str, kind: str, rng: np.random.Generator) -> int | float:
    low = param.lower()
    if "years" in low or "duration" in low or "period" in low:
        return int(rng.integers(1, 31))
    if "year" in low:
        return int(rng.integers(1990, 2025))
    if any(w in low for w in ("rate", "probability", "ratio", "percent")):
        return round(float(rng.uniform(0.01, 0.99)), 2) if kind == "number" else int(
            rng.integers(1, 100))
    if kind == "integer":
        return int(rng.choice([2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 24, 30, 50, 100, 250]))
    return float(rng.choice([1.5, 2.5, 3.75, 4.2, 9.81, 12.5, 20.0, 42.0, 99.9, 150.0]))


def schema_value(param: str, spec: dict, rng: np.random.Generator, depth: int = 0) -> Any:
    """A plausible value of a parameter from its schema alone (tools without a database)."""
    choices = closed_set(spec)
    if choices:
        return choices[int(rng.integers(len(choices)))]
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "boolean":
        return bool(rng.integers(2))
    if kind in ("integer", "number"):
        return _lexicon_number(param, kind, rng)
    if kind == "array":
        item = spec.get("items") or {"type": "string"}
        singular = param[:-1] if param.endswith("s") else param
        count = int(rng.integers(2, 4))
        values = []
        for _ in range(count * 3):
            value = schema_value(singular, item, rng, depth + 1)
            if value not in values:
                values.append(value)
            if len(values) == count:
                break
        return values
    if kind == "object":
        properties = spec.get("properties") or {}
        if not properties or depth > 2:
            return {}
        required = spec.get("required") or list(properties)
        return {k: schema_value(k, v or {}, rng, depth + 1) for k, v in properties.items()
                if k in required}
    return _lexicon_string(param, spec, rng)


class DomainValues:
    """Draws arguments for a domain's tools from its template database (see the module
    docstring) and keeps the sets that ran."""

    def __init__(self, domain: str, db_seed: int = 0):
        from ..core.sandbox import template

        self.domain = domain
        self.template = template(domain, db_seed)
        self.db = self.template.open()
        self.columns: dict[str, list[str]] = {}
        self.keys: dict[str, str] = {}
        for (table,) in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
                "ORDER BY name"):
            info = list(self.db.execute(f'PRAGMA table_info("{table}")'))
            self.columns[table] = [r[1] for r in info]
            keys = [r[1] for r in info if r[5]]
            if len(keys) == 1:  # the table of an entity: its id is the whole primary key
                self.keys[table] = keys[0]
        self._sizes: dict[str, int] = {}
        self._columns: dict[tuple, str | None] = {}

    def close(self) -> None:
        self.db.close()

    # -- helpers
    def _size(self, table: str) -> int:
        if table not in self._sizes:
            self._sizes[table] = self.db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
        return self._sizes[table]

    @staticmethod
    def _names(tool: PoolTool, param: str) -> list[str]:
        names = [param]
        if param.endswith("s"):
            names.append(param[:-1])
        entity = tool.input_entities.get(param)
        if entity:
            names.append(entity)
        return names

    def _column(self, table: str, tool: PoolTool, param: str) -> str | None:
        key = (table, tool.key, param)
        if key not in self._columns:
            self._columns[key] = next(
                (n for n in self._names(tool, param) if n in self.columns[table]), None)
        return self._columns[key]

    def _row(self, table: str, rng: np.random.Generator, where: dict | None = None) -> dict | None:
        where = where or {}
        cond = " AND ".join(f'"{c}" = ?' for c in where) or "1"
        args = list(where.values())
        if where:
            count = self.db.execute(f'SELECT COUNT(*) FROM "{table}" WHERE {cond}',
                                    args).fetchone()[0]
        else:
            count = self._size(table)
        if not count:
            return None
        row = self.db.execute(f'SELECT * FROM "{table}" WHERE {cond} LIMIT 1 OFFSET ?',
                              [*args, int(rng.integers(count))])
        names = [d[0] for d in row.description]
        values = row.fetchone()
        return dict(zip(names, values))

    def _rows(self, table: str, where: dict, limit: int = 4) -> list[dict]:
        cond = " AND ".join(f'"{c}" = ?' for c in where) or "1"
        cursor = self.db.execute(f'SELECT * FROM "{table}" WHERE {cond} ORDER BY rowid LIMIT ?',
                                 [*where.values(), limit])
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, r)) for r in cursor.fetchall()]

    def _linked(self, table: str, bound: dict) -> dict:
        return {c: bound[c] for c in self.columns[table] if c in bound and bound[c] is not None}

    # -- drawing
    def draw(self, tool: PoolTool, rng: np.random.Generator, optional: float = 0.3) -> dict:
        """One argument set for ``tool`` (it may or may not run)."""
        params = [p for p in tool.properties
                  if p in tool.required or rng.random() < optional]
        covered = {t: [c for c in (self._column(t, tool, p) for p in params) if c]
                   for t in self.columns}
        # the table covering most parameters; among equals, an entity's own table
        anchor = max(sorted(covered), key=lambda t: (
            len(covered[t]), self.keys.get(t) in covered[t], -self._size(t)))
        bound: dict = {}
        if covered[anchor]:
            row = self._row(anchor, rng)
            bound.update(row or {})
        arguments: dict = {}
        for param in params:
            spec = tool.properties[param] or {}
            value = self._value(tool, param, spec, anchor, bound, rng)
            if value is not None and value != []:  # an empty list is no real request
                arguments[param] = value
        return arguments

    def _value(self, tool: PoolTool, param: str, spec: dict, anchor: str, bound: dict,
               rng: np.random.Generator) -> Any:
        kind = spec.get("type")
        choices = closed_set(spec)
        if choices:
            return choices[int(rng.integers(len(choices)))]
        if kind == "array":
            return self._array(tool, param, spec, bound, rng)
        column = self._column(anchor, tool, param) if anchor else None
        if column and bound.get(column) is not None:
            return _typed(bound[column], kind)
        for table in self.columns:
            column = self._column(table, tool, param)
            if column is None:
                continue
            row = self._row(table, rng, self._linked(table, bound))
            if row is not None and row.get(column) is not None:
                bound.update({k: v for k, v in row.items() if k not in bound})
                return _typed(row[column], kind)
        return schema_value(param, spec, rng)

    def _array(self, tool: PoolTool, param: str, spec: dict, bound: dict,
               rng: np.random.Generator) -> list:
        item = spec.get("items") or {}
        if item.get("type") == "object":
            keys = [k for k in quoted(str(spec.get("description", ""))) if re.fullmatch(r"\w+", k)]
            tables = [t for t in self.columns if keys and all(k in self.columns[t] for k in keys)]
            for table in tables:
                link = self._linked(table, bound)
                rows = (self._rows(table, link) if link else
                        [r for r in (self._row(table, rng) for _ in range(int(rng.integers(1, 3))))
                         if r])
                if rows:
                    return [{k: r[k] for k in keys} for r in rows]
            return []
        for table in self.columns:
            column = self._column(table, tool, param)
            if column is None:
                continue
            link = self._linked(table, bound)
            if link:
                rows = self._rows(table, link)
            else:
                rows = [r for r in (self._row(table, rng) for _ in range(int(rng.integers(1, 3))))
                        if r]
            values = [_typed(r[column], item.get("type")) for r in rows if r[column] is not None]
            if values:
                return values
        return schema_value(param, spec, rng)

    def probe(self, tool: PoolTool, rng: np.random.Generator, attempts: int,
              keep: int) -> list[dict]:
        """Argument sets that ran without error (each call rolled back afterwards)."""
        toolbox = get_domain(self.domain).toolbox
        found: list[dict] = []
        seen: set[str] = set()
        for attempt in range(attempts):
            if not found and attempt >= max(8, attempts // 6):
                break  # nothing ran so far: the tool needs what the database cannot give
            arguments = self.draw(tool, rng)
            text = json.dumps(arguments, sort_keys=True)
            if text in seen:
                continue
            seen.add(text)
            self.db.execute("SAVEPOINT probe")
            try:
                result = toolbox.call(self.db, tool.name, arguments)
            except Exception:  # noqa: BLE001 - a tool that raises is simply not usable
                result = None
            finally:
                self.db.execute("ROLLBACK TO probe")
                self.db.execute("RELEASE probe")
            if result is not None and result.ok:
                found.append(arguments)
                if len(found) >= keep:
                    break
        return found


def _typed(value: Any, kind: Any) -> Any:
    if kind == "string" and not isinstance(value, str):
        return str(value)
    if kind in ("integer", "number") and isinstance(value, (int, float)) and value < 0:
        value = -value  # stored refunds and the like: a request states positive amounts
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


# ------------------------------------------------------------------- the pool


@dataclass
class ToolPool:
    """Tools, their semantic groups and argument values.

    Attributes:
        tools: the tools (order fixed by sources, then definition order).
        labels: group label per tool.
        vectors: unit vectors per tool (TF-IDF or embeddings).
        method: how the vectors were made.
        banks: tool key -> argument sets that ran (executable tools). Building the pool
            finds up to two per tool; :meth:`bank` finds the rest on first use (each tool
            draws from its own seeded stream, so the sets do not depend on the order of
            use or on the other tools).
        unusable: keys of executable tools without any working argument set.
        removed: ``(key, reason)`` of tools removed by isolation.
        db_seed: seed of the domains' databases the banks were probed on.
    """

    tools: list[PoolTool]
    labels: np.ndarray
    vectors: np.ndarray
    method: str
    banks: dict[str, list[dict]] = field(default_factory=dict)
    unusable: list[str] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    db_seed: int = 0
    filler: Any = field(default=None, repr=False, compare=False)
    _filled: set = field(default_factory=set, repr=False, compare=False)
    _initial_banks: dict | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._initial_banks = json.loads(json.dumps(self.banks))

    def bank(self, key: str) -> list[dict]:
        """Every working argument set of an executable tool (probed on first use)."""
        if key not in self._filled:
            self._filled.add(key)
            if self.filler is not None and self.banks.get(key):
                self.banks[key] = self.filler(key)
        return self.banks.get(key) or []

    def __len__(self) -> int:
        return len(self.tools)

    @functools.cached_property
    def groups(self) -> list[list[int]]:
        """Tool indices per group, in label order."""
        count = int(self.labels.max()) + 1 if len(self.labels) else 0
        out: list[list[int]] = [[] for _ in range(count)]
        for i, label in enumerate(self.labels):
            out[int(label)].append(i)
        return out

    @functools.cached_property
    def _similarity(self) -> np.ndarray | None:
        if len(self.tools) > 4000:  # too big to keep: computed per call instead
            return None
        return self.vectors @ self.vectors.T

    def index(self, key: str) -> int:
        for i, t in enumerate(self.tools):
            if t.key == key:
                return i
        raise KeyError(key)

    def usable(self, i: int) -> bool:
        t = self.tools[i]
        return not t.executable or bool(self.banks.get(t.key))

    def neighbours(self, i: int, among: Iterable[int] | None = None) -> list[int]:
        """Other tools by decreasing similarity to tool ``i`` (optionally within ``among``)."""
        candidates = np.array([j for j in (range(len(self.tools)) if among is None else among)
                               if j != i], dtype=int)
        row = (self._similarity[i] if self._similarity is not None
               else self.vectors @ self.vectors[i])
        order = np.argsort(-row[candidates], kind="stable")
        return [int(candidates[k]) for k in order]

    def arguments(self, i: int, rng: np.random.Generator) -> dict:
        """An argument set for tool ``i``: from its bank when executable, else from its schema."""
        t = self.tools[i]
        if t.executable:
            bank = self.bank(t.key)
            if not bank:
                raise ValueError(f"{t.key} has no working argument set")
            return json.loads(json.dumps(bank[int(rng.integers(len(bank)))]))
        arguments = {}
        for param, spec in t.properties.items():
            if param in t.required or rng.random() < 0.3:
                arguments[param] = schema_value(param, spec or {}, rng)
        return arguments

    def value_samples(self, per_name: int = 16) -> dict[str, list]:
        """Parameter name -> values of the banks as they were built (for realistic action
        samples). Banks probed later are left out, so the result never depends on which
        tasks were synthesized before (two envs of one process get the same values)."""
        if self._initial_banks is None:
            raise RuntimeError("value_samples before the pool was built")
        out: dict[str, list] = {}
        for bank in self._initial_banks.values():
            for arguments in bank:
                for key, value in arguments.items():
                    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                        values = out.setdefault(key, [])
                        if value not in values and len(values) < per_name:
                            values.append(value)
        return out


def build_pool(domains: Iterable[str] | None = None, bfcl: bool | str = False,
               bfcl_categories: str | Iterable[str] = "all", db_seed: int = 0,
               embedder: Any = "auto", n_groups: int | None = None, seed: int = 0,
               exclude: Sequence[Any] = (), probe_attempts: int = 96,
               bank_size: int = 32) -> ToolPool:
    """Build the pool.

    Args:
        domains: domains whose tools join (default: every domain of the table).
        bfcl: also BFCL's function documents: ``True``, ``False`` or ``"auto"`` (when
            bfcl-eval is installed).
        bfcl_categories: which BFCL categories' documents.
        db_seed: seed of the domains' template databases (argument banks).
        embedder: ``"auto"`` (a local sentence-embedding model named by
            ``$TOOL_GYM_EMBEDDING_MODEL`` when sentence-transformers is installed, else
            TF-IDF), ``"tfidf"``, a callable ``texts -> vectors``, or
            ``"sentence-transformers:<local path>"`` (never downloaded).
        n_groups: number of semantic groups (default ``round(sqrt(n / 2))``).
        seed: seed of the grouping and of the probing.
        exclude: function documents of an evaluation set; overlapping tools are removed
            first (:func:`isolate`).
        probe_attempts, bank_size: argument draws tried per executable tool, and working
            sets kept.
    """
    from . import bfcl as bfcl_data

    tools = domain_tools(domains)
    if bfcl == "auto":
        bfcl = bfcl_data.available()
    if bfcl:
        tools += bfcl_tools(bfcl_categories)
    removed: list[tuple[str, str]] = []
    if exclude:
        tools, removed = isolate(tools, exclude)
    if not tools:
        raise ValueError("the tool pool is empty")
    vectors, method = _embed([t.text() for t in tools], embedder)
    k = n_groups or max(2, round(math.sqrt(len(tools) / 2)))
    labels = kmeans(vectors, k, seed)
    banks, unusable = {}, []
    by_domain: dict[str, DomainValues] = {}
    by_key = {t.key: t for t in tools}

    def stream(key: str) -> np.random.Generator:
        digest = hashlib.sha256(key.encode()).digest()
        return np.random.default_rng([seed, 7, int.from_bytes(digest[:8], "little")])

    for t in tools:
        if not t.executable:
            continue
        values = by_domain.get(t.source)
        if values is None:
            values = by_domain[t.source] = DomainValues(t.source, db_seed)
        banks[t.key] = values.probe(t, stream(t.key), probe_attempts, min(2, bank_size))
        if not banks[t.key]:
            unusable.append(t.key)

    def fill(key: str) -> list[dict]:
        t = by_key[key]
        return by_domain[t.source].probe(t, stream(key), probe_attempts, bank_size)

    return ToolPool(tools, labels, vectors, method, banks, unusable, removed, db_seed,
                    filler=fill if by_domain else None)


@functools.lru_cache(maxsize=8)
def cached_pool(domains: tuple[str, ...] | None = None, bfcl: bool = False, db_seed: int = 0,
                seed: int = 0) -> ToolPool:
    """:func:`build_pool` with default settings, built once per process and arguments."""
    return build_pool(domains, bfcl=bfcl, db_seed=db_seed, seed=seed)


# ------------------------------------------------------------------ isolation


def _normal_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def name_overlap(a: str, b: str) -> bool:
    """Same name ignoring case and punctuation, or the same last dotted part
    (``math.hypot`` and ``hypot``)."""
    if _normal_name(a) == _normal_name(b):
        return True
    last_a, last_b = a.rsplit(".", 1)[-1], b.rsplit(".", 1)[-1]
    return ("." in a or "." in b) and _normal_name(last_a) == _normal_name(last_b)


def _typed_params(doc: dict) -> set[tuple[str, str]]:
    properties = (doc.get("parameters") or {}).get("properties") or {}
    aliases = {"dict": "object", "float": "number", "tuple": "array"}
    out = set()
    for name, spec in properties.items():
        kind = (spec or {}).get("type", "any")
        kind = kind[0] if isinstance(kind, list) and kind else kind
        out.add((name.lower(), aliases.get(kind, kind)))
    return out


def _words(text: str) -> set[str]:
    return set(_clean(text).split())


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def schema_similarity(a: Any, b: Any) -> float:
    """0..1: the mean of the Jaccard similarity of the typed parameter sets and that of
    the description words (two functions without parameters share nothing there)."""
    from ..core.ast_match import as_doc

    doc_a = a.doc if isinstance(a, PoolTool) else as_doc(a)
    doc_b = b.doc if isinstance(b, PoolTool) else as_doc(b)
    params = _jaccard(_typed_params(doc_a), _typed_params(doc_b))
    words = _jaccard(_words(doc_a.get("description", "")), _words(doc_b.get("description", "")))
    return 0.5 * params + 0.5 * words


def isolate(tools: Sequence[PoolTool], evaluation: Sequence[Any], threshold: float = 0.6,
            by_name: bool = True) -> tuple[list[PoolTool], list[tuple[str, str]]]:
    """Remove the tools that overlap the functions of an evaluation set.

    A tool overlaps when its name overlaps an evaluation function's name
    (:func:`name_overlap`) or its :func:`schema_similarity` with one reaches
    ``threshold``. Returns the kept tools and ``(key, reason)`` for each removed one.
    """
    from ..core.ast_match import as_doc

    docs = [as_doc(e) for e in evaluation]
    by_normal: dict[str, str] = {}
    for d in docs:
        by_normal.setdefault(_normal_name(d["name"]), d["name"])
    last_any: dict[str, str] = {}
    last_dotted: dict[str, str] = {}
    for d in docs:
        last = _normal_name(d["name"].rsplit(".", 1)[-1])
        last_any.setdefault(last, d["name"])
        if "." in d["name"]:
            last_dotted.setdefault(last, d["name"])
    features = [(_typed_params(d), _words(d.get("description", ""))) for d in docs]
    # similarity >= threshold > 0.5 needs a shared typed parameter: index them
    index: dict[tuple[str, str], list[int]] = {}
    for position, (params, _) in enumerate(features):
        for p in params:
            index.setdefault(p, []).append(position)
    kept, removed = [], []
    for t in tools:
        reason = None
        if by_name:
            if _normal_name(t.name) in by_normal:
                reason = f"name matches {by_normal[_normal_name(t.name)]!r}"
            else:  # name_overlap: the same last dotted part, one name being dotted
                last = _normal_name(t.name.rsplit(".", 1)[-1])
                match = (last_any if "." in t.name else last_dotted).get(last)
                if match:
                    reason = f"name matches {match!r}"
        if reason is None:
            mine = t.doc
            params, words = _typed_params(mine), _words(mine.get("description", ""))
            candidates = (sorted({i for p in params for i in index.get(p, [])})
                          if threshold > 0.5 else range(len(docs)))
            for position in candidates:
                other_params, other_words = features[position]
                similarity = (0.5 * _jaccard(params, other_params)
                              + 0.5 * _jaccard(words, other_words))
                if similarity >= threshold:
                    reason = f"schema similar to {docs[position]['name']!r} ({similarity:.2f})"
                    break
        if reason is None:
            kept.append(t)
        else:
            removed.append((t.key, reason))
    return kept, removed
