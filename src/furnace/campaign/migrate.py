"""Schema migrations (Alembic): the store upgrades its database to the newest revision when it opens it.

A SQLite file that needs an upgrade is backed up first, next to itself (`furnace.db.bak-<revision>-<time>`),
so a failed or unwanted migration loses nothing. Alembic is imported only when an upgrade is due: opening a
current database reads one row of `alembic_version`.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text

from furnace.campaign.location import sqlite_path

if TYPE_CHECKING:
    from alembic.config import Config

    from furnace.campaign.store import Store

HEAD = "0003"


def current(store: Store) -> str | None:
    with store.engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def config(store: Store) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("furnace.campaign") / "migrations"))
    cfg.attributes["engine"] = store.engine
    return cfg


def upgrade(store: Store, revision: str = "head") -> None:
    """Bring the database to `revision` (the newest by default), backing a SQLite file up first."""
    now = current(store)
    if now == HEAD and revision == "head":
        return
    _backup(store, now)
    from alembic import command

    command.upgrade(config(store), revision)


def downgrade(store: Store, revision: str) -> None:
    _backup(store, current(store))
    from alembic import command

    command.downgrade(config(store), revision)


def _backup(store: Store, revision: str | None) -> None:
    path = sqlite_path(store.url)
    if path is None or revision is None or not path.exists():
        return
    with store.engine.connect() as conn:   # fold the WAL into the file so the copy is whole
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    shutil.copy2(path, path.with_name(f"{path.name}.bak-{revision}-{stamp}"))
