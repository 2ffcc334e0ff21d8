"""The console's stream caps where every worker sees them: on PostgreSQL, several workers (or machines) serve one
database, and a player's live streams are counted in it, not in one process's memory. (Her rate of writes is
each worker's, at its share of the rate: `app._limits`, no round trip per request.)

The choice, kept small: two UNLOGGED tables in a schema of their own, `furnace_web`, made on first use — outside
the campaign schema and its migrations, because they hold nothing of a campaign, only what the running consoles
count now (a crash of the server may empty an unlogged table: that loses counts, never a campaign).

- `furnace_web.streams`: one row per live stream open (its worker, session and address). A take runs in one
  transaction under a transaction-scoped advisory lock, so two workers never both pass the last place: it counts
  the session's rows and the address's, refuses past either limit (429), else inserts its row. Its release deletes
  the row (in a thread of its own, never on the event loop). A worker that dies cannot release: each worker stamps
  its row of `furnace_web.workers` every HEARTBEAT seconds while it holds streams, and the rows of a worker not
  stamped for LEASE seconds are counted out (and deleted by the next take).

On SQLite the console is one process and keeps them in memory (`limits.Streams`).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Engine, text

from furnace.web.config import WebSettings
from furnace.web.limits import Refused

SCHEMA = "furnace_web"
HEARTBEAT = 10.0       # seconds between a worker's stamps while it holds streams
LEASE = 45.0           # a worker not stamped for this long is gone: its streams are counted out
_MAKE_LOCK, _TAKE_LOCK = 0x46_55_52_4E_01, 0x46_55_52_4E_02     # advisory lock keys ("FURN" 1, 2)

_MADE: set[str] = set()
_made_lock = threading.Lock()


def made(engine: Engine) -> None:
    """The schema and its tables, made once (by whichever worker comes first; the others wait on the lock)."""
    key = str(engine.url)
    with _made_lock:
        if key in _MADE:
            return
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MAKE_LOCK})
            conn.execute(text(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}"))
            conn.execute(text(f"CREATE UNLOGGED TABLE IF NOT EXISTS {SCHEMA}.workers "
                              "(worker text PRIMARY KEY, seen double precision NOT NULL)"))
            conn.execute(text(f"CREATE UNLOGGED TABLE IF NOT EXISTS {SCHEMA}.streams (id bigserial PRIMARY KEY, "
                              "worker text NOT NULL, session bigint NOT NULL, address text NOT NULL)"))
        _MADE.add(key)


NOW = "extract(epoch from clock_timestamp())"


class SharedStreams:
    """`limits.Streams` kept in the database, so that the caps hold whichever worker a stream reaches."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.worker = secrets.token_hex(8)
        self._mine = 0
        self._lock = threading.Lock()
        self._releases = ThreadPoolExecutor(max_workers=1, thread_name_prefix="furnace-streams")
        self._stop = threading.Event()
        self._beating: threading.Thread | None = None

    def take(self, session: int, address: str, settings: WebSettings) -> Callable[[], None]:
        """Count one stream (a database round trip: call it off the event loop); Refused (429) when the session
        or the address has its share open. Returns its release, which counts it out once however often called."""
        made(self.engine)
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _TAKE_LOCK})
            self._stamp(conn)
            conn.execute(text(f"DELETE FROM {SCHEMA}.streams s WHERE NOT EXISTS (SELECT 1 FROM {SCHEMA}.workers w "
                              f"WHERE w.worker = s.worker AND w.seen > {NOW} - :lease)"), {"lease": LEASE})
            counts = conn.execute(text(
                f"SELECT count(*) FILTER (WHERE session = :session) AS by_session, "
                f"count(*) FILTER (WHERE address = :address) AS by_address FROM {SCHEMA}.streams"),
                {"session": session, "address": address}).one()
            if counts.by_session >= settings.streams_per_session:
                raise Refused(429, f"this session has {settings.streams_per_session} live streams open already: "
                                   "close a tab")
            if counts.by_address >= settings.streams_per_address:
                raise Refused(429, f"{settings.streams_per_address} live streams are open from this address")
            row = conn.execute(text(f"INSERT INTO {SCHEMA}.streams (worker, session, address) "
                                    "VALUES (:worker, :session, :address) RETURNING id"),
                               {"worker": self.worker, "session": session, "address": address}).scalar_one()
        with self._lock:
            self._mine += 1
            self._beat()
        released = threading.Event()

        def release() -> None:
            if released.is_set():
                return
            released.set()
            with self._lock:
                self._mine -= 1
            self._releases.submit(self._drop, int(row))

        return release

    def _drop(self, row: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(text(f"DELETE FROM {SCHEMA}.streams WHERE id = :id"), {"id": row})

    def _stamp(self, conn: Any) -> None:
        conn.execute(text(f"INSERT INTO {SCHEMA}.workers (worker, seen) VALUES (:worker, {NOW}) "
                          "ON CONFLICT (worker) DO UPDATE SET seen = excluded.seen"), {"worker": self.worker})

    def _beat(self) -> None:
        """Stamp this worker every HEARTBEAT seconds while it holds streams (a thread, started at the first)."""
        if self._beating is not None and self._beating.is_alive():
            return

        def beat() -> None:
            while not self._stop.wait(HEARTBEAT):
                try:
                    with self.engine.begin() as conn:
                        self._stamp(conn)
                except Exception:          # the server away a moment: the next beat stamps it
                    continue

        self._beating = threading.Thread(target=beat, name="furnace-heartbeat", daemon=True)
        self._beating.start()

    def open(self) -> int:
        """The streams this worker holds open now."""
        with self._lock:
            return self._mine

    def everywhere(self) -> int:
        """The streams open on every worker (for the tests and the benchmark)."""
        made(self.engine)
        with self.engine.begin() as conn:
            return int(conn.execute(text(f"SELECT count(*) FROM {SCHEMA}.streams s JOIN {SCHEMA}.workers w "
                                         f"USING (worker) WHERE w.seen > {NOW} - :lease"),
                                    {"lease": LEASE}).scalar_one())
