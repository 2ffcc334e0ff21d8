"""`verify` on real databases: a clean log passes; rows edited or deleted by SQL and edited snapshots are named."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from furnace.campaign import commands as cmd
from furnace.campaign import fightedit
from furnace.campaign import store as store_module
from furnace.campaign.state import canonical
from furnace.campaign.store import Store, StoredEvent
from furnace.campaign.verify import verify
from furnace.characters.character import Character
from tests.helpers.factories import stored_campaign
from tests.store.util import campaign_id, sql

Chars = dict[str, Character]


@pytest.fixture
def played(store: Store, characters: Chars, monkeypatch: pytest.MonkeyPatch) -> Store:
    """Two campaigns of 16 commands each, with snapshots every 5 events; "Keep" is the one tampered with."""
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 5)
    rng = random.Random(42)
    for name in ("Keep", "Tomb"):
        stored_campaign(store, characters["brakka"], characters["maelis"], name=name, label="join {name}")
        for i in range(13):
            who = ("brak1", "mael1")[i % 2]
            if i % 3 == 0:
                store.apply(name, "roll", cmd.roll("2d8+1", rng, label="a blow", who=who))
            elif i % 3 == 1:
                store.apply(name, f"damage {who}", fightedit.damage(who, rng.randint(1, 4)))
            else:
                store.apply(name, f"heal {who}", fightedit.heal(who, 1))
        store.undo(name)
    assert store.count("Keep") == 17
    return store


def row(store: Store, seq: int, name: str = "Keep") -> Any:
    return sql(store, "SELECT * FROM events WHERE campaign_id = :c AND seq = :s", c=campaign_id(store, name), s=seq)[0]


def edit(store: Store, seq: int, column: str, value: str, name: str = "Keep") -> None:
    """What someone with a database shell does: UPDATE one cell of one event."""
    sql(store, f"UPDATE events SET {column} = :v WHERE campaign_id = :c AND seq = :s", v=value,
        c=campaign_id(store, name), s=seq)


def first_seq(store: Store, test: Callable[[StoredEvent], bool]) -> int:
    return next(e.seq for e in store.events("Keep") if test(e))


def test_a_clean_log_verifies(played: Store) -> None:
    for name in ("Keep", "Tomb"):
        for deep in (False, True):
            result = verify(played, name, deep=deep)
            assert result.ok, result.explain()
            assert (result.events, result.snapshots, result.first_bad) == (17, 3, None)
            assert "the chain of hashes is whole" in result.explain()


def _what(store: Store) -> tuple[int, str]:
    seq = first_seq(store, lambda e: e.kind == "damage")
    return seq, row(store, seq).what + " (edited by hand)"     # a fact's row has no sentence: edited all the same


def _rolls(store: Store) -> tuple[int, str]:
    seq = first_seq(store, lambda e: bool(e.rolls) and e.seq > 5)
    rolls = json.loads(row(store, seq).rolls)
    rolls[0]["faces"][0] = 8 if rolls[0]["faces"][0] != 8 else 1
    return seq, json.dumps(rolls)


def _changes(store: Store) -> tuple[int, str]:
    seq = first_seq(store, lambda e: e.kind == "damage" and e.changes is not None)
    changes = json.loads(row(store, seq).changes)
    changes[0]["after"]["character"]["hp"] += 1
    return seq, json.dumps(changes)


def _prev_hash(store: Store) -> tuple[int, str]:
    return 9, row(store, 3).hash            # a real hash, of the wrong event


def _hash(store: Store) -> tuple[int, str]:
    return 12, hashlib.sha256(b"forged").hexdigest()


@pytest.mark.parametrize(("column", "tamper", "says"), [
    ("what", _what, "was changed after it was written"),
    ("rolls", _rolls, "was changed after it was written"),
    ("changes", _changes, "was changed after it was written"),
    ("prev_hash", _prev_hash, "does not follow event 8"),
    ("hash", _hash, "was changed after it was written"),
], ids=["what", "rolls", "changes", "prev_hash", "hash"])
def test_an_edited_event_is_named(played: Store, column: str, tamper: Callable[[Store], tuple[int, str]],
                                  says: str) -> None:
    seq, value = tamper(played)
    edit(played, seq, column, value)
    result = verify(played, "Keep")
    assert not result.ok
    assert result.first_bad == seq
    assert result.problems[0].startswith(f"event {seq} ") and says in result.problems[0], result.problems
    assert f"{len(result.problems)} problem(s)" in result.explain()
    assert verify(played, "Tomb", deep=True).ok          # the other campaign is untouched


def test_events_deleted_from_the_end_are_noticed(played: Store) -> None:
    sql(played, "DELETE FROM events WHERE campaign_id = :c AND seq > 15", c=campaign_id(played, "Keep"))
    result = verify(played, "Keep")
    assert not result.ok and result.first_bad == 16 and result.events == 15
    assert "records 17 events" in result.problems[0] and "deleted or added at the end" in result.problems[0]
    assert result.snapshots == 3 and len(result.problems) == 1   # the snapshots stand for events still there
    assert verify(played, "Tomb").ok


def test_an_event_deleted_in_the_middle_is_named(played: Store) -> None:
    sql(played, "DELETE FROM events WHERE campaign_id = :c AND seq = 7", c=campaign_id(played, "Keep"))
    result = verify(played, "Keep")
    assert result.first_bad == 8 and result.problems[0] == "event 7 is missing (the next stored is 8)"


def test_an_inserted_event_is_noticed(played: Store) -> None:
    cid = campaign_id(played, "Keep")
    last = row(played, 17)
    fields = {k: getattr(last, k) for k in ("command_id", "command", "kind", "who", "what", "rolls", "data",
                                             "changes", "undoes", "created_at", "prev_hash", "hash")}
    sql(played, "INSERT INTO events (campaign_id, seq, command_id, command, kind, who, what, rolls, data, changes,"
                " undoes, created_at, prev_hash, hash) VALUES (:c, 18, :command_id, :command, :kind, :who, :what,"
                " :rolls, :data, :changes, :undoes, :created_at, :prev_hash, :hash)", c=cid, **fields)
    result = verify(played, "Keep")
    assert result.first_bad == 18 and "event 18 does not follow event 17" in result.problems[0]


def snapshot(store: Store, index: int = 1) -> Any:
    """One of Keep's snapshots (at events 5, 10 and 15), the middle one unless told."""
    return sql(store, "SELECT * FROM snapshots WHERE campaign_id = :c ORDER BY seq",
               c=campaign_id(store, "Keep"))[index]


