"""Schema migrations on real data: a database written at the first revision (0001, tests/store/fixtures/rev0001.db,
built by tests/store/make_fixture.py) upgrades to the newest, downgrades and upgrades again, keeping every row.

On SQLite the fixture file itself is copied; on PostgreSQL an empty database is brought to 0001 and the fixture's
rows are copied into it (read from the SQLite file with SQLAlchemy Core), then the same steps run.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, insert, inspect, select

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit, migrate
from furnace.campaign import store as store_module
from furnace.campaign.schema import campaigns, events, snapshots
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store, sqlite_path
from furnace.campaign.verify import verify
from tests.store.make_fixture import CAMPAIGNS, EXPECTED_EVENTS, EXPECTED_HP, FIXTURE, REVISION
from tests.store.util import rebuild

Rows = dict[str, list[tuple[Any, ...]]]


def sqlite_engine(path: Path) -> Engine:
    return create_engine(f"sqlite:///{path}")


def load_fixture(url: str, tmp_path: Path) -> None:
    """Put the revision-0001 fixture's campaigns into the empty database at `url`."""
    path = sqlite_path(url)
    if path is not None:
        shutil.copy(FIXTURE, path)
        return
    source = tmp_path / "fixture-copy.db"        # never open the committed file itself
    shutil.copy(FIXTURE, source)
    target = Store(url, migrate=False)
    reader = sqlite_engine(source)
    try:
        migrate.upgrade(target, REVISION)
        with reader.connect() as src, target.engine.begin() as dst:
            for camp in src.execute(select(campaigns).order_by(campaigns.c.id)):
                values = {k: v for k, v in camp._mapping.items() if k != "id"}
                new_id = dst.execute(insert(campaigns).values(**values).returning(campaigns.c.id)).scalar_one()
                rows = src.execute(select(events).where(events.c.campaign_id == camp.id).order_by(events.c.seq))
                dst.execute(insert(events), [{**{k: v for k, v in r._mapping.items() if k != "id"},
                                              "campaign_id": new_id} for r in rows])
    finally:
        reader.dispose()
        target.close()


def rows(store: Store) -> Rows:
    """Every row of the log and of the campaigns, without the ids the database chose."""
    with store.engine.connect() as conn:
        names = {r.id: r.name for r in conn.execute(select(campaigns.c.id, campaigns.c.name))}
        ids = ("id", "campaign_id")
        return {
            "campaigns": sorted(tuple(v for k, v in r._mapping.items() if k != "id")
                                for r in conn.execute(select(campaigns))),
            "events": sorted((names[r.campaign_id], *(v for k, v in r._mapping.items() if k not in ids))
                             for r in conn.execute(select(events))),
        }


def tables(store: Store) -> set[str]:
    with store.engine.connect() as conn:
        return set(inspect(conn).get_table_names())


def check(store: Store, expected: dict[str, CampaignState], log: Rows) -> None:
    """The store at the newest revision holds the fixture's campaigns as they were."""
    assert migrate.current(store) == migrate.HEAD
    assert {"campaigns", "events", "snapshots", "alembic_version"} <= tables(store)
    assert rows(store) == log
    assert store.names() == sorted(CAMPAIGNS)
    for name in CAMPAIGNS:
        state = store.open(name)
        assert state == expected[name] == store.replay(name)
        assert {k: m.character.hp for k, m in state.roster.items()} == EXPECTED_HP[name]
        assert store.count(name) == EXPECTED_EVENTS[name]
        result = verify(store, name, deep=True)
        assert result.ok, result.explain()


def test_the_fixture_is_at_the_first_revision() -> None:
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(REVISION,)]
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)     # one file, no WAL beside it
    db.close()
    assert names == {"alembic_version", "campaigns", "events"}


def test_upgrade_downgrade_upgrade_keeps_the_data(engine_name: str, db_url: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    load_fixture(db_url, tmp_path)
    old = Store(db_url, migrate=False)
    try:
        assert migrate.current(old) == REVISION and "snapshots" not in tables(old)
        expected = {name: rebuild(old, name) for name in CAMPAIGNS}
        log = rows(old)
    finally:
        old.close()
    assert {k: m.character.hp for k, m in expected["Old Keep"].roster.items()} == EXPECTED_HP["Old Keep"]

    store = Store(db_url)                                      # opening it upgrades it
    try:
        check(store, expected, log)
        path = sqlite_path(db_url)
        if path is not None:                                   # the file as it was, kept beside it
            (backup,) = path.parent.glob(f"{path.name}.bak-{REVISION}-*")
            with sqlite3.connect(backup) as db:
                assert db.execute("SELECT version_num FROM alembic_version").fetchone() == (REVISION,)
                assert db.execute("SELECT count(*) FROM events").fetchone() == (sum(EXPECTED_EVENTS.values()),)
            db.close()

        migrate.downgrade(store, REVISION)
        assert migrate.current(store) == REVISION and "snapshots" not in tables(store)
        assert rows(store) == log
        if path is not None:
            assert len(list(path.parent.glob(f"{path.name}.bak-{migrate.HEAD}-*"))) == 1
    finally:
        store.close()

    again = Store(db_url)
    try:
        check(again, expected, log)
        # and the upgraded store writes on: commands, snapshots, undo (new ids do not clash with copied rows)
        monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 3)
        again.apply("Old Keep", "damage", fightedit.damage("brak1", 4))
        again.apply("Old Keep", "roll", cmd.roll("d6", random.Random(2)))
        assert again.undoable("Old Keep").command == "roll"         # a roll counts: undone first, then the damage
        again.undo("Old Keep")
        assert again.undo("Old Keep").state == expected["Old Keep"]
        again.create("New Crypt")
        assert again.names() == sorted([*CAMPAIGNS, "New Crypt"])
        with again.engine.connect() as conn:
            assert conn.execute(select(snapshots.c.seq)).scalars().all() == [9, 12]
        for name in again.names():
            assert verify(again, name, deep=True).ok
        assert again.replay("Old Keep") == again.open("Old Keep") == expected["Old Keep"]
    finally:
        again.close()


def test_a_new_database_starts_at_the_newest_revision(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert migrate.current(store) == migrate.HEAD
        assert store.names() == []
        path = sqlite_path(db_url)
        if path is not None:
            assert not list(path.parent.glob("*.bak-*"))        # nothing to back up
        Store(db_url).close()                                   # opening a current database changes nothing
        assert migrate.current(store) == migrate.HEAD
    finally:
        store.close()
