"""Schema migrations (Alembic): the store upgrades its database to the newest revision when it opens it.

A SQLite file that needs an upgrade is backed up first, next to itself (`furnace.db.bak-<revision>-<time>`),
so a failed or unwanted migration loses nothing. Alembic is imported only when an upgrade is due: opening a
current database reads one row of `alembic_version`.

Only Furnace's own databases are opened (`opened`): an empty one is made Furnace's; one with tables of its
own but no `alembic_version`, tables Furnace never makes, an empty `alembic_version` or a revision Furnace
does not know is refused, and nothing is written to it. A newer revision is named: a newer Furnace wrote it.
"""

from __future__ import annotations

import shutil
import threading
import time
from datetime import UTC, datetime
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.exc import OperationalError

from furnace.campaign.database import use_wal
from furnace.campaign.location import StoreError, sqlite_path
from furnace.campaign.reading import HEAD, REVISIONS, TABLES, checked_revision

if TYPE_CHECKING:
    from alembic.config import Config

    from furnace.campaign.store import Store

__all__ = ["HEAD", "REVISIONS", "TABLES", "current", "downgrade", "opened", "schema_revision", "upgrade"]


def current(store: Store) -> str | None:
    with store.engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


_ALEMBIC = threading.Lock()     # Alembic keeps the migration running in module state: one at a time a process
RACE_TRIES = 40        # a database made by two programs at once: the one that loses waits for the other's


def opened(store: Store) -> None:
    """Check that the store's database is Furnace's own and bring it to HEAD (or say why it cannot be).

    Two programs making one new database race: both find it empty, one migrates it, the other's migration
    fails (the lock taken, or the tables there already). The one that lost looks again, and finds it made."""
    for attempt in range(RACE_TRIES):
        try:
            _open_once(store)
            return
        except OperationalError as exc:
            said = str(exc.orig).lower()
            if attempt == RACE_TRIES - 1 or not ("locked" in said or "already exists" in said):
                raise
            time.sleep(0.05 * (1 + attempt % 4))


def _open_once(store: Store) -> None:
    now = schema_revision(store)
    if now == HEAD:
        return
    if store.read_only:
        why = "it is empty" if now is None else f"it was written by an older Furnace (revision {now})"
        raise StoreError(f"cannot use the database {store.where()}: {why} and it must be written to first, but it "
                         f"is read-only ({store.read_only}); make it writable once, or give another with --db")
    upgrade(store)


def schema_revision(store: Store) -> str | None:
    """The schema revision of a Furnace database (None: an empty database); anything else is refused
    (`furnace.campaign.reading.checked_revision`, which the fast opening of a SQLite file reads too)."""
    with store.engine.connect() as conn:
        names = set(inspect(conn).get_table_names())
        found = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars()) \
            if "alembic_version" in names else []
    return checked_revision(names, found, store.where())


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
    use_wal(store.engine)           # a migration writes: the file is known to be Furnace's (or empty) by now
    _backup(store, now)
    from alembic import command

    with _ALEMBIC:
        command.upgrade(config(store), revision)


def downgrade(store: Store, revision: str) -> None:
    _backup(store, current(store))
    from alembic import command

    with _ALEMBIC:
        command.downgrade(config(store), revision)


def _backup(store: Store, revision: str | None) -> None:
    path = sqlite_path(store.url)
    if path is None or revision is None or not path.exists():
        return
    with store.engine.connect() as conn:   # fold the WAL into the file so the copy is whole
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    try:
        shutil.copy2(path, path.with_name(f"{path.name}.bak-{revision}-{stamp}"))
    except OSError as exc:
        raise StoreError(f"cannot back up the database {store.where()} before upgrading it: "
                         f"{(exc.strerror or type(exc).__name__).lower()}; nothing was changed") from None
