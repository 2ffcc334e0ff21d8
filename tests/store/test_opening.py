"""Opening a database, on either engine (issue 26): only Furnace's own is opened; another program's tables, a
newer or an empty schema revision are refused naming the database, and nothing is written to it. A SQLite
file not made yet is made by the first write, never by a read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from furnace.campaign import migrate
from furnace.campaign.location import StoreError
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store
from tests.store.conftest import sqlite_url


@pytest.fixture
def raw(db_url: str) -> Iterator[str]:
    """The empty database of the engine, with anything a test adds to it dropped after."""
    yield db_url
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS people"))
    finally:
        engine.dispose()


def _run(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def _made(url: str) -> None:
    store = Store(url)
    store.create("keep")      # a SQLite file is made by the first write
    store.close()


def test_another_programs_tables_are_refused_and_left_alone(raw: str) -> None:
    _run(raw, "CREATE TABLE people (name TEXT)")
    with pytest.raises(StoreError, match=r"is not a Furnace database \(it holds other tables: people\)"):
        Store(raw)
    assert _tables(raw) == {"people"}


@pytest.mark.parametrize(("change", "says"), [
    ("UPDATE alembic_version SET version_num = '9999'", r"written by a newer Furnace \(revision 9999; this one "
                                                        rf"reads up to {migrate.HEAD}\)"),
    ("DELETE FROM alembic_version", "has no schema revision"),
    ("UPDATE alembic_version SET version_num = 'ae1027a6acf'", "is not a Furnace database"),
    ("CREATE TABLE people (name TEXT)", "tables Furnace never makes: people"),
])
def test_a_furnace_database_not_of_this_furnace_is_refused(raw: str, change: str, says: str) -> None:
    _made(raw)
    _run(raw, change)
    before = _tables(raw)
    with pytest.raises(StoreError, match=says):
        Store(raw)
    assert _tables(raw) == before


def test_furnace_s_tables_are_the_ones_its_migrations_make(db_url: str) -> None:
    _made(db_url)
    assert _tables(db_url) == set(migrate.TABLES)
    versions = Path(migrate.__file__).parent / "migrations" / "versions"
    assert tuple(sorted(p.name[1:5] for p in versions.glob("r*.py"))) == migrate.REVISIONS


def test_a_file_not_made_yet_is_made_by_the_first_write_only(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = Store(sqlite_url(path))
    try:
        assert store.names() == [] and not path.exists()
        with pytest.raises(CampaignError, match="there is no campaign named 'keep'"):
            store.apply("keep", "damage", lambda state: (state, []))
        assert not path.exists()
        store.create("keep")
        assert path.exists() and store.names() == ["keep"]
    finally:
        store.close()
    again = Store(sqlite_url(path))
    try:
        assert again.names() == ["keep"]
    finally:
        again.close()


def test_a_file_made_by_another_program_meanwhile_is_read(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    reader = Store(sqlite_url(path))
    try:
        assert reader.names() == []
        writer = Store(sqlite_url(path))
        writer.create("keep")
        writer.close()
        assert reader.names() == ["keep"]
    finally:
        reader.close()
