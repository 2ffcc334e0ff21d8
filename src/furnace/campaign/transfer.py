"""Moving campaigns: export and import one campaign, back up and restore a whole database, bring old files in.

An *export* is one JSON document holding a campaign's whole log as stored — every event with its rolls,
data, changes and both hashes — and the campaign row's version, event count and last hash. The chain of
hashes covers each event's content, never the campaign's name or a database id, so an export made from
SQLite imports into PostgreSQL (or back) with the very same hashes, and `verify` passes there. Importing
re-checks the whole chain first and refuses a document whose chain breaks, naming the event; it rebuilds
the snapshots where the store would have taken them, and writes everything in one transaction: a failed
import leaves nothing behind.

A *backup* is the whole database in one file: for SQLite, a copy made with SQLite's online backup API
(`sqlite3.Connection.backup`), which is safe while others write; for any engine, the portable JSON form,
every campaign's export in one document. `restore` reads either form into any store.

`import_files` brings the files of the single-file tools into a campaign as logged commands: character
JSON files join the roster; an old clock state file (`furnace clock …`) gives the campaign its clock and
flags, and its characters join.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import IntegrityError

from furnace import files
from furnace.campaign import commands
from furnace.campaign import store as stores
from furnace.campaign.location import sqlite_path
from furnace.campaign.logrows import GENESIS, StoredEvent, chain_hash, stored
from furnace.campaign.schema import campaigns, events, snapshots
from furnace.campaign.state import (
    CampaignError,
    CampaignState,
    apply_changes,
    canonical,
    check_entity,
    check_name,
)
from furnace.campaign.store import Applied, Command, Store
from furnace.campaign.timekeeping import CLOCK
from furnace.errors import DataFileError, from_validation
from furnace.events import Event

FORMAT = "furnace-campaign"
BACKUP_FORMAT = "furnace-backup"
FORMAT_VERSION = 1
READ_LIMIT = 256 * 1024 * 1024      # an export or a backup, checked before it is read: a long campaign is tens
                                    # of megabytes, and a document is parsed into several times its size
STATE_LIMIT = 16 * 1024 * 1024       # an old clock state file (as `furnace clock` reads it)
MAX_FILES = 100                      # files brought in by one command (a character is about 3 kB)
FILES_LIMIT = 32 * 1024 * 1024       # bytes of them in all
SQLITE_HEADER = b"SQLite format 3\x00"
HEX64 = r"^[0-9a-f]{64}$"
BATCH = 500
Source = str | os.PathLike[str]


# -- the document ------------------------------------------------------------------------------------------
class _Change(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)
    path: str
    before: Any
    after: Any


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)
    seq: int = Field(ge=1)
    command_id: int = Field(ge=1)
    command: str = Field(max_length=64)
    kind: str = Field(max_length=64)
    who: str
    what: str
    rolls: list[dict[str, Any]]
    data: dict[str, Any]
    changes: list[_Change] | None
    undoes: int | None
    created_at: str = Field(max_length=32)
    prev_hash: str = Field(pattern=HEX64)
    hash: str = Field(pattern=HEX64)

    def stored(self) -> StoredEvent:
        changed = [c.model_dump() for c in self.changes] if self.changes is not None else None
        return StoredEvent(self.seq, self.command_id, self.command, self.kind, self.who, self.what, self.rolls,
                           self.data, changed, self.undoes, self.created_at, self.prev_hash, self.hash)


class _Campaign(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)
    name: str
    created_at: str = Field(max_length=32)
    version: int = Field(ge=0)
    event_count: int = Field(ge=1)
    last_hash: str = Field(pattern=HEX64)


class _Export(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True, defer_build=True)
    format: Literal["furnace-campaign"]
    format_version: int
    campaign: _Campaign
    events: list[_Event] = Field(min_length=1)


@dataclasses.dataclass(frozen=True)
class _Checked:
    """An export whose chain was verified, with the snapshots the store would have taken."""

    campaign: _Campaign
    events: list[StoredEvent]
    snapshots: list[tuple[StoredEvent, str]]
    state: CampaignState


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# -- export -------------------------------------------------------------------------------------------------
def export_campaign(store: Store, name: str) -> dict[str, Any]:
    """The whole campaign as one JSON-ready document: every event as stored, and the campaign's counters.

    Example:
        doc = export_campaign(Store(resolve_url()), "keep")
        doc["campaign"]["last_hash"] == doc["events"][-1]["hash"]    # True
    """
    with store.transaction() as conn:
        return _export(conn, store.row(conn, name))


def _export(conn: Connection, camp: Any) -> dict[str, Any]:
    rows = conn.execute(select(events).where(events.c.campaign_id == camp.id).order_by(events.c.seq))
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": _now(),
            "campaign": {"name": camp.name, "created_at": camp.created_at, "version": camp.version,
                         "event_count": camp.event_count, "last_hash": camp.last_hash},
            "events": [{**e.body(), "prev_hash": e.prev_hash, "hash": e.hash} for e in map(stored, rows)]}


def write_export(store: Store, name: str, path: Source, *, force: bool = False) -> Path:
    """Export the campaign to a JSON file, written whole (a temporary file renamed into place).

    An existing file is replaced only with `force`. Returns the path written.

    Example:
        write_export(store, "keep", "keep.json")                 # refuses if keep.json exists
        write_export(store, "keep", "keep.json", force=True)
    """
    files.write_text(path, export_text(store, name), force=force, inputs=store.files(), what="the campaign export")
    return Path(path)


def export_text(store: Store, name: str) -> str:
    """The export as the file holds it (`write_export` writes it, the console hands it over as a download)."""
    return json.dumps(export_campaign(store, name), ensure_ascii=False, indent=1)


# -- import -------------------------------------------------------------------------------------------------
def import_campaign(store: Store, data_or_path: dict[str, Any] | Source, *, as_name: str | None = None) -> str:
    """Recreate an exported campaign in this store (SQLite or PostgreSQL): the same events, the same hashes.

    The chain of hashes is checked event by event before anything is written; a broken one is refused
    naming the first bad event. A campaign of the same name is never overwritten: pass `as_name` (the
    CLI's --as) to import it under another name. Snapshots are rebuilt where the store takes them. One
    transaction: a failed import leaves nothing behind. Returns the name the campaign has in this store.

    Example:
        import_campaign(pg_store, "keep.json")                    # 'keep'
        import_campaign(sqlite_store, export_campaign(pg_store, "keep"), as_name="keep-copy")
    """
    doc, where = _document(data_or_path)
    if doc.get("format") == BACKUP_FORMAT:
        raise DataFileError(where, "this is a backup of a whole database, not one campaign: restore it instead")
    checked = _check(doc, where)
    target = check_name(as_name if as_name is not None else checked.campaign.name)
    _write_all(store, [(target, checked)], force=False, where=where, restoring=False)
    return target


def _document(data_or_path: dict[str, Any] | Source) -> tuple[dict[str, Any], str]:
    if isinstance(data_or_path, dict):
        return data_or_path, "<export>"
    where = os.fspath(data_or_path)
    text = files.read_text(where, limit=READ_LIMIT, what="the campaign export")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(where, f"not valid JSON: {exc.msg}", f"line {exc.lineno}") from None
    except (ValueError, RecursionError) as exc:
        raise DataFileError(where, f"not valid JSON: {str(exc).split(';')[0] or type(exc).__name__}") from None
    if not isinstance(doc, dict):
        raise DataFileError(where, "a campaign export holds one JSON object")
    return doc, where


def _check(doc: dict[str, Any], where: str) -> _Checked:
    """Validate an export, walk its chain of hashes, and replay its changes into a valid state."""
    if doc.get("format") != FORMAT:
        raise DataFileError(where, f'not a Furnace campaign export (it has no "format": "{FORMAT}")')
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= FORMAT_VERSION:
        raise DataFileError(where, f"format version {version!r} is not one this Furnace reads "
                                   f"(1 to {FORMAT_VERSION}): a newer Furnace wrote it")
    try:
        parsed = _Export.model_validate(doc)
    except ValidationError as exc:
        raise from_validation(where, exc) from None
    stored = [e.stored() for e in parsed.events]
    prev, previous = GENESIS, None
    for e in stored:
        about = f"event {e.seq} ({e.command}: {e.what[:60] or e.kind})"
        if e.seq != (previous.seq + 1 if previous else 1):
            expected = (previous.seq if previous else 0) + 1
            raise DataFileError(where, f"the chain of hashes breaks: event {expected} is missing or out of order "
                                       f"(the file has event {e.seq} in its place)")
        if e.prev_hash != prev:
            raise DataFileError(where, f"the chain of hashes breaks at {about}: it does not follow event "
                                       f"{e.seq - 1} (its previous-hash was changed)")
        if chain_hash(prev, e.body()) != e.hash:
            raise DataFileError(where, f"the chain of hashes breaks at {about}: it was changed after it was "
                                       "written (its content does not match its hash)")
        if e.command_id != e.seq and (previous is None or previous.command_id != e.command_id):
            raise DataFileError(where, f"{about} belongs to command {e.command_id}, which is not the one before it")
        prev, previous = e.hash, e
    camp = parsed.campaign
    if camp.event_count != len(stored) or camp.last_hash != prev:
        raise DataFileError(where, f"the campaign records {camp.event_count} events ending in hash "
                                   f"{camp.last_hash[:12]}…, the file holds {len(stored)} ending in {prev[:12]}…: "
                                   "events were deleted or added at the end")
    snaps, state = _replay(stored, where)
    return _Checked(camp, stored, snaps, state)


def _replay(stored: list[StoredEvent], where: str) -> tuple[list[tuple[StoredEvent, str]], CampaignState]:
    """The state the log rebuilds, and the snapshots `Store.apply` takes: after a command that crosses a
    multiple of SNAPSHOT_EVERY events, at its last event."""
    entities: dict[str, Any] = {}
    snaps: list[tuple[StoredEvent, str]] = []
    every = stores.SNAPSHOT_EVERY
    for i, e in enumerate(stored):
        for change in e.changes or []:      # entity by entity, as each event changes it, before anything is written
            for value in (change["before"], change["after"]):
                if value is not None:
                    try:
                        check_entity(change["path"], value)
                    except CampaignError as exc:
                        raise DataFileError(where, f"event {e.seq} ({e.command}): {exc}") from None
        apply_changes(entities, e.changes or [])
        last_of_command = i + 1 == len(stored) or stored[i + 1].command_id != e.command_id
        if last_of_command and e.seq // every > (e.command_id - 1) // every:
            snaps.append((e, canonical(entities)))
    try:
        return snaps, CampaignState.from_entities(entities, "import")
    except CampaignError as exc:
        raise DataFileError(where, f"the campaign its log rebuilds is not valid: {exc}") from None


def _write_all(store: Store, wanted: Sequence[tuple[str, _Checked]], *, force: bool, where: str,
               restoring: bool) -> None:
    """Insert checked campaigns under the given names in one transaction; with `force`, replace namesakes."""
    names = [name for name, _ in wanted]
    doubles = sorted({n for n in names if names.count(n) > 1})
    if doubles:
        raise DataFileError(where, f"it holds more than one campaign named {', '.join(map(repr, doubles))}")
    try:
        with store.transaction(write=True) as conn:
            taken = {row.name: row.id for row in conn.execute(
                select(campaigns.c.name, campaigns.c.id).where(campaigns.c.name.in_(names)))}
            if taken and not force:
                raise _exists(sorted(taken), store, restoring)
            for cid in taken.values():
                conn.execute(delete(snapshots).where(snapshots.c.campaign_id == cid))
                conn.execute(delete(events).where(events.c.campaign_id == cid))
                conn.execute(delete(campaigns).where(campaigns.c.id == cid))
            for name, checked in wanted:
                _insert(conn, name, checked)
    except IntegrityError:   # another writer took a name between our check and our insert
        raise _exists(names, store, restoring) from None


def _exists(names: list[str], store: Store, restoring: bool) -> CampaignError:
    shown = ", ".join(map(repr, names))
    if restoring:
        return CampaignError(f"campaign(s) {shown} exist already in {store.where()}: nothing was restored; "
                             "pass --force to replace them")
    return CampaignError(f"a campaign named {shown} exists already in {store.where()}: nothing was imported; "
                         "import it under another name with --as NEW-NAME")


def _insert(conn: Connection, name: str, checked: _Checked) -> None:
    camp = checked.campaign
    key = conn.execute(insert(campaigns).values(
        name=name, created_at=camp.created_at, version=camp.version, event_count=camp.event_count,
        last_hash=camp.last_hash)).inserted_primary_key
    assert key is not None
    cid = key[0]
    rows = [{**e.body(), "campaign_id": cid, "rolls": json.dumps(e.rolls), "data": json.dumps(e.data),
             "changes": json.dumps(e.changes) if e.changes is not None else None, "prev_hash": e.prev_hash,
             "hash": e.hash} for e in checked.events]
    for start in range(0, len(rows), BATCH):
        conn.execute(insert(events), rows[start:start + BATCH])
    now = _now()
    for at, text in checked.snapshots:
        conn.execute(insert(snapshots).values(
            campaign_id=cid, seq=at.seq, event_hash=at.hash, state=text,
            state_hash=hashlib.sha256((at.hash + text).encode("utf-8")).hexdigest(), created_at=now))


# -- backup and restore -----------------------------------------------------------------------------------
def backup(store: Store, path: Source, *, force: bool = False,
           portable: bool | None = None) -> Literal["sqlite", "json"]:
    """The whole database (every campaign) in one file, written whole; returns the form written.

    A SQLite store is copied with SQLite's online backup API (safe while others write) into a single-file
    SQLite database; `portable=True`, a path ending in `.json`, or a PostgreSQL store gives the portable JSON
    form instead: every campaign's export in one document, which `restore` reads into any engine. An
    existing file is replaced only with `force`.

    Example:
        backup(Store(resolve_url()), "furnace-2026-12-01.db")                 # 'sqlite'
        backup(Store("postgresql+psycopg://…"), "furnace.json")               # 'json'
    """
    db = sqlite_path(store.url)
    if portable is None:
        portable = db is None or os.fspath(path).lower().endswith(".json")
    if not portable:
        if db is None:
            raise CampaignError(f"the database {store.where()} is not SQLite: back it up in the portable JSON "
                                "form (a .json file)")
        files.write_with(path, lambda temp: _sqlite_backup(store, temp, path), force=force, inputs=store.files(),
                         what="the backup")
        return "sqlite"
    files.write_text(path, backup_text(store), force=force, inputs=store.files(), what="the backup")
    return "json"


def backup_text(store: Store, names: Iterable[str] | None = None) -> str:
    """The portable backup (JSON) as its file holds it: every campaign of the store, or only those `names` (a
    referee's whose session runs only some: the console's download), each as its export; `restore` reads it."""
    wanted = None if names is None else set(names)
    with store.transaction() as conn:
        exported = [_export(conn, camp) for camp in conn.execute(select(campaigns).order_by(campaigns.c.name))
                    if wanted is None or camp.name in wanted]
    doc = {"format": BACKUP_FORMAT, "format_version": FORMAT_VERSION, "exported_at": _now(), "campaigns": exported}
    return json.dumps(doc, ensure_ascii=False, indent=1)


def _sqlite_backup(store: Store, temp: str, path: Source) -> None:
    """SQLite's online backup of the store's database into `temp`, over the store's own connection (so a
    database opened for reading is read as it was opened: nothing is written beside it)."""
    raw = store.engine.raw_connection()
    try:
        source = raw.driver_connection
        assert isinstance(source, sqlite3.Connection)
        target = sqlite3.connect(temp)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")   # one self-contained file: no -wal beside it
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise files.FileAccessError(path, f"the SQLite backup failed: {exc}", verb="write", what="the backup") \
            from None
    finally:
        raw.close()


def restore(store: Store, path: Source, *, force: bool = False) -> list[str]:
    """Bring back every campaign of a backup (either form, from either engine) into this store.

    Each campaign's chain is verified before anything is written, and all are written in one transaction.
    A campaign of the same name already here is refused (nothing is restored) unless `force`, which
    replaces it; campaigns here that the backup does not hold are left alone. A single campaign's export
    restores too. Returns the names restored.

    Example:
        restore(Store(resolve_url("new.db")), "furnace-2026-12-01.db")          # ['keep', 'tomb']
        restore(pg_store, "furnace.json", force=True)
    """
    where = os.fspath(path)
    if any(files.same_file(where, part) for part in store.files()):
        raise DataFileError(where, "it is this store's own database: restore a backup of it into another --db")
    files.regular_file(where, limit=READ_LIMIT, what="the backup")    # a FIFO or a device never blocks us
    if _is_sqlite(where):
        docs = _read_sqlite_backup(where)
    else:
        doc, _ = _document(path)
        if doc.get("format") == FORMAT:
            docs = [doc]
        elif doc.get("format") == BACKUP_FORMAT:
            version = doc.get("format_version")
            if not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
                raise DataFileError(where, f"backup format version {version!r} is not one this Furnace reads")
            listed = doc.get("campaigns")
            if not isinstance(listed, list) or not all(isinstance(d, dict) for d in listed):
                raise DataFileError(where, 'a backup holds its campaigns\' exports in a list under "campaigns"')
            docs = listed
        else:
            raise DataFileError(where, f'not a Furnace backup (no "format": "{BACKUP_FORMAT}") nor a SQLite file')
    checked = []
    for i, d in enumerate(docs, 1):
        name = d.get("campaign", {}).get("name") if isinstance(d.get("campaign"), dict) else None
        one = _check(d, f"{where} (campaign {name!r})" if isinstance(name, str) else f"{where} (campaign {i})")
        checked.append((check_name(one.campaign.name), one))
    _write_all(store, checked, force=force, where=where, restoring=True)
    return [name for name, _ in checked]


def _is_sqlite(path: str) -> bool:
    try:
        return files.read_head(path, len(SQLITE_HEADER)) == SQLITE_HEADER
    except files.FileAccessError:
        return False   # reading it as JSON will say what is wrong


def _read_sqlite_backup(path: str) -> list[dict[str, Any]]:
    """Every campaign's export from a SQLite backup file (a copy of it is migrated, never the file itself)."""
    with tempfile.TemporaryDirectory(prefix="furnace-restore-") as folder:
        copy = Path(folder) / "restore.db"
        try:
            shutil.copyfile(path, copy)
            conn = sqlite3.connect(str(copy))
            try:
                tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                conn.close()
        except (OSError, sqlite3.Error) as exc:
            raise DataFileError(path, f"cannot read the SQLite backup: {exc}") from None
        if not {"campaigns", "events", "alembic_version"} <= tables:
            missing = ", ".join(sorted({"campaigns", "events", "alembic_version"} - tables))
            raise DataFileError(path, f"a SQLite database, but not a Furnace one (it has no {missing} table)")
        try:
            source = Store(f"sqlite:///{copy}")     # brings an older backup up to the current schema
            try:
                with source.transaction() as read:
                    return [_export(read, camp)
                            for camp in read.execute(select(campaigns).order_by(campaigns.c.name))]
            finally:
                source.close()
        except stores.StoreError as exc:        # said of the copy: said again of the file the referee named
            reason = str(exc).replace(f"the database {copy}", "it").replace(str(copy), "it")
            raise DataFileError(path, f"not a Furnace backup that can be restored: {reason}") from None


