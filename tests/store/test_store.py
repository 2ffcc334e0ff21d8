"""The campaign store on real databases (SQLite and PostgreSQL): campaigns, commands, undo, replay, versions."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from furnace import dice
from furnace.campaign import commands as cmd
from furnace.campaign import fightedit
from furnace.campaign import store as store_module
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import ConflictError, Store
from furnace.campaign.verify import verify
from furnace.characters.character import Character
from furnace.errors import FurnaceError, UnknownNameError
from furnace.events import Event
from furnace.hazards.scores import take_damage
from tests.helpers.factories import stored_campaign
from tests.helpers.telling import told, what
from tests.store.util import event_count, hp, rebuild, sql

Chars = dict[str, Character]
# how the party's campaign is made: Brakka (22 HP), Ann's, and Wren (17 HP), each joined by "join <her name>"
PARTY: dict[str, Any] = dict(players={"Brakka": "Ann"}, label="join {name}")


def snapshot_count(store: Store) -> int:
    return int(sql(store, "SELECT count(*) AS n FROM snapshots")[0].n)


# -- campaigns -------------------------------------------------------------------------------------------------
def test_create_open_and_names(store: Store) -> None:
    assert store.names() == []
    made = store.create("The Keep", options={"death_model": "hazards"})
    assert made.name == "The Keep" and made.profile == "furnace" and made.options == {"death_model": "hazards"}
    assert store.open("The Keep") == made
    store.create("Barrowmaze", profile="middle-sea")
    assert store.names() == ["Barrowmaze", "The Keep"]
    assert store.open("Barrowmaze").profile == "middle-sea"
    assert store.version("The Keep") == 1 and store.count("The Keep") == 1 == event_count(store, "The Keep")
    first = store.events("The Keep")[0]
    assert (first.seq, first.command, first.kind, first.prev_hash) == (1, "campaign new", "campaign", "0" * 64)


def test_create_refuses_a_taken_or_bad_name(store: Store) -> None:
    store.create("Keep")
    with pytest.raises(CampaignError, match="exists already"):
        store.create("Keep")
    for bad in ("", " Keep", "x" * 65, "a/b", "semi;colon", "-dash"):
        with pytest.raises(CampaignError, match="is not a campaign name"):
            store.create(bad)
    assert store.names() == ["Keep"]
    assert store.count("Keep") == 1


def test_open_an_unknown_campaign_names_the_known_ones(store: Store) -> None:
    store.create("Keep")
    with pytest.raises(CampaignError, match=r"no campaign named 'Tomb'.*known: Keep"):
        store.open("Tomb")
    for call in (store.replay, store.version, store.events, store.undo, store.delete):
        with pytest.raises(CampaignError, match="no campaign named"):
            call("Tomb")


def test_rename_keeps_the_log_and_the_state(store: Store, characters: Chars) -> None:
    before = stored_campaign(store, characters["brakka"], characters["wren"], name="Keep", **PARTY)
    store.rename("Keep", "The Keep")
    assert store.names() == ["The Keep"]
    after = store.open("The Keep")
    assert after.name == "The Keep"                   # what `campaign show` prints
    assert after.roster == before.roster
    assert store.replay("The Keep") == after
    assert verify(store, "The Keep", deep=True).ok
    with pytest.raises(CampaignError, match="no campaign named 'Keep'"):
        store.open("Keep")
    # the renamed campaign takes commands as before, and undo never reverses the rename
    store.apply("The Keep", "damage", fightedit.damage("brak1", 2))
    store.undo("The Keep")
    assert store.open("The Keep").name == "The Keep"
    assert hp(store.open("The Keep"), "brak1") == 22


def test_rename_refuses_a_taken_or_bad_name(store: Store) -> None:
    store.create("Keep")
    store.create("Tomb")
    with pytest.raises(CampaignError, match="exists already"):
        store.rename("Keep", "Tomb")
    with pytest.raises(CampaignError, match="is not a campaign name"):
        store.rename("Keep", "bad/name")
    with pytest.raises(CampaignError, match="no campaign named"):
        store.rename("Crypt", "Vault")
    assert store.names() == ["Keep", "Tomb"]
    assert store.open("Keep").name == "Keep" and store.count("Keep") == 1


def test_delete_removes_the_campaign_and_only_it(store: Store, characters: Chars,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 2)
    stored_campaign(store, characters["brakka"], characters["wren"], name="Keep", **PARTY)
    stored_campaign(store, characters["brakka"], characters["wren"], name="Tomb", **PARTY)
    assert snapshot_count(store) > 0
    keep_id = sql(store, "SELECT id FROM campaigns WHERE name = 'Keep'")[0].id
    store.delete("Keep")
    assert store.names() == ["Tomb"]
    assert sql(store, "SELECT count(*) AS n FROM events WHERE campaign_id = :c", c=keep_id)[0].n == 0
    assert sql(store, "SELECT count(*) AS n FROM snapshots WHERE campaign_id = :c", c=keep_id)[0].n == 0
    assert verify(store, "Tomb", deep=True).ok
    assert set(store.open("Tomb").roster) == {"brak1", "wren1"}
    store.create("Keep")                               # the name is free again, with a log of its own
    assert store.count("Keep") == 1 and store.open("Keep").roster == {}


# -- commands ------------------------------------------------------------------------------------------------
def test_commands_carry_the_state(store: Store, characters: Chars) -> None:
    state = stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    assert list(state.roster) == ["brak1", "wren1"]
    assert state.roster["brak1"].player == "Ann" and state.roster["brak1"].character == characters["brakka"]

    hit = store.apply("Ashes", "damage brak1 5", fightedit.damage("brak1", 5, "a falling stone"))
    assert hp(hit.state, "brak1") == 17 and hit.version == 4
    assert [what(e) for e in hit.events] == ["takes 5 from a falling stone: HP 22 → 17"]
    assert hit.events[0].changes == [{"path": "member/brak1", "before": state.roster["brak1"].model_dump(mode="json"),
                                      "after": hit.state.roster["brak1"].model_dump(mode="json")}]

    healed = store.apply("Ashes", "heal brak1 3", fightedit.heal("Brakka", 3))   # by name, too
    assert hp(healed.state, "brak1") == 20
    assert hp(store.apply("Ashes", "heal brak1 99", fightedit.heal("brak1", 99)).state, "brak1") == 22   # up to max

    rolled = store.apply("Ashes", "roll", cmd.roll("2d6+1", random.Random(7), label="reaction", who="Wren"))
    assert rolled.state == store.open("Ashes")
    (event,) = rolled.events
    assert event.kind == "roll" and event.changes is None and event.data["total"] == event.rolls[0]["total"]
    assert event.rolls[0]["expression"] == "2d6+1" and len(event.rolls[0]["faces"]) == 2

    down = store.apply("Ashes", "damage brak1 23", fightedit.damage("brak1", 23)).state
    assert hp(down, "brak1") == -1 and "DYING" in down.roster["brak1"].character.conditions  # F-DEATH-01
    assert down.roster["brak1"].status == "dying"
    woke = store.apply("Ashes", "heal brak1 2", fightedit.heal("brak1", 2)).state
    assert hp(woke, "brak1") == 1 and woke.roster["brak1"].character.conditions == []
    dead = store.apply("Ashes", "damage brak1 7", fightedit.damage("brak1", 7)).state
    assert dead.roster["brak1"].status == "dead" and dead.roster["brak1"].death is not None

    final = store.open("Ashes")
    assert final == dead and hp(final, "wren1") == 17
    assert store.replay("Ashes") == final == rebuild(store, "Ashes")
    assert store.version("Ashes") == 10
    assert store.count("Ashes") == event_count(store, "Ashes") == len(store.events("Ashes"))
    assert [e.seq for e in store.events("Ashes")] == list(range(1, store.count("Ashes") + 1))
    assert verify(store, "Ashes", deep=True).ok


def test_a_second_join_gets_its_own_id(store: Store, characters: Chars) -> None:
    store.create("Ashes")
    store.apply("Ashes", "join", cmd.join(characters["brakka"]))
    twin = store.apply("Ashes", "join", cmd.join(characters["brakka"])).state
    assert list(twin.roster) == ["brak1", "brak2"]
    with pytest.raises(CampaignError, match="2 characters are named 'Brakka'"):
        store.apply("Ashes", "damage", fightedit.damage("Brakka", 1))


def _raises_after_work(error: Exception) -> store_module.Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        state.model_copy(update={"session": state.session + 1})   # some work, then the failure
        raise error

    return run


@pytest.mark.parametrize("make", [
    lambda: fightedit.damage("nobody", 3),
    lambda: fightedit.heal("nobody", 3),
    lambda: _raises_after_work(FurnaceError("the rule refuses")),
    lambda: _raises_after_work(ValueError("a bug in a command")),
], ids=["unknown-member", "heal-unknown", "furnace-error", "other-error"])
def test_a_failing_command_changes_nothing(store: Store, characters: Chars,
                                           make: Callable[[], store_module.Command]) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    store.apply("Ashes", "damage", fightedit.damage("brak1", 4))
    version, count, state = store.version("Ashes"), event_count(store, "Ashes"), store.open("Ashes")
    with pytest.raises((FurnaceError, ValueError)):
        store.apply("Ashes", "bad", make())
    assert store.version("Ashes") == version
    assert event_count(store, "Ashes") == count == store.count("Ashes")
    assert store.open("Ashes") == state == store.replay("Ashes")
    assert verify(store, "Ashes").ok


def test_a_command_leaving_an_invalid_state_is_refused(store: Store, characters: Chars) -> None:
    """A state the store could not read back is never logged: the campaign would no longer open."""
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)

    def curse(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.roster["brak1"]          # model_copy does not validate: a rule's slip goes unnoticed here
        return state.with_member(member.model_copy(update={"status": "zombie"})), [Event("curse", "Brakka", "rises")]

    version, count, state = store.version("Ashes"), store.count("Ashes"), store.open("Ashes")
    with pytest.raises(CampaignError, match=r"(?s)'curse' was refused, nothing changed.*status"):
        store.apply("Ashes", "curse", curse)
    assert (store.version("Ashes"), event_count(store, "Ashes"), store.open("Ashes")) == (version, count, state)
    assert store.undo("Ashes").state.roster.keys() == {"brak1"}


def test_the_dead_stay_dead(store: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    store.apply("Ashes", "damage", fightedit.damage("brak1", 40, "a dragon"))
    version, count = store.version("Ashes"), store.count("Ashes")
    with pytest.raises(CampaignError, match=r"Brakka \(brak1\) is dead"):
        store.apply("Ashes", "heal", fightedit.heal("brak1", 5))
    with pytest.raises(UnknownNameError):
        store.apply("Ashes", "damage", fightedit.damage("Grendel", 5))
    with pytest.raises(CampaignError, match="whole number"):
        fightedit.damage("wren1", 0)                       # refused before the store is asked
    assert (store.version("Ashes"), store.count("Ashes")) == (version, count)


# -- undo ----------------------------------------------------------------------------------------------------
def test_undo_walks_back_as_events_of_its_own(store: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    store.apply("Ashes", "damage brak1 23", fightedit.damage("brak1", 23))           # two events: the hit, unconscious
    store.apply("Ashes", "heal wren1 1", fightedit.heal("wren1", 1))                 # changes nothing: Wren is at max
    store.apply("Ashes", "damage wren1 4", fightedit.damage("wren1", 4))
    store.apply("Ashes", "roll", cmd.roll("d20", random.Random(1)))            # a roll counts as a command
    logged = store.events("Ashes")
    count, version = len(logged), store.version("Ashes")

    first = store.undo("Ashes")                                                  # the roll: nothing changes
    (undo_event,) = first.events
    roll = next(e for e in logged if e.command == "roll")
    assert undo_event.command == "undo" and undo_event.undoes == roll.command_id
    assert undo_event.seq == count + 1 and first.version == version + 1
    assert hp(first.state, "wren1") == 13

    second = store.undo("Ashes")
    assert hp(second.state, "wren1") == 17 and hp(second.state, "brak1") == -1
    damage_wren = next(e for e in logged if e.command == "damage wren1 4")
    assert second.events[0].undoes == damage_wren.command_id
    assert store.undoable("Ashes").command == "heal wren1 1"                      # the heal, though it changed nothing
    store.undo("Ashes")
    third = store.undo("Ashes").state
    assert hp(third, "brak1") == 22 and third.roster["brak1"].character.conditions == []
    assert store.undo("Ashes").state.roster.keys() == {"brak1"}                  # Wren's join
    assert store.undo("Ashes").state.roster == {}                                # Brakka's join
    with pytest.raises(CampaignError, match="nothing to undo"):
        store.undo("Ashes")
    assert store.version("Ashes") == version + 6

    # the log keeps everything: every command and every undo, in order
    after = store.events("Ashes")
    assert after[:count] == logged
    assert [e.command for e in after[count:]] == ["undo"] * 6
    assert event_count(store, "Ashes") == count + 6
    assert store.replay("Ashes") == store.open("Ashes") == rebuild(store, "Ashes")
    assert verify(store, "Ashes", deep=True).ok


def test_undo_after_new_commands_reverses_the_newest(store: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    store.apply("Ashes", "damage", fightedit.damage("brak1", 5))
    store.undo("Ashes")
    store.apply("Ashes", "damage", fightedit.damage("wren1", 3))
    assert hp(store.undo("Ashes").state, "wren1") == 17
    assert hp(store.open("Ashes"), "brak1") == 22
    assert store.undo("Ashes").state.roster.keys() == {"brak1"}


def test_nothing_to_undo_in_a_new_campaign(store: Store) -> None:
    store.create("Ashes")
    with pytest.raises(CampaignError, match="nothing to undo"):
        store.undo("Ashes")
    store.apply("Ashes", "roll", cmd.roll("d6", random.Random(3)))
    assert store.undoable("Ashes").command == "roll"
    store.undo("Ashes")
    with pytest.raises(CampaignError, match="nothing to undo"):
        store.undo("Ashes")
    assert store.version("Ashes") == 3 and store.count("Ashes") == 3


# -- replay and snapshots ---------------------------------------------------------------------------------------
def play_long(store: Store, characters: Chars, rng: random.Random, commands: int = 40) -> None:
    """About `commands` mixed commands: joins, damage, healing, rolls and undos."""
    store.create("Long")
    for stem in ("brakka", "wren", "maelis"):
        store.apply("Long", f"join {stem}", cmd.join(characters[stem]))
    for i in range(commands - 3):
        who = rng.choice(["brak1", "wren1", "mael1"])
        match i % 5:
            case 0 | 3:
                store.apply("Long", f"damage {who}", fightedit.damage(who, rng.randint(1, 3)))
            case 1:
                store.apply("Long", f"heal {who}", fightedit.heal(who, rng.randint(1, 4)))
            case 2:
                store.apply("Long", "roll", cmd.roll("3d6", rng, label="a check", who=who))
            case _:
                store.undo("Long")


def test_replay_without_snapshots_equals_the_live_state(store: Store, characters: Chars,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 5)
    play_long(store, characters, random.Random(5))
    snaps = [r.seq for r in sql(store, "SELECT seq FROM snapshots ORDER BY seq")]
    assert len(snaps) >= 6
    # one snapshot a multiple of 5 crossed, at the last event of the command that crossed it
    assert [s // 5 for s in snaps] == sorted(set(s // 5 for s in snaps))
    live = store.open("Long")
    assert store.replay("Long") == live == rebuild(store, "Long")
    assert verify(store, "Long", deep=True).ok
    assert live.roster.keys() == {"brak1", "wren1", "mael1"}


def test_open_reads_the_latest_snapshot(store: Store, characters: Chars, monkeypatch: pytest.MonkeyPatch) -> None:
    """open() starts from the latest snapshot and replays only the changes after it (replay uses none)."""
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 5)
    play_long(store, characters, random.Random(9), commands=12)
    last = sql(store, "SELECT max(seq) AS s FROM snapshots")[0].s
    live = store.open("Long")
    # wipe the changes logged up to the snapshot: open() does not need them, replay() does
    sql(store, "UPDATE events SET changes = NULL WHERE seq <= :s", s=last)
    assert store.open("Long") == live
    try:
        replayed: CampaignState | None = store.replay("Long")
    except CampaignError:
        replayed = None
    assert replayed != live


def test_a_stored_roll_is_never_rolled_again(store: Store, characters: Chars,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)

    def rolled_damage(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        """A blow whose damage is rolled in the command: the state depends on the dice."""
        result = dice.roll("3d6", random.Random(11), label="a rolled blow")
        member = state.member("brak1")
        after, events = take_damage(member.character, result.total, cmd.rules_of(state), "a rolled blow")
        return cmd.put(state, member, after), [Event("roll", "Brakka", result.explain(), (result,)), *events]

    hit = store.apply("Ashes", "rolled damage", rolled_damage)
    store.apply("Ashes", "roll", cmd.roll("d20+2", random.Random(3), label="luck"))
    state, logged = store.open("Ashes"), store.events("Ashes")
    total = hit.events[0].rolls[0]["total"]
    assert hp(state, "brak1") == 22 - total

    def no_dice(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a die was rolled while reading the campaign")

    for owner in (random.Random, random.SystemRandom):
        for method in ("random", "randrange", "randint", "getrandbits", "choice"):
            monkeypatch.setattr(owner, method, no_dice)
    monkeypatch.setattr(dice.DiceExpression, "roll", no_dice)
    monkeypatch.setattr(dice, "roll", no_dice)

    assert store.open("Ashes") == state == store.replay("Ashes")
    assert store.events("Ashes") == logged
    assert verify(store, "Ashes", deep=True).ok
    healed = store.apply("Ashes", "heal", fightedit.heal("brak1", 1)).state        # a new command: no old roll rerun
    assert hp(healed, "brak1") == 22 - total + 1
    assert store.events("Ashes")[: len(logged)] == logged


# -- versions ----------------------------------------------------------------------------------------------------
def test_expected_version(store: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    seen = store.version("Ashes")
    done = store.apply("Ashes", "damage", fightedit.damage("brak1", 1), expected_version=seen)
    assert done.version == seen + 1 == store.version("Ashes")
    count, state = store.count("Ashes"), store.open("Ashes")
    with pytest.raises(ConflictError, match="read it again") as caught:
        store.apply("Ashes", "damage", fightedit.damage("brak1", 1), expected_version=seen)
    assert caught.value.http_status == 409 and isinstance(caught.value, CampaignError)
    assert (store.version("Ashes"), store.count("Ashes"), store.open("Ashes")) == (seen + 1, count, state)
    assert store.apply("Ashes", "damage", fightedit.damage("brak1", 1), expected_version=seen + 1).version == seen + 2


def test_versions_count_commands_not_events(store: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    version = store.version("Ashes")
    applied = store.apply("Ashes", "damage", fightedit.damage("brak1", 23))
    assert len(applied.events) == 2 and applied.version == version + 1
    assert {e.command_id for e in applied.events} == {applied.events[0].seq}
    assert [e.changes is not None for e in applied.events] == [False, True]


def test_stored_rolls_keep_their_trees(store: Store) -> None:
    store.create("Ashes")
    applied = store.apply("Ashes", "roll", cmd.roll("4d6kh3", dice.ScriptedDice([6, 5, 3, 1]), label="STR"))
    (stored,) = store.events("Ashes", since=1)
    assert stored == applied.events[0]
    assert stored.rolls[0]["total"] == 14 and stored.rolls[0]["faces"] == [6, 5, 3, 1]
    assert stored.rolls[0]["tree"]["kind"] and json.dumps(stored.rolls)
    assert "14" in told(stored)


# -- the state kept between commands (a long-running server) ---------------------------------------------------
def test_the_latest_state_is_kept_and_equals_a_fresh_read(store: Store, characters: Chars) -> None:
    """After a command the store holds the state as the log gives it back: the next command and open() use it
    without rebuilding, and it equals what a new Store (another process) rebuilds from the database."""
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)
    store.apply("Ashes", "damage brak1 5", fightedit.damage("brak1", 5, "a falling stone"))
    before = store.rebuilds
    store.apply("Ashes", "heal brak1 2", fightedit.heal("brak1", 2))
    kept = store.open("Ashes")
    assert store.rebuilds == before and hp(kept, "brak1") == 19
    other = Store(store.url, migrate=False)
    try:
        assert other.open("Ashes") == kept and other.rebuilds == 1
    finally:
        other.close()


def test_a_failed_or_foreign_write_never_leaves_a_stale_state(store: Store, characters: Chars) -> None:
    """A command that fails changes nothing the next read sees; a write by another Store (another process) is
    read, not the state this one holds; a renamed campaign opens under its new name."""
    stored_campaign(store, characters["brakka"], characters["wren"], name="Ashes", **PARTY)

    def broken(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        raise FurnaceError("the referee changes her mind")

    with pytest.raises(FurnaceError):
        store.apply("Ashes", "nothing", broken)
    other = Store(store.url, migrate=False)
    try:
        other.apply("Ashes", "damage wren1 4", fightedit.damage("wren1", 4, "a dart"))
    finally:
        other.close()
    assert hp(store.open("Ashes"), "wren1") == 13
    store.rename("Ashes", "Embers")
    assert store.open("Embers").name == "Embers"
