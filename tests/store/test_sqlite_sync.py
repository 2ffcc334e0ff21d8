"""FURNACE_SQLITE_SYNC: how often SQLite syncs the disk. `full` by default (a power cut loses nothing answered);
`normal` for a busy table console on a slow disk. A wrong value is one clear error, and nothing is opened."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from furnace.campaign.store import Store, StoreError
from furnace.cli.app import main


def synchronous(url: str) -> int:
    store = Store(url)
    try:
        with store.transaction() as conn:
            return int(conn.execute(text("PRAGMA synchronous")).scalar_one())
    finally:
        store.close()


def test_full_by_default_and_normal_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FURNACE_SQLITE_SYNC", raising=False)
    assert synchronous(f"sqlite:///{tmp_path}/a.db") == 2          # SQLite's FULL
    monkeypatch.setenv("FURNACE_SQLITE_SYNC", "normal")
    assert synchronous(f"sqlite:///{tmp_path}/b.db") == 1          # NORMAL


def test_a_wrong_value_is_refused_and_no_database_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FURNACE_SQLITE_SYNC", "sometimes")
    with pytest.raises(StoreError, match="FURNACE_SQLITE_SYNC must be full or normal, not 'sometimes'"):
        Store(f"sqlite:///{tmp_path}/c.db")
    assert not (tmp_path / "c.db").exists()
    assert main(["--db", str(tmp_path / "c.db"), "campaign", "new", "keep"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: FURNACE_SQLITE_SYNC must be") and err.count("\n") == 1


def test_writers_of_one_process_queue_on_the_store_s_lock(tmp_path: Path) -> None:
    # a second writer of this process waits on the store's lock, woken when the first commits, instead of
    # sleeping 50-100 ms at a time in SQLite's busy handler; readers never take it
    store = Store(f"sqlite:///{tmp_path}/d.db")
    assert store._writers is not None
    seen: list[bool] = []

    def free() -> None:
        got = store._writers.acquire(blocking=False)      # type: ignore[union-attr]
        seen.append(got)
        if got:
            store._writers.release()                      # type: ignore[union-attr]

    for write in (True, False):
        with store.transaction(write=write):
            thread = threading.Thread(target=free)
            thread.start()
            thread.join(120)
    store.close()
    assert seen == [False, True]


def test_under_normal_the_console_folds_the_log_into_the_database_every_interval(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the fold (a checkpoint) is what syncs a NORMAL database: done each interval, a power cut loses at most that
    monkeypatch.setenv("FURNACE_SQLITE_SYNC", "normal")
    store = Store(f"sqlite:///{tmp_path}/e.db")
    store.create("keep")
    before = set(threading.enumerate())
    stop = store.sync_every(0.02)
    (folder,) = (t for t in threading.enumerate() if t not in before and t.name == "furnace-sqlite-sync")
    deadline = time.monotonic() + 120                           # a wait, generous for a busy machine
    while store.folds < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    stop()
    folds = store.folds
    assert folds >= 2 and not folder.is_alive()                 # stopped: no fold can come after the stop
    assert store.folds == folds
    with store.transaction() as conn:                            # every frame of the log is in the database
        busy, frames, folded = conn.execute(text("PRAGMA wal_checkpoint(PASSIVE)")).one()
    assert busy == 0 and frames == folded
    store.close()


def test_under_full_there_is_nothing_to_fold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FURNACE_SQLITE_SYNC", raising=False)
    store = Store(f"sqlite:///{tmp_path}/f.db")
    before = set(threading.enumerate())
    stop = store.sync_every(0.01)
    assert [t for t in threading.enumerate() if t not in before and t.name == "furnace-sqlite-sync"] == []
    stop()
    assert store.folds == 0                                       # no thread: nothing folds, ever
    store.close()