def _richer(state_text: str) -> str:
    state = json.loads(state_text)
    state["member/brak1"]["character"]["hp"] = 999
    return canonical(state)


def test_an_edited_snapshot_is_noticed(played: Store) -> None:
    snap = snapshot(played)
    sql(played, "UPDATE snapshots SET state = :s WHERE id = :i", s=_richer(snap.state), i=snap.id)
    result = verify(played, "Keep")
    assert not result.ok and result.first_bad is None      # the log itself is whole
    assert result.problems == [f"the snapshot at event {snap.seq} was changed after it was taken"]


def test_a_snapshot_moved_to_another_event_is_noticed(played: Store) -> None:
    snap = snapshot(played)
    sql(played, "UPDATE snapshots SET event_hash = :h WHERE id = :i", h=row(played, 2).hash, i=snap.id)
    assert verify(played, "Keep").problems == [f"the snapshot at event {snap.seq} stands for an event not in the chain"]


def test_deep_verify_catches_a_snapshot_rebuilt_with_a_matching_hash(played: Store) -> None:
    """A forger who also recomputes the snapshot's own hash passes the quick check, but not the deep one."""
    snap = snapshot(played, -1)             # the latest: the one open() starts from
    forged = _richer(snap.state)
    state_hash = hashlib.sha256((snap.event_hash + forged).encode("utf-8")).hexdigest()
    sql(played, "UPDATE snapshots SET state = :s, state_hash = :h WHERE id = :i", s=forged, h=state_hash, i=snap.id)
    assert verify(played, "Keep").ok
    deep = verify(played, "Keep", deep=True)
    assert deep.problems == [f"the snapshot at event {snap.seq} differs from the state the log rebuilds"]
    # why it matters: open() starts from the snapshot, so the forged hit points are what the table would see
    # (in the next process: this Store still holds the state it wrote, under the unchanged hash chain)
    later = Store(played.url, migrate=False)
    assert later.open("Keep").roster["brak1"].character.hp == 999
    later.close()
    assert played.replay("Keep").roster["brak1"].character.hp != 999
