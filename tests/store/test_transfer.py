"""Moving campaigns (`furnace.campaign.transfer`): export and import across engines with the same hashes,
backup and restore of a whole database, and old character and clock files brought into a campaign.

Every test that needs a store runs on SQLite and on PostgreSQL (FURNACE_TEST_POSTGRES_URL, set by
`scripts/with-postgres`; without it the PostgreSQL cases skip, and fail when CI=true)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from furnace.campaign import commands, fightedit, transfer
from furnace.campaign import store as stores
from furnace.campaign.schema import campaigns, events, snapshots
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store
from furnace.campaign.verify import verify
from furnace.characters.character import Character
from furnace.errors import DataFileError, FurnaceError
from furnace.files import FileAccessError
from furnace.play import clock as clocks
from tests.helpers.factories import campaign as clock_campaign
from tests.helpers.factories import example
from tests.helpers.telling import what
from tests.store.conftest import clean_postgres, postgres_url

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
CHARACTERS = sorted(EXAMPLES.glob("*.json"))


# -- stores on both engines ---------------------------------------------------------------------------------
def _open(url: str) -> Iterator[Store]:
    store = Store(url)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def pg_store(request: pytest.FixtureRequest) -> Iterator[Store]:
    url = postgres_url(request.node.nodeid)
    clean_postgres(url)
    yield from _open(url)


def _sqlite(tmp_path: Path, name: str) -> Store:
    return Store(f"sqlite:///{tmp_path / name}")


# -- a campaign with some history ---------------------------------------------------------------------------
def _play(store: Store, name: str = "keep", *, commands_more: int = 0) -> None:
    """A campaign under hazards: three characters join, one is hurt and healed, dice roll, one undo."""
    rng = random.Random(7)
    store.create(name, "hazards", {"enemy_morale": True})
    transfer.import_files(store, name, CHARACTERS[:3])
    who = sorted(store.open(name).roster)[0]
    store.apply(name, "damage", fightedit.damage(who, 3, "a falling stone"))
    store.apply(name, "heal", fightedit.heal(who, 2))
    store.apply(name, "roll", commands.roll("d20+2", rng, label="treasure"))
    store.undo(name)
    for i in range(commands_more):
        store.apply(name, "roll", commands.roll("2d6", rng, label=f"wandering monster {i}"))


def _snapshots(store: Store, name: str) -> list[tuple[Any, ...]]:
    with store.transaction() as conn:
        cid = store.row(conn, name).id
        return [(r.seq, r.event_hash, r.state, r.state_hash) for r in conn.execute(
            select(snapshots).where(snapshots.c.campaign_id == cid).order_by(snapshots.c.seq))]


def _rows(store: Store) -> tuple[int, int, int]:
    with store.transaction() as conn:
        return tuple(int(conn.scalar(select(func.count()).select_from(t)) or 0)  # type: ignore[return-value]
                     for t in (campaigns, events, snapshots))


def _same(a: Store, b: Store, name: str, other: str | None = None) -> None:
    """The two campaigns are one: the same state, events, hashes, version and snapshots; both verify."""
    other = other or name
    renamed = {"name": name}   # the name is the campaign row's; everything else is the log's
    assert b.open(other).model_copy(update=renamed) == a.open(name) == b.replay(other).model_copy(update=renamed)
    assert b.events(other) == a.events(name)
    assert b.version(other) == a.version(name)
    assert _snapshots(b, other) == _snapshots(a, name)
    for store, campaign in ((a, name), (b, other)):
        report = verify(store, campaign, deep=True)
        assert report.ok, report.explain()


# -- export -------------------------------------------------------------------------------------------------
def test_the_export_holds_every_event_as_stored(store: Store) -> None:
    _play(store)
    doc = transfer.export_campaign(store, "keep")
    assert doc["format"] == "furnace-campaign" and doc["format_version"] == transfer.FORMAT_VERSION
    stored = store.events("keep")
    assert [e["hash"] for e in doc["events"]] == [e.hash for e in stored]
    assert set(doc["events"][0]) == {"seq", "command_id", "command", "kind", "who", "what", "rolls", "data",
                                     "changes", "undoes", "created_at", "prev_hash", "hash"}
    camp = doc["campaign"]
    assert camp["event_count"] == len(stored) and camp["last_hash"] == stored[-1].hash
    assert camp["version"] == store.version("keep") and camp["name"] == "keep"
    assert any(e["rolls"] for e in doc["events"]) and any(e["undoes"] for e in doc["events"])
    json.dumps(doc)   # one JSON document


def test_write_export_is_whole_and_refuses_to_overwrite(store: Store, tmp_path: Path) -> None:
    _play(store)
    path = tmp_path / "keep.json"
    assert transfer.write_export(store, "keep", path) == path
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["events"] == transfer.export_campaign(store, "keep")["events"]
    before = path.read_bytes()
    with pytest.raises(FileAccessError, match="already exists"):
        transfer.write_export(store, "keep", path)
    assert path.read_bytes() == before
    store.apply("keep", "roll", commands.roll("d6", random.Random(1)))
    transfer.write_export(store, "keep", path, force=True)
    assert len(json.loads(path.read_text(encoding="utf-8"))["events"]) == len(doc["events"]) + 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []   # no temporary file left
    with pytest.raises(FileAccessError, match="does not exist"):
        transfer.write_export(store, "keep", tmp_path / "no-such-folder" / "keep.json")


# -- import ---------------------------------------------------------------------------------------------
def test_sqlite_to_postgresql_to_sqlite_keeps_state_and_hashes(tmp_path: Path, pg_store: Store) -> None:
    first, last = _sqlite(tmp_path, "first.db"), _sqlite(tmp_path, "last.db")
    try:
        _play(first)
        assert transfer.import_campaign(pg_store, transfer.export_campaign(first, "keep")) == "keep"
        _same(first, pg_store, "keep")
        path = transfer.write_export(pg_store, "keep", tmp_path / "from-postgres.json")
        assert transfer.import_campaign(last, path) == "keep"
        _same(first, last, "keep")
        _same(pg_store, last, "keep")
        # the campaign goes on where it stopped, on either engine, and the chain stays whole
        for s in (pg_store, last):
            s.apply("keep", "roll", commands.roll("d8", random.Random(3)))
            assert verify(s, "keep").ok
        assert pg_store.events("keep")[-1].prev_hash == first.events("keep")[-1].hash
    finally:
        first.close()
        last.close()


def test_snapshots_are_rebuilt_where_the_store_takes_them(store: Store, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stores, "SNAPSHOT_EVERY", 4)
    _play(store, commands_more=9)
    assert len(_snapshots(store, "keep")) >= 4
    other = _sqlite(tmp_path, "other.db")
    try:
        transfer.import_campaign(other, transfer.export_campaign(store, "keep"))
        _same(store, other, "keep")
        transfer.import_campaign(store, transfer.export_campaign(other, "keep"), as_name="keep again")
        _same(other, store, "keep", "keep again")
    finally:
        other.close()


def test_import_over_an_existing_name_is_refused_unless_as(store: Store) -> None:
    _play(store)
    doc = transfer.export_campaign(store, "keep")
    rows = _rows(store)
    with pytest.raises(CampaignError, match=r"'keep' exists already.*--as"):
        transfer.import_campaign(store, doc)
    assert _rows(store) == rows
    assert transfer.import_campaign(store, doc, as_name="keep copy") == "keep copy"
    assert store.names() == ["keep", "keep copy"]
    _same(store, store, "keep", "keep copy")
    with pytest.raises(CampaignError, match="'keep copy' exists already"):
        transfer.import_campaign(store, doc, as_name="keep copy")
    with pytest.raises(CampaignError, match="not a campaign name"):
        transfer.import_campaign(store, doc, as_name="../etc")


def _event_with_rolls(doc: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in doc["events"] if e["rolls"])


TAMPERING: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a changed line": (lambda d: d["events"][2].update(what="Bertil joins the campaign as king"),
                       r"breaks at event 3 \(campaign import-file: .*\): it was changed"),
    "a changed roll": (lambda d: _event_with_rolls(d)["rolls"][0].update(total=20),
                       r"breaks at event \d+ \((damage|roll): .*\): it was changed"),   # H-HEAL-04's 1d6 hours
    "a changed change": (lambda d: d["events"][1]["changes"][0]["after"]["character"].update(hp=99),
                         r"breaks at event 2 .*changed"),
    "an event removed": (lambda d: d["events"].pop(3), "event 4 is missing"),
    "a previous hash": (lambda d: d["events"][4].update(prev_hash="0" * 64), "event 5 .*does not follow event 4"),
    "the last event gone": (lambda d: d["events"].pop(), "events were deleted or added at the end"),
    "an event added": (lambda d: d["events"].append(dict(d["events"][-1], seq=len(d["events"]) + 1)),
                       r"breaks at event \d+"),
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_a_tampered_export_is_refused_naming_the_event(store: Store, case: str) -> None:
    _play(store)
    doc = transfer.export_campaign(store, "keep")
    tamper, message = TAMPERING[case]
    tamper(doc)
    rows = _rows(store)
    with pytest.raises(DataFileError, match=message):
        transfer.import_campaign(store, doc, as_name="forged")
    assert _rows(store) == rows and "forged" not in store.names()


def test_a_tampered_export_file_is_named(store: Store, tmp_path: Path) -> None:
    _play(store)
    path = transfer.write_export(store, "keep", tmp_path / "keep.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["events"][5]["who"] = "Someone else"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataFileError, match=rf"^{path}: the chain of hashes breaks at event 6"):
        transfer.import_campaign(store, path, as_name="forged")


@pytest.mark.parametrize(("content", "message"), [
    ("{", "not valid JSON"),
    ("[]", "one JSON object"),
    ('{"format": "something"}', "not a Furnace campaign export"),
    ('{"format": "furnace-campaign", "format_version": 99}', "format version 99"),
    ('{"format": "furnace-campaign", "format_version": 1, "campaign": {}, "events": []}', "field"),
    ('{"format": "furnace-backup", "format_version": 1, "campaigns": []}', "restore it instead"),
])
def test_a_file_that_is_no_export_is_refused(store: Store, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFileError, match=message):
        transfer.import_campaign(store, path)
    assert store.names() == []


def test_a_failed_import_leaves_nothing_behind(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _play(store)
    doc = transfer.export_campaign(store, "keep")
    rows = _rows(store)
    insert = transfer._insert

    def insert_then_fail(conn: Any, name: str, checked: Any) -> None:
        insert(conn, name, checked)
        raise FurnaceError("the disk is full")

    monkeypatch.setattr(transfer, "_insert", insert_then_fail)
    with pytest.raises(FurnaceError, match="disk is full"):
        transfer.import_campaign(store, doc, as_name="half")
    assert _rows(store) == rows and store.names() == ["keep"]


# -- backup and restore ---------------------------------------------------------------------------------
def _two_campaigns(store: Store) -> None:
    _play(store, "keep")
    _play(store, "tomb")
    store.apply("tomb", "roll", commands.roll("d100", random.Random(9)))


def test_a_sqlite_backup_is_a_sqlite_file_and_restores(tmp_path: Path) -> None:
    source, target = _sqlite(tmp_path, "source.db"), _sqlite(tmp_path, "target.db")
    try:
        _two_campaigns(source)
        path = tmp_path / "backup.db"
        assert transfer.backup(source, path) == "sqlite"
        assert path.read_bytes()[:16] == b"SQLite format 3\x00"
        assert not (tmp_path / "backup.db-wal").exists()
        with pytest.raises(FileAccessError, match="already exists"):
            transfer.backup(source, path)
        assert transfer.restore(target, path) == ["keep", "tomb"]
        for name in ("keep", "tomb"):
            _same(source, target, name)
        target.apply("keep", "roll", commands.roll("d4", random.Random(2)))
        with pytest.raises(CampaignError, match=r"'keep', 'tomb' exist already.*--force"):
            transfer.restore(target, path)
        assert transfer.restore(target, path, force=True) == ["keep", "tomb"]
        _same(source, target, "keep")     # the roll after the backup is gone: the backup's campaign is back
    finally:
        source.close()
        target.close()


def test_the_json_backup_restores_on_either_engine(store: Store, tmp_path: Path) -> None:
    _two_campaigns(store)
    path = tmp_path / "backup.json"
    assert transfer.backup(store, path) == "json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "furnace-backup" and [c["campaign"]["name"] for c in doc["campaigns"]] == ["keep", "tomb"]
    copy = _sqlite(tmp_path, "copy.db")
    try:
        assert transfer.restore(copy, path) == ["keep", "tomb"]
        store.create("newer")
        with pytest.raises(CampaignError, match="exist already"):
            transfer.restore(store, path)
        store.delete("keep")
        store.apply("tomb", "roll", commands.roll("d4", random.Random(2)))
        with pytest.raises(CampaignError, match="'tomb' exist already"):
            transfer.restore(store, path)
        assert transfer.restore(store, path, force=True) == ["keep", "tomb"]
        assert store.names() == ["keep", "newer", "tomb"]      # a campaign the backup does not hold stays
        for name in ("keep", "tomb"):
            _same(copy, store, name)
    finally:
        copy.close()


def test_a_sqlite_backup_restores_into_postgresql(tmp_path: Path, pg_store: Store) -> None:
    source = _sqlite(tmp_path, "source.db")
    try:
        _two_campaigns(source)
        transfer.backup(source, tmp_path / "backup.sqlite")
        assert transfer.restore(pg_store, tmp_path / "backup.sqlite") == ["keep", "tomb"]
        for name in ("keep", "tomb"):
            _same(source, pg_store, name)
        with pytest.raises(CampaignError, match="not SQLite"):
            transfer.backup(pg_store, tmp_path / "pg.db", portable=False)
        assert transfer.backup(pg_store, tmp_path / "pg.db") == "json"      # PostgreSQL: the portable form
    finally:
        source.close()


def test_restore_refuses_what_is_no_backup(store: Store, tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.db"
    import sqlite3

    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(DataFileError, match="not a Furnace one"):
        transfer.restore(store, foreign)
    (tmp_path / "x.json").write_text('{"format": "other"}', encoding="utf-8")
    with pytest.raises(DataFileError, match="not a Furnace backup"):
        transfer.restore(store, tmp_path / "x.json")
    with pytest.raises(FileAccessError, match="no such file"):
        transfer.restore(store, tmp_path / "missing.json")
    assert store.names() == []


# -- old files into a campaign ---------------------------------------------------------------------------
def test_character_files_join_the_roster_one_command_each(store: Store) -> None:
    store.create("keep")
    version = store.version("keep")
    applied = transfer.import_files(store, "keep", CHARACTERS)
    assert len(applied) == len(CHARACTERS) and store.version("keep") == version + len(CHARACTERS)
    state = store.open("keep")
    names = sorted(Character.from_json(p.read_text(encoding="utf-8")).name for p in CHARACTERS)
    assert sorted(m.character.name for m in state.roster.values()) == names
    brakka = state.member("Brakka").character
    assert brakka == Character.from_json((EXAMPLES / "brakka.json").read_text(encoding="utf-8"))
    logged = [e for e in store.events("keep") if e.command == "campaign import-file"]
    assert len(logged) == len(CHARACTERS) and "from brakka.json" in " ".join(what(e) for e in logged)
    store.undo("keep")          # the last file's join is taken back like any command
    assert len(store.open("keep").roster) == len(CHARACTERS) - 1


def _clock_file(tmp_path: Path, camp: clocks.Campaign) -> tuple[Path, clocks.Campaign]:
    """A state file as `furnace clock join/timer` writes it: the campaign's characters and flags, a torch and a
    timer."""
    camp, _ = clocks.schedule(camp, "torch", after=600, owner="Brakka", every=600, times=6, label="torch")
    camp, _ = clocks.schedule(camp, "timer", after=3600, label="the ogre wakes")
    camp = camp.model_copy(update={"clock": camp.clock.model_copy(update={"now": 90})})
    path = tmp_path / "furnace-campaign.json"
    path.write_text(camp.model_dump_json(indent=2), encoding="utf-8")
    return path, camp


def test_a_clock_file_gives_its_clock_and_flags_and_its_characters_join(store: Store, tmp_path: Path) -> None:
    path, camp = _clock_file(tmp_path, clock_campaign(example("brakka"), example("wren"), hostile=True,
                                                      wilderness=False))
    store.create("keep")
    transfer.import_files(store, "keep", [CHARACTERS[0]])
    (applied,) = transfer.import_files(store, "keep", [path])
    state = store.open("keep")
    assert state.clock == camp.clock and state.flags == camp.flags
    assert {"Brakka", "Wren"} <= {m.character.name for m in state.roster.values()}
    assert state.member("Wren").joined == 90
    assert state.clock_campaign().characters["Brakka"] == camp.characters["Brakka"]
    assert [e.kind for e in applied.events] == ["clock", "join", "join"]
    clock = what(applied.events[0])
    assert "2 entries" in clock and "flags: hostile, not wilderness" in clock
    store.undo("keep")          # the whole file is one command
    state = store.open("keep")
    assert state.clock.now == 0 and state.flags == {} and len(state.roster) == 1


@pytest.mark.parametrize(("content", "message"), [
    ("{nope", "not valid JSON"),
    ('{"name": "Nobody"}', "field"),
    ('{"clock": {"now": 10, "entries": [{"id": 1, "kind": "t", "at": 5}], "next_id": 2}}', "falls due before"),
    ('{"clock": {"now": -1}}', "clock.now"),
])
def test_a_malformed_file_is_refused_and_nothing_is_imported(store: Store, tmp_path: Path, content: str,
                                                             message: str) -> None:
    store.create("keep")
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    version = store.version("keep")
    with pytest.raises(DataFileError, match=rf"{bad}.*{message}"):
        transfer.import_files(store, "keep", [CHARACTERS[0], bad])
    assert store.version("keep") == version and store.open("keep").roster == {}
