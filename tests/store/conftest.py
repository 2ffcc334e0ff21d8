"""Fixtures of the campaign store's tests: a store on each engine, a clean database, the example characters.

`db_url` (and `store`, built on it) is parametrized over "sqlite" (a file in tmp_path) and "postgres"
(FURNACE_TEST_POSTGRES_URL, emptied before each test). Without that variable the PostgreSQL cases skip with
a loud reason, except under CI=true, where they fail: CI must never pass without having run them. Under
pytest-xdist each worker has a database of its own on that server (`furnace_test_gw0`, …, made on first use),
so no worker empties another's; each `make test` starts a server of its own (scripts/with-postgres).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url, text

from furnace.campaign.store import Store
from furnace.characters.character import Character
from tests.helpers.factories import example, examples

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PG_ENV = "FURNACE_TEST_POSTGRES_URL"
PG_MISSING = (f"PostgreSQL store tests NOT RUN: {PG_ENV} is not set — run through scripts/with-postgres / "
              "make test")
TABLES = ("session_campaigns", "invites", "web_sessions", "snapshots", "events", "campaigns", "alembic_version")
ENGINES = [pytest.param("sqlite", id="sqlite"), pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)]

_skipped_pg: list[str] = []


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def postgres_url(nodeid: str = "") -> str:
    """The test PostgreSQL's URL; skips (fails under CI=true) when there is none."""
    url = os.environ.get(PG_ENV, "").strip()
    if url:
        return own_database(url)
    _skipped_pg.append(nodeid)
    if in_ci():
        pytest.fail(f"CI=true but {PG_ENV} is not set: the PostgreSQL store tests must run in CI "
                    "(run them through scripts/with-postgres / make test)", pytrace=False)
    pytest.skip(PG_MISSING)


_OWN: dict[str, str] = {}


def own_database(url: str) -> str:
    """The database of this pytest-xdist worker (`<name>_gw0`, …) on the server of `url`, made on first use; `url`
    itself outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker:
        return url
    if url not in _OWN:
        base = make_url(url)
        name = f"{base.database}_{worker}"
        engine = create_engine(base, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name})
                if exists.first() is None:
                    conn.execute(text(f'CREATE DATABASE "{name}"'))
        finally:
            engine.dispose()
        _OWN[url] = base.set(database=name).render_as_string(hide_password=False)
    return _OWN[url]


def clean_postgres(url: str) -> None:
    """Drop the store's tables (and the console's counts), so the test starts from an empty database."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '20s'"))   # a connection left open fails, not hangs
            conn.execute(text(f"DROP TABLE IF EXISTS {', '.join(TABLES)} CASCADE"))
            conn.execute(text("DROP SCHEMA IF EXISTS furnace_web CASCADE"))   # the console's counts (web.shared)
    finally:
        engine.dispose()


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


@pytest.fixture(params=ENGINES)
def engine_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def db_url(engine_name: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The URL of an empty database of the engine: a new SQLite file, or the test PostgreSQL emptied."""
    if engine_name == "sqlite":
        return sqlite_url(tmp_path / "campaigns.db")
    url = postgres_url(request.node.nodeid)
    clean_postgres(url)
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture(scope="session")
def characters() -> dict[str, Character]:
    """The example characters by file name (`characters["brakka"]`)."""
    return examples()


@pytest.fixture
def tough() -> Callable[[str, int], Character]:
    """An example character with as many hit points as a test needs: `tough("brakka", 200)`."""
    return lambda stem, hp: example(stem, hp=hp, hp_max=hp)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped_pg:
        verdict = "FAILED (CI=true)" if in_ci() else "SKIPPED"
        terminalreporter.write_sep("!", f"{len(_skipped_pg)} PostgreSQL store tests {verdict}", red=True, bold=True)
        terminalreporter.write_line(PG_MISSING, red=True, bold=True)