# -- old files into a campaign ------------------------------------------------------------------------------
def import_files(store: Store, name: str, paths: Iterable[Source]) -> list[Applied]:
    """Bring character files and old clock state files into a campaign, one logged command per file.

    A character JSON file joins the roster (as `join` does: a new short id). A clock state file written by
    `furnace clock …` (a JSON object of clock, characters and flags) gives the campaign its clock and flags,
    and its characters join. Every file is read and validated before the first is applied: a malformed one
    is refused with its path and reason, and nothing is imported. Returns each file's `Applied`.

    Example:
        import_files(store, "keep", ["examples/characters/brakka.json", "furnace-campaign.json"])
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    paths = list(paths)
    files.check_batch(paths, count=MAX_FILES, each=STATE_LIMIT, total=FILES_LIMIT, what="the file to import")
    loaded = [_read_file(os.fspath(p)) for p in paths]
    return [store.apply(name, "campaign import-file", command) for command in loaded]


def _read_file(path: str) -> Command:
    from furnace.characters.character import Character
    from furnace.play.clock import Campaign as ClockCampaign

    text = files.read_text(path, limit=STATE_LIMIT, what="the file to import")
    source = os.path.basename(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(path, f"not valid JSON: {exc.msg}", f"line {exc.lineno}") from None
    except (ValueError, RecursionError) as exc:
        raise DataFileError(path, f"not valid JSON: {str(exc).split(';')[0] or type(exc).__name__}") from None
    if isinstance(data, dict) and "clock" in data and set(data) <= {"clock", "characters", "flags"}:
        try:
            old = ClockCampaign.model_validate_json(text)
        except ValidationError as exc:
            raise from_validation(path, exc) from None
        _check_clock(path, old)
        return _adopt_clock(old, source)
    return _join_file(Character.from_json(text, path), source)


def _check_clock(path: str, old: Any) -> None:
    """What the clock needs to run forward (the checks `furnace clock` makes on its state file)."""
    clock = old.clock
    if clock.now < 0:
        raise DataFileError(path, f"field clock.now: {clock.now} is before the campaign began")
    ids = [e.id for e in clock.entries]
    if len(set(ids)) != len(ids):
        raise DataFileError(path, "field clock.entries: an entry id is used twice")
    for i, e in enumerate(clock.entries):
        if e.at < clock.now:
            raise DataFileError(path, f"field clock.entries.{i}.at: #{e.id} falls due before the clock's time")
        if e.every is not None and e.every < 1:
            raise DataFileError(path, f"field clock.entries.{i}.every: #{e.id} repeats every {e.every} seconds")
    if ids and clock.next_id <= max(ids):
        raise DataFileError(path, f"field clock.next_id: {clock.next_id} is not above the entries' ids")


def _join_file(character: Any, source: str) -> Command:
    join = commands.join(character)

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        after, logged = join(state)
        return after, [e.with_data(file=source) for e in logged]

    return run


def _adopt_clock(old: Any, source: str) -> Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        before = state.clock.now
        state = state.model_copy(update={"clock": old.clock, "flags": dict(old.flags)})
        logged = [Event(CLOCK, "", (), (), {"change": "import", "file": source, "before": before,
                                            "after": old.clock.now, "now": old.clock.now,
                                            "entries": len(old.clock.entries), "flags": dict(old.flags)})]
        for character in old.characters.values():
            state, joined = _join_file(character, source)(state)
            logged += joined
        return state, logged

    return run


__all__ = ["FORMAT", "FORMAT_VERSION", "backup", "backup_text", "export_campaign", "export_text", "import_campaign",
           "import_files", "restore", "write_export"]
