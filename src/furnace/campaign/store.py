"""The campaign store: campaigns kept in SQLite (the embedded default) or PostgreSQL, as an append-only log.

A command is a function from the campaign's state to the next state and the events that explain it. The
store runs it inside one transaction: it reads the state (the latest snapshot plus the changes logged after
it), runs the command, appends its events — rolls, full trees and the entities it changed — each chained
to the one before by a SHA-256 hash, bumps the campaign's version, and commits. A `FurnaceError` from the
command rolls everything back: bad input changes nothing. Two writers never lose an update: SQLite's
`BEGIN IMMEDIATE` and PostgreSQL's `SELECT … FOR UPDATE` serialise them, and a caller that read the state
earlier can pass the version it saw and gets a `ConflictError` if another command came first.

A store keeps the state it last read or wrote of each campaign (`Known`). When another process wrote since (the
console's other worker, the CLI), that state is stepped on by the changes logged after it — read with the
campaign's locked row, in the same query — as long as the log runs on from it by its hash chain; otherwise (the
campaign made anew, a write seen rolled back, a state too far behind) it is rebuilt from the snapshot and the log.

Opening is cheap: a SQLite file at the newest schema is read with the standard library's sqlite3
(`furnace.campaign.reading`) and a command's events are written with it too (`furnace.campaign.writing`: the same
rows, bytes and hash chain as the engine's); SQLAlchemy, its engine and the migrations are loaded only for
PostgreSQL, for a file that must first be made or upgraded, and for the rarer writes (making, renaming or deleting
a campaign, undo and redo, sessions, imports).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from furnace import files
from furnace.campaign import database, known_state, reading, reversal, statements, writing
from furnace.campaign.database import sqlite_sync
from furnace.campaign.known_state import Known, Link, Steps, rebuilt, stepped
from furnace.campaign.location import ReadOnlyError, StoreError, files_of, resolve_url, sqlite_path
from furnace.campaign.logrows import GENESIS, StoredEvent, chain_hash, event_row, links_after, stored
from furnace.campaign.notify import payload
from furnace.campaign.state import CampaignError, CampaignState, ConflictError, canonical, check_name
from furnace.errors import FurnaceError
from furnace.events import Event, declare
from furnace.public import entered
from furnace.rules.cache import latest_on

if TYPE_CHECKING:     # SQLAlchemy (and what is written with it) is imported where a write or PostgreSQL needs it
    from sqlalchemy import Connection, Engine

    from furnace.campaign.history import Step

SNAPSHOT_EVERY = 1000
STEP_MOST = SNAPSHOT_EVERY    # a known state further behind than this is rebuilt (from a snapshot no older)
RETRIES = 8
# the stores made and not yet closed (a store dropped unclosed leaves, its connections closed as it is freed): none
# open, no connection of a store is left for Python's last collection at exit to finalize (`furnace.cli.startup`)
_OPEN: weakref.WeakSet[Store] = weakref.WeakSet()


def every_store_closed() -> bool:
    return not _OPEN
Command = Callable[[CampaignState], tuple[CampaignState, Sequence[Event]]]
# what brings a campaign written by an older Furnace up to date before a command writes to it: each returns the
# command to run first (logged as UPGRADE), or None; `furnace.campaign.upgrades` adds its own (the store cannot
# import it: an upgrade reads the campaign's rules, and their overrides read the store)
UPGRADES: list[Callable[[CampaignState], Command | None]] = []
UPGRADE = "upgrade"


@dataclass(frozen=True)
class Applied:
    """A command's outcome: the new state, the events it appended, and the campaign's version after it."""

    state: CampaignState
    events: tuple[StoredEvent, ...]
    version: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


COMMAND = declare("command", command="referee", example={"command": "table health word"})   # a silent command
CAMPAIGN = declare("campaign", name="public", profile="public", example={"name": "The Keep", "profile": "hazards"})


class Store:
    """The campaigns of one database. `Store(resolve_url(db))`; every method is one transaction.

    Opening checks the database is Furnace's own (`furnace.campaign.database`, `migrate.opened`) and brings
    it to the newest schema; one that cannot be written opens for reading, and a write is refused. A SQLite
    file already at the newest schema is checked, read and written (`apply`) through sqlite3
    (`furnace.campaign.reading`, `furnace.campaign.writing`) until something else makes the SQLAlchemy engine
    (`engine`); from then on the engine's connections do everything."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        self._sync = sqlite_sync() if sqlite_path(url) is not None else "full"     # refused before anything is made
        self.database = database.locate(url)
        # no output of the running command may replace the database (nor its -wal, -shm or -journal)
        files.protect(self.files(), "part of the campaign database, an input of every command")
        # a SQLite file not made yet is read as an empty database in memory until the first write makes it: a
        # command that only reads, or is refused (a campaign that is not there), leaves no file behind
        self.unmade = migrate and self.database.new
        self._making = threading.Lock()
        self._wal = self.database.path is None       # SQLite: put in WAL mode before the first write, not before
        # a SQLite file there already is read without SQLAlchemy (`reading`) until a write makes the engine
        self._reader = reading.Reader(self.database, self._sync) if self.database.path and not self.unmade else None
        self._engine: Engine | None = None if self._reader else (
            database.stand_in(self._sync) if self.unmade else database.engine(self.database, self._sync))
        self._engine_made = threading.Lock()
        # the state last read or written, by campaign id (`Known`): a long-running server (the table console) does
        # not rebuild the state from the snapshot and the log for every command; when another process (a second
        # worker, the CLI) wrote since, the known state is stepped on by the changes logged after it
        self._latest: dict[int, Known] = {}
        self._ids: dict[str, int] = {}     # the campaigns known, by name: a write reads its steps with its row
        # on the command line, the entities the last write logged and its campaign's name (`_keep_for_next`)
        self._next: tuple[dict[str, Any], str] | None = None
        self.rebuilds = 0       # states rebuilt from a snapshot and the log (for the tests)
        self.steps = 0          # known states stepped on by the events another writer logged (for the tests)
        # SQLite has one writer at a time, and a writer that finds the lock taken sleeps in its busy handler
        # for up to 50-100 ms between tries: under a server's concurrent rolls that sleep was the p99. Writers
        # of this process queue on a lock instead and start the moment the one before commits (another
        # process still meets SQLite's own lock and busy timeout).
        self._writers = threading.RLock() if self._reader or self.engine.dialect.name == "sqlite" else None
        self.folds = 0          # how many times `sync_every` has folded the log into the database
        _OPEN.add(self)
        if migrate:
            self._opened()

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine, made when first needed (a write; always at once for PostgreSQL)."""
        if self._engine is None:
            with self._engine_made:
                if self._engine is None:
                    self._engine = database.engine(self.database, self._sync)
        return self._engine

    def _fast(self) -> reading.Reader | None:
        """The sqlite3 reader, while no engine is made (then the engine's pooled connections read too)."""
        return self._reader if self._engine is None else None

    def _opened(self) -> None:
        if self._reader is not None and self._engine is None and self._fast_opened():
            return
        from sqlalchemy.exc import DBAPIError

        from furnace.campaign.migrate import opened

        try:
            opened(self)
        except DBAPIError as exc:
            self.close()
            raise database.explain(exc, self.database) from None
        except FurnaceError:
            self.close()
            raise

    def _fast_opened(self) -> bool:
        """Whether the SQLite file is Furnace's at the newest schema, read without SQLAlchemy (a file to be made
        Furnace's or upgraded goes the migrations' way). A foreign file is refused in the migrations' words
        (`reading.checked_revision`), what SQLite reports in the engine's (`database.explain`)."""
        assert self._reader is not None
        try:
            return self._reader.revision() == reading.HEAD
        except FurnaceError:
            self._reader.close()
            raise

    def _make(self) -> None:
        """Make the SQLite file, on the first write to a database not made yet."""
        with self._making:
            if not self.unmade:
                return
            database.make_folder(self.database)
            stand_in, self._engine = self.engine, database.engine(self.database, self._sync)
            self.unmade = False
            stand_in.dispose()
            self._latest.clear()
            self._ids.clear()
            self._opened()

    def _made_elsewhere(self) -> bool:
        """Whether another program made the file meanwhile (then it is read, not the stand-in)."""
        path = self.database.path
        try:
            return path is not None and path.stat().st_size > 0
        except OSError:
            return False

    def _must_exist(self, name: str) -> None:
        """Before a write to a campaign of a database not made yet: the campaign is not there (said without
        making the file)."""
        if self.unmade:
            self.version(name)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
        if self._reader is not None:
            self._reader.close()
        _OPEN.discard(self)

    @property
    def read_only(self) -> str | None:
        """Why the database opens for reading only (None: it can be written)."""
        return self.database.read_only

    def require_writable(self) -> None:
        """Refuse, before any work, a command that writes to a database opened for reading."""
        if self.read_only:
            raise database.read_only(self.database, self.read_only)

    def files(self) -> list[str]:
        """The files the database is made of (the SQLite file, its -wal, -shm and -journal); none for a server."""
        path = self.database.path
        return [] if path is None else [str(p) for p in files_of(path)]

    def sync_every(self, seconds: float = 1.0) -> Callable[[], None]:
        """Under FURNACE_SQLITE_SYNC=normal, a long-running process (the table console) folds the log into the
        database every `seconds`, which syncs it to disk: a power cut then loses at most about that much, and
        no request waits for the disk. Nothing to do on PostgreSQL or under `full`. Returns the stop."""
        if self._writers is None or sqlite_sync() != "normal":
            return lambda: None

        def folded() -> None:
            self.folds += 1

        return database.fold_every(self.engine, seconds, folded)

    # -- transactions ----------------------------------------------------------------------------------
    @contextmanager
    def transaction(self, *, write: bool = False, single: bool = False) -> Iterator[Connection]:
        """One transaction. `single`: a read of one statement (or of statements each whole on its own), which on
        PostgreSQL runs without BEGIN and COMMIT — each statement is its own transaction, two round trips fewer."""
        from sqlalchemy.exc import DBAPIError, IntegrityError

        if write:
            self.require_writable()
        if self.unmade and (write or self._made_elsewhere()):
            self._make()
        try:
            if write and not self._wal:
                database.use_wal(self.engine)    # a backup restored by copying it here is in rollback-journal mode
                self._wal = True
            with self._writers if write and self._writers else nullcontext(), self.engine.connect() as conn:
                conn.info["immediate"] = write
                if single and not write and conn.dialect.name == "postgresql":
                    yield conn.execution_options(isolation_level="AUTOCOMMIT")
                    return
                with conn.begin():
                    yield conn
        except IntegrityError:
            raise
        except DBAPIError as exc:     # the engine's words (a malformed file, a lock, a server gone) as one sentence
            raise database.explain(exc, self.database) from None

    def where(self) -> str:
        return self.database.where

    # -- campaigns -------------------------------------------------------------------------------------
    def names(self) -> list[str]:
        if (fast := self._fast()) is not None:
            with fast.reading() as raw:
                return reading.campaign_names(raw)
        from sqlalchemy import select

        from furnace.campaign.schema import campaigns

        with self.transaction() as conn:
            return list(conn.scalars(select(campaigns.c.name).order_by(campaigns.c.name)))

    def create(self, name: str, profile: str = "furnace", options: dict[str, Any] | None = None) -> CampaignState:
        """A new campaign; its first event records its settings, so the log alone rebuilds it."""
        check_name(name)
        start = CampaignState(name=name, profile=profile, options=options or {})
        begins = Event(CAMPAIGN, "", (), (), {"name": name, "profile": profile})
        from sqlalchemy import insert
        from sqlalchemy.exc import IntegrityError

        from furnace.campaign.schema import campaigns

        try:   # one transaction: a crash never leaves a campaign without its first event
            with self.transaction(write=True) as conn:
                conn.execute(insert(campaigns).values(name=name, created_at=_now(), version=0, event_count=0,
                                                      last_hash=GENESIS))
                camp = self.row(conn, name, lock=True)
                return self._run(conn, camp, "campaign new", lambda _: (start, [begins])).state
        except IntegrityError:
            raise CampaignError(f"a campaign named {name!r} exists already") from None

    def row(self, conn: Connection, name: str, *, lock: bool = False) -> Any:
        found = conn.execute(statements.row_query(lock and conn.dialect.name == "postgresql"), {"name": name}).first()
        if found is None:
            raise self._no_campaign(name, self._names(conn))
        return found

    def _no_campaign(self, name: str, known: list[str]) -> CampaignError:
        return CampaignError(f"there is no campaign named {name!r} in {self.where()} "
                             f"(known: {', '.join(known) or 'none'})")

    def _fast_row(self, conn: sqlite3.Connection, name: str) -> Any:
        found = reading.campaign_row(conn, name)
        if found is None:
            raise self._no_campaign(name, reading.campaign_names(conn))
        return found

    @staticmethod
    def _names(conn: Connection) -> list[str]:
        from sqlalchemy import select

        from furnace.campaign.schema import campaigns

        return list(conn.scalars(select(campaigns.c.name).order_by(campaigns.c.name)))

    def version(self, name: str) -> int:
        if (fast := self._fast()) is not None:
            with fast.reading() as raw:
                return int(self._fast_row(raw, name).version)
        with self.transaction() as conn:
            return int(self.row(conn, name).version)

    def rename(self, name: str, new: str) -> None:
        check_name(new)
        self._must_exist(name)
        from sqlalchemy import update
        from sqlalchemy.exc import IntegrityError

        from furnace.campaign.schema import campaigns

        try:
            with self.transaction(write=True) as conn:
                self.row(conn, name, lock=True)
                conn.execute(update(campaigns).where(campaigns.c.name == name).values(name=new))
        except IntegrityError:
            raise CampaignError(f"a campaign named {new!r} exists already") from None

    def delete(self, name: str) -> None:
        self._must_exist(name)
        from sqlalchemy import delete

        from furnace.campaign.schema import campaigns, events, snapshots

        with self.transaction(write=True) as conn:
            cid = self.row(conn, name, lock=True).id
            conn.execute(delete(snapshots).where(snapshots.c.campaign_id == cid))
            conn.execute(delete(events).where(events.c.campaign_id == cid))
            conn.execute(delete(campaigns).where(campaigns.c.id == cid))

    # -- reading ---------------------------------------------------------------------------------------
    def open(self, name: str) -> CampaignState:
        """The current state: the latest snapshot plus the changes logged after it."""
        if (fast := self._fast()) is not None:
            with fast.reading() as raw:
                return self._state(raw, self._fast_row(raw, name))
        with self.transaction() as conn:
            return self._state(conn, self.row(conn, name))

    def _state(self, conn: Connection | sqlite3.Connection, camp: Any, *, snapshots_on: bool = True
               ) -> CampaignState:
        if not snapshots_on:
            return rebuilt(conn, camp, snapshots_on=False).state
        return self._known(conn, camp).state

    def _known(self, conn: Connection | sqlite3.Connection, camp: Any, read: Steps | None = None) -> Known:
        """The state at the campaign row's last event: the one known, as it is or stepped on by the events logged
        after it (`read`: those read with the row, `_locked`), else rebuilt from the latest snapshot and the
        changes after it."""
        known = self._latest.get(camp.id)
        if known is not None and known.name == camp.name:
            if known.seq == camp.event_count and known.hash == camp.last_hash:
                return known
            if known.seq < camp.event_count <= known.seq + STEP_MOST:
                links = read[1] if read is not None and read[0] == known.seq else links_after(conn, camp, known.seq)
                if (on := stepped(camp, known, links)) is not None:
                    self.steps += 1
                    return self._keep(camp.id, on)
        self.rebuilds += 1
        return self._keep(camp.id, rebuilt(conn, camp, snapshots_on=True))

    def _keep(self, campaign_id: int, known: Known) -> Known:
        self._latest[campaign_id] = known
        self._ids[known.name] = campaign_id
        return known

    def events(self, name: str, *, since: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The events after `since` (at most `limit`): one query, found by the campaign's name (a live feed asks
        this on every event of its table); the campaign's row is read only when none is found, to refuse a
        campaign that is not there."""
        if (fast := self._fast()) is not None:
            with fast.reading() as raw:
                rows = reading.named_event_rows(raw, name, since, limit)
                if not rows:
                    self._fast_row(raw, name)
                return [stored(r) for r in rows]
        with self.transaction(single=True) as conn:     # the row is read only to refuse a campaign not there
            found = [stored(r) for r in conn.execute(statements.events_query(bool(limit)), {
                "name": name, "since": since, **({"limit": limit} if limit else {})})]
            if not found:
                self.row(conn, name)
            return found

    def replay(self, name: str) -> CampaignState:
        """The state rebuilt from the whole log, no snapshot used and no die rolled."""
        if (fast := self._fast()) is not None:
            with fast.reading() as raw:
                return self._state(raw, self._fast_row(raw, name), snapshots_on=False)
        with self.transaction() as conn:
            return self._state(conn, self.row(conn, name), snapshots_on=False)

    # -- writing ---------------------------------------------------------------------------------------
    def apply(self, name: str, command: str, fn: Command, *, expected_version: int | None = None) -> Applied:
        """Run one command on the campaign and append what it did, in one transaction (retried on a clash)."""
        self._must_exist(name)
        with entered("campaign", command):
            for attempt in range(RETRIES):
                try:
                    applied = self._apply_once(name, command, fn, expected_version)
                    self._keep_for_next()
                    return applied
                except ConflictError:
                    if expected_version is not None or attempt == RETRIES - 1:
                        raise
        raise AssertionError("unreachable")

    def _keep_for_next(self) -> None:
        """The state the last write logged, as a rebuild makes it, kept for the next command (`kept_for_next`)."""
        pending, self._next = self._next, None
        if pending is not None:
            known_state.kept_for_next(*pending)

    def _apply_once(self, name: str, command: str, fn: Command, expected: int | None,
                    undoes: int | None = None) -> Applied:
        if (fast := self._fast()) is not None:     # a SQLite file at the newest schema: sqlite3 writes it
            self.require_writable()
            with self._writers or nullcontext(), fast.writing(wal=not self._wal) as raw:
                self._wal = True
                return self._checked_run(raw, self._fast_row(raw, name), command, fn, expected, undoes)
        with self.transaction(write=True) as conn:
            camp, read = self._locked(conn, name)
            return self._checked_run(conn, camp, command, fn, expected, undoes, read)

    def _locked(self, conn: Connection, name: str) -> tuple[Any, Steps | None]:
        """The campaign's row, locked, and on PostgreSQL the rows of its log after the state this store knows of it
        (`Steps`), read in the same query: a write from a worker that did not write last is one round trip
        shorter."""
        campaign_id = self._ids.get(name)
        known = self._latest.get(campaign_id) if campaign_id is not None else None
        if known is None or conn.dialect.name != "postgresql":
            return self.row(conn, name, lock=True), None
        rows = conn.execute(statements.locked_query(),
                            {"name": name, "since": known.seq, "until": known.seq + STEP_MOST}).all()
        if not rows:
            raise self._no_campaign(name, self._names(conn))
        links = [Link(r.link_seq, r.link_prev, r.link_hash, r.link_changes) for r in rows if r.link_seq is not None]
        return rows[0], (known.seq, links)

    def _checked_run(self, conn: Connection | sqlite3.Connection, camp: Any, command: str, fn: Command,
                     expected: int | None, undoes: int | None, read: Steps | None = None) -> Applied:
        if expected is not None and camp.version != expected:
            raise ConflictError(f"the campaign {camp.name!r} changed (version {camp.version}, you read version "
                                f"{expected}): read it again and retry")
        return self._run(conn, camp, command, fn, undoes, read)

    def _run(self, conn: Connection | sqlite3.Connection, camp: Any, command: str, fn: Command,
             undoes: int | None = None, read: Steps | None = None) -> Applied:
        """Inside a write transaction holding the campaign's row: run the command and log what it did (a campaign
        of an older Furnace is brought up to date first, logged as a command of its own: `UPGRADES`). `read`: the
        log's rows after the state this store knew, read with the row (`_locked`)."""
        known = self._known(conn, camp, read) if camp.event_count else None
        before = known.state if known is not None else None
        for due in UPGRADES if command != UPGRADE and undoes is None else ():   # an undo restores as it was
            if before is not None and (upgrade := due(before)) is not None:
                before = self._run(conn, camp, UPGRADE, upgrade).state
                camp = self._fast_row(conn, camp.name) if isinstance(conn, sqlite3.Connection) else self.row(
                    conn, camp.name, lock=True)
                known = self._latest.get(camp.id)
        after, logged = fn(before) if before is not None else fn(CampaignState(name=camp.name))
        changed, read_back = (None, after) if after is before else known_state.checked_changes(
            before, after, command, camp.name)
        stored = self._append(conn, camp, command, list(logged), changed, undoes)
        if (camp.event_count + len(stored)) // SNAPSHOT_EVERY > camp.event_count // SNAPSHOT_EVERY:
            self._snapshot(conn, camp.id, stored[-1], after)
        if stored:       # the state as the log will give it back, not the command's own copy of it
            folded = known_state.folded_after(known, stored[-1].changes)
            self._keep(camp.id, Known(stored[-1].seq, stored[-1].hash, camp.name, read_back, folded))
            if changed is not None and latest_on():    # made once the write is committed: not under its lock
                self._next = (folded, camp.name)
        return Applied(after, tuple(stored), camp.version + 1)

    def _append(self, conn: Connection | sqlite3.Connection, camp: Any, command: str, logged: list[Event],
                changed: list[dict[str, Any]] | None, undoes: int | None) -> list[StoredEvent]:
        if not logged:
            logged = [Event(COMMAND, "", (), (), {"command": command})]
        first, prev, now = camp.event_count + 1, camp.last_hash, _now()
        stored = []
        for i, e in enumerate(logged):
            kind, who, what, rolls, data = event_row(e)
            last = i == len(logged) - 1
            body = StoredEvent(first + i, first, command, kind, who, what, rolls, data, changed if last else None,
                               undoes if last else None, now, prev, "")
            digest = chain_hash(prev, body.body())
            stored.append(StoredEvent(**{**body.__dict__, "hash": digest}))
            prev = digest
        rows = [{**s.body(), "campaign_id": camp.id, "rolls": json.dumps(s.rolls), "data": json.dumps(s.data),
                 "changes": json.dumps(s.changes) if s.changes is not None else None,
                 "prev_hash": s.prev_hash, "hash": s.hash} for s in stored]
        if isinstance(conn, sqlite3.Connection):     # the same rows, written by sqlite3 (`furnace.campaign.writing`)
            writing.append(conn, rows)
            if writing.bump(conn, camp, stored[-1].seq, prev) != 1:
                raise ConflictError(f"the campaign {camp.name!r} changed while this command ran: retry")
            return stored
        conn.execute(statements.insert_events(), rows)
        bumped = {"campaign": camp.id, "was": camp.version, "now": camp.version + 1, "count": stored[-1].seq,
                  "head": prev}
        if conn.dialect.name == "postgresql":      # the live feed's notice goes with the bump: one statement
            notified = {**bumped, "notice": payload(camp.name, stored[-1].seq)}
            moved = len(conn.execute(statements.bump_query(True), notified).all())
        else:
            moved = conn.execute(statements.bump_query(False), bumped).rowcount
        if moved != 1:
            raise ConflictError(f"the campaign {camp.name!r} changed while this command ran: retry")
        return stored

    def _snapshot(self, conn: Connection | sqlite3.Connection, campaign_id: int, at: StoredEvent,
                  state: CampaignState) -> None:
        text = canonical(state.entities())
        row = {"campaign_id": campaign_id, "seq": at.seq, "event_hash": at.hash, "state": text,
               "state_hash": hashlib.sha256((at.hash + text).encode("utf-8")).hexdigest(), "created_at": _now()}
        if isinstance(conn, sqlite3.Connection):
            writing.snapshot(conn, row)
            return
        from sqlalchemy import insert

        from furnace.campaign.schema import snapshots

        conn.execute(insert(snapshots).values(**row))

    # -- undo and redo ----------------------------------------------------------------------------------
    def undoable(self, name: str) -> Step | None:
        """The command `undo` would reverse now (None: nothing to undo), for the referee to confirm by its id."""
        from furnace.campaign import history

        with self.transaction() as conn:
            return history.target(conn, self.row(conn, name).id, "undo")

    def redoable(self, name: str) -> Step | None:
        """The undo `redo` would reverse now (None: nothing to redo)."""
        from furnace.campaign import history

        with self.transaction() as conn:
            return history.target(conn, self.row(conn, name).id, "redo")

    def undo(self, name: str, expected: int | None = None) -> Applied:
        """Reverse the newest command in force (a roll too: `campaign.history`), as an event of its own; history is
        never deleted. `expected`: the id of the command the referee was shown; another one is refused."""
        return self._reverse(name, "undo", expected)

    def redo(self, name: str, expected: int | None = None) -> Applied:
        """Put back what the newest undo took (its state, and its facts with the same dice)."""
        return self._reverse(name, "redo", expected)

    def _reverse(self, name: str, what: Literal["undo", "redo"], expected: int | None) -> Applied:
        self._must_exist(name)
        with entered("campaign", what):
            for attempt in range(RETRIES):
                try:
                    return self._reverse_once(name, what, expected)
                except ConflictError:
                    if expected is not None or attempt == RETRIES - 1:
                        raise
        raise AssertionError("unreachable")

    def _reverse_once(self, name: str, what: Literal["undo", "redo"], expected: int | None) -> Applied:
        restore, version, step = reversal.reversing(self, name, what, expected)
        return self._apply_once(name, what, restore, version, undoes=step)

    def count(self, name: str) -> int:
        from sqlalchemy import func, select

        from furnace.campaign.schema import events

        with self.transaction() as conn:
            camp = self.row(conn, name)
            return int(conn.scalar(select(func.count()).where(events.c.campaign_id == camp.id)) or 0)


__all__ = ["Applied", "ConflictError", "FurnaceError", "ReadOnlyError", "Store", "StoreError", "StoredEvent",
           "resolve_url", "sqlite_path"]
