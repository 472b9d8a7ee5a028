"""The lab database: real SQLite in WAL mode, one row per (run, game index)."""
from __future__ import annotations

import sqlite3

import pytest

from houserules.lab.games import play, tasks
from houserules.lab.spec import LabSpecError, parse_spec
from houserules.lab.store import LabStore


def test_a_game_is_stored_once_under_its_key_and_the_run_keeps_its_spec(tmp_path):
    spec = parse_spec({"games": 2, "max_plies": 6, "bots": [1, 1],
                       "opening": {"random_plies": 6},
                       "variant": [{"name": "dm", "presets": ["double-move"]}]})
    db = tmp_path / "lab.sqlite"
    with LabStore(db) as store:
        run = store.new_run(spec, "test")
        task = tasks(spec, run)[1]
        record = play(task)
        assert store.add_game(task, record)
        assert not store.add_game(task, record)     # a retry's second copy
        (row,) = store.games([run])
        info = store.run(run)
        assert (info.spec, info.games, info.done) == (spec, 2, 1)
        assert store.done_indices(run) == {1}
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    assert (row["idx"], row["variant"], row["result"], row["plies"]) == \
        (1, "dm", record.result, record.plies)
    assert '"presets":["double-move"]' in row["variant_config"].replace(" ", "")
    assert '[Variant "double-move"]' in row["pgn"]


def test_an_unknown_run_and_a_file_that_is_no_database_are_typed_errors(tmp_path):
    with LabStore(tmp_path / "lab.sqlite") as store:
        with pytest.raises(LabSpecError, match="no run 3"):
            store.run(3)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(LabSpecError, match="not a lab database"):
        LabStore(junk)


def test_each_run_has_its_own_token_for_its_dask_keys(tmp_path):
    from houserules.lab.runner import task_key
    spec = parse_spec({"variant": [{"name": "fide"}]})
    tokens = []
    for name in ("a.sqlite", "b.sqlite"):
        with LabStore(tmp_path / name) as store:
            run = store.new_run(spec, "test")
            assert run == 1
            tokens.append(store.run(run).token)
    # run 1 of two databases on one cluster: different tasks, different keys
    assert task_key(tokens[0], 0) != task_key(tokens[1], 0)
