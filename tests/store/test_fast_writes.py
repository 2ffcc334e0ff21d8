"""A write to a SQLite file at the newest schema goes through the standard library's sqlite3
(`furnace.campaign.writing`), not SQLAlchemy: it must leave exactly the rows the engine's path writes.

The same commands (joins, damage, heals, rolls, a refused command, snapshots every few events, and an undo and a redo,
which go the engine's way) run on two copies of one campaign file, one store writing with sqlite3 and one with
SQLAlchemy, at the same clock: every row of every table is then the same, byte for byte.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit
from furnace.campaign import store as store_module
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Applied, ConflictError, Store
from furnace.campaign.verify import verify
from furnace.characters.character import Character
from furnace.errors import FurnaceError
from tests.store.conftest import sqlite_url

TABLES = ("alembic_version", "campaigns", "events", "snapshots", "web_sessions", "invites")
NOW = "2026-12-02T12:00:00.000+00:00"


@pytest.fixture
def both(tmp_path: Path, characters: dict[str, Character],
         monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Store, Store]]:
    """A campaign of two made on a file, then copied: (the store that writes with sqlite3, the one with SQLAlchemy)."""
    monkeypatch.setattr(store_module, "_now", lambda: NOW)
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 4)
    made = Store(sqlite_url(tmp_path / "made.db"))
    made.create("keep")
    made.apply("keep", "join", cmd.join(characters["brakka"]))
    made.close()
    for name in ("fast.db", "engine.db"):
        shutil.copy(tmp_path / "made.db", tmp_path / name)
    fast, engine = Store(sqlite_url(tmp_path / "fast.db")), Store(sqlite_url(tmp_path / "engine.db"))
    assert engine.engine is not None                     # made now: every later write goes SQLAlchemy's way
    try:
        yield fast, engine
    finally:
        fast.close()
        engine.close()


def rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the store's file, in the order written, with each value's SQLite type."""
    assert store.database.path is not None
    with closing(sqlite3.connect(store.database.path)) as conn:
        return {t: conn.execute(f"SELECT *, {_types(conn, t)} FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def _types(conn: sqlite3.Connection, table: str) -> str:
    return ", ".join(f"typeof({c[1]})" for c in conn.execute(f"PRAGMA table_info({table})"))


def play(store: Store, characters: dict[str, Character]) -> list[Applied | str]:
    """The same evening on either store: what each command returned (or the sentence of its refusal)."""
    rng = random.Random(5)
    plays: list[Callable[[], Applied]] = [
        lambda: store.apply("keep", "join", cmd.join(characters["wren"])),
        lambda: store.apply("keep", "damage brak1 5", fightedit.damage("brak1", 5, "a falling stone")),
        lambda: store.apply("keep", "heal brak1 2", fightedit.heal("Brakka", 2)),
        lambda: store.apply("keep", "roll", cmd.roll("3d6+1", rng, who="Wren")),
        lambda: store.apply("keep", "damage nobody 1", fightedit.damage("nobody", 1)),   # refused: nothing written
        lambda: store.apply("keep", "roll", cmd.roll("1d20", rng, label="luck", who="Wren")),
        lambda: store.apply("keep", "damage wren1 3", fightedit.damage("wren1", 3)),
        lambda: store.apply("keep", "heal wren1 1", fightedit.heal("wren1", 1), expected_version=store.version("keep")),
        lambda: store.apply("keep", "heal wren1 1", fightedit.heal("wren1", 1), expected_version=1),   # stale
        lambda: store.undo("keep"),
        lambda: store.redo("keep"),
        lambda: store.apply("keep", "damage brak1 1", fightedit.damage("brak1", 1)),
    ]
    done: list[Applied | str] = []
    for command in plays:
        try:
            done.append(command())
        except (FurnaceError, ConflictError) as exc:
            done.append(str(exc))
    return done


def test_sqlite3_and_sqlalchemy_write_the_same_rows(both: tuple[Store, Store],
                                                     characters: dict[str, Character]) -> None:
    fast, engine = both
    assert play(fast, characters) == play(engine, characters)
    assert rows(fast) == rows(engine)
    assert len(rows(fast)["snapshots"]) >= 3 and len(rows(fast)["events"]) > 12
    assert fast.open("keep") == engine.open("keep") == fast.replay("keep")
    assert verify(fast, "keep", deep=True).ok


def test_the_fast_path_wrote_them(both: tuple[Store, Store], characters: dict[str, Character]) -> None:
    """The store on the file made no SQLAlchemy engine for its writes (an undo is the first thing that makes one)."""
    fast, _ = both
    fast.apply("keep", "damage brak1 5", fightedit.damage("brak1", 5))
    fast.apply("keep", "roll", cmd.roll("3d6+1", random.Random(1), who="Brakka"))
    assert fast._engine is None
    with closing(sqlite3.connect(fast.database.path or "")) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    fast.undo("keep")
    assert fast._engine is not None
    assert verify(fast, "keep", deep=True).ok


def test_a_refused_write_on_the_fast_path_changes_nothing(both: tuple[Store, Store]) -> None:
    fast, _ = both
    before = rows(fast)

    def half_done(state: Any) -> Any:
        raise FurnaceError("refused after the work")

    with pytest.raises(FurnaceError, match="refused after the work"):
        fast.apply("keep", "broken", half_done)
    with pytest.raises(ConflictError):
        fast.apply("keep", "heal brak1 1", fightedit.heal("brak1", 1), expected_version=0)
    assert rows(fast) == before
    assert fast.apply("keep", "damage brak1 1", fightedit.damage("brak1", 1)).version == fast.version("keep")


def test_an_upgrade_before_a_write_is_logged_alike(both: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign an older Furnace wrote is brought up to date (`store.UPGRADES`) inside the write's transaction, on
    the fast path as on the engine's: the same rows."""
    def hostile(state: CampaignState) -> tuple[CampaignState, list[Any]]:
        return state.model_copy(update={"flags": {**state.flags, "hostile": True}}), []

    def due(state: CampaignState) -> store_module.Command | None:
        return None if state.flags.get("hostile") else hostile

    monkeypatch.setattr(store_module, "UPGRADES", [due])
    for store in both:
        applied = store.apply("keep", "damage brak1 2", fightedit.damage("brak1", 2))
        assert applied.state.flags["hostile"] and [e.command for e in store.events("keep")][-2:] == [
            store_module.UPGRADE, "damage brak1 2"]
    assert both[0]._engine is None
    assert rows(both[0]) == rows(both[1])
