"""Running a session on the store (`furnace.campaign.session`, `rest`, `timekeeping`, `recap`): each command
applied to a campaign on SQLite and PostgreSQL, its numbers read back from a fresh `Store` on the same database.

RULES.md: H-LIGHT-02 (a torch burns 6 exploration turns), H-DIS-04/05 (a disease's saves on the clock, the −2
when not resting), H-STARV-01/02 (rations, then the hunger save), H-TRAV-02 (travel moves the clock a day at a
time), F-REST-02 (a long rest under furnace), M-HEAL-02 (an hour's rest under middle-sea), H-HEAL-02 (a full
day under hazards), F-BASE-08/REF-24 (the XP ledger), REF-22 (repairs), F-LOAD-01 (load), REF-08 (a rest's
length); entered faces (`EnteredFaces`) logged `entered: true`, refused when left over.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.campaign import gear, session, timekeeping
from furnace.campaign.commands import put
from furnace.campaign.fightedit import damage
from furnace.campaign.recap import recap
from furnace.campaign.rest import rest
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Store
from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.dice.source import EnteredFaceError, EnteredFaces
from furnace.events import Event
from furnace.hazards.light import light_source
from furnace.play.clock import DAY, HOUR, unit_seconds
from furnace.render.recap import recap_text
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import reopened, stored_campaign
from tests.helpers.telling import what

FEVER = ("name: Marsh Ague\nincubation: 1 day\ninterval: 1 day\ninfection: 3 days\n"
         "effect: {ability: INT}\n")


@pytest.mark.rule("H-LIGHT-02")
def test_H_LIGHT_02_a_torch_burns_out_after_6_exploration_turns(store: Store,
                                                                characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["agna"], profile="hazards").name
    rules = load_ruleset("hazards")
    turns = light_source("torch", rules).turns
    assert (turns, unit_seconds("turn", rules)) == (6, 600)
    store.apply(name, "clock light", timekeeping.for_member("Agna", timekeeping.lighting("torch")))
    store.apply(name, "clock advance", timekeeping.on_clock(timekeeping.advancing(5, "turns", ScriptedDice([]))))
    lit = reopened(store).clock.entries
    assert [(e.kind, e.owner, e.at) for e in lit] == [("light_out", "Agna", 6 * 600)]
    done = store.apply(name, "clock advance", timekeeping.on_clock(timekeeping.advancing(1, "turn", ScriptedDice([]))))
    assert [e.kind for e in done.events] == ["light_out", "clock"]
    state = reopened(store)
    assert state.clock.now == 3600 and state.clock.entries == ()


@pytest.mark.rule("H-DIS-04")
def test_H_DIS_04_a_disease_save_after_a_day_with_entered_faces(store: Store, characters: dict[str, Character],
                                                               tmp_path: Path) -> None:
    """Incubation 1 day: the first save falls due after a day; a 5 entered fails it (d20 5 + CON 1 − 2 not
    resting = 4 vs DC 12) and INT drops by disease_loss_per_failure (1)."""
    path = tmp_path / "ague.yaml"
    path.write_text(FEVER, encoding="utf-8")
    name = stored_campaign(store, characters["agna"], profile="hazards").name
    store.apply(name, "clock infect", timekeeping.for_member("agna1", timekeeping.infecting(str(path),
                                                                                            ScriptedDice([]))))
    faces = EnteredFaces([5])
    applied = store.apply(name, "clock advance", session.with_faces(
        timekeeping.on_clock(timekeeping.advancing(1, "day", faces)), faces))
    save = next(e for e in applied.events if e.kind == "disease_save")
    assert save.data["entered"] is True and save.data["total"] == 4 and not save.data["saved"]
    agna = reopened(store).roster["agna1"].character
    assert agna.scores["INT"] == 14 - 1
    assert [e.remaining for e in reopened(store).clock.entries] == [2]


@pytest.mark.rule("H-DIS-05")
def test_H_DIS_05_a_rest_flags_the_resters_so_the_save_has_no_penalty(store: Store,
                                                                     characters: dict[str, Character],
                                                                     tmp_path: Path) -> None:
    """During a full day's rest the save is made resting (d20 10 + CON 1 = 11, no −2); the flag is gone after."""
    path = tmp_path / "ague.yaml"
    path.write_text(FEVER, encoding="utf-8")
    name = stored_campaign(store, characters["agna"], profile="hazards").name
    store.apply(name, "clock infect", timekeeping.for_member("Agna", timekeeping.infecting(str(path),
                                                                                           ScriptedDice([]))))
    applied = store.apply(name, "rest", rest("full_day", ["Agna"], ScriptedDice([10])))
    save = next(e for e in applied.events if e.kind == "disease_save")
    assert save.data["resting"] is True and save.data["total"] == 11
    state = reopened(store)
    assert "resting" not in state.flags and state.clock.now == DAY


@pytest.mark.rule("H-STARV-02")
def test_H_STARV_02_rations_run_out_then_the_hunger_save(store: Store, characters: dict[str, Character]) -> None:
    """One day of rations: the first day is fed, the second closes with a hunger save (a 3: 3 + 1 = 4 vs 12,
    CON 13 → 12)."""
    name = stored_campaign(store, characters["agna"], profile="hazards").name
    store.apply(name, "rations", timekeeping.for_member("Agna", timekeeping.feeding(1)))
    first = store.apply(name, "advance", timekeeping.on_clock(timekeeping.advancing(1, "day", ScriptedDice([]))))
    assert [e.kind for e in first.events] == ["rations", "clock"]
    assert gear.rations_of(reopened(store).roster["agna1"].character) == 0
    second = store.apply(name, "advance", timekeeping.on_clock(timekeeping.advancing(1, "day", ScriptedDice([3]))))
    assert [e.kind for e in second.events][:2] == ["rations", "hunger_save"]
    assert reopened(store).roster["agna1"].character.scores["CON"] == 12


@pytest.mark.rule("H-TRAV-02")
def test_H_TRAV_02_travel_moves_the_clock_a_day_at_a_time(store: Store, characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["agna"], profile="hazards").name
    applied = store.apply(name, "travel", timekeeping.on_clock(timekeeping.travelling(2, ScriptedDice([4, 5]),
                                                                                       heading="S")))
    checks = [e for e in applied.events if e.kind == "lost_check"]
    assert [c.data["hidden"] for c in checks] == [True, True] and [c.data["lost"] for c in checks] == [False, False]
    state = reopened(store)
    assert state.clock.now == 2 * DAY and state.flags["travel"] == {"intended": "S", "actual": None, "day": 2}


@pytest.mark.rule("F-REST-02")
def test_F_REST_02_a_long_rest_under_furnace(store: Store, characters: dict[str, Character]) -> None:
    """Brakka (d10, pool 3) at 5 HP: 4, 6, 3 → 18 HP, the pool refilled to 3, 8 hours on the clock."""
    hurt = characters["brakka"].model_copy(update={"hp": 5})
    name = stored_campaign(store, hurt, profile="furnace").name
    store.apply(name, "rest long", rest("long", ["Brakka"], ScriptedDice([4, 6, 3])))
    brakka = reopened(store).roster["brak1"].character
    assert (brakka.hp, brakka.hit_dice) == (18, 3)
    assert reopened(store).clock.now == 8 * HOUR


def test_REF_08_a_rest_of_another_length_and_the_models_kinds(store: Store, characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["brakka"].model_copy(update={"hp": 20}), profile="furnace").name
    store.apply(name, "rest short", rest("short", [], ScriptedDice([2]), party=True, length=10, unit="minutes"))
    assert reopened(store).clock.now == 600 and reopened(store).roster["brak1"].character.hp == 22
    with pytest.raises(CampaignError, match="rests by short, long, not 'night'"):
        store.apply(name, "rest night", rest("night", ["Brakka"], ScriptedDice([])))


@pytest.mark.rule("M-HEAL-02")
def test_M_HEAL_02_an_hours_rest_under_middle_sea(store: Store, characters: dict[str, Character]) -> None:
    """Below half (8 of 22): one hit die an hour (a 7 → 15), and the clock moves on an hour."""
    name = stored_campaign(store, characters["brakka"].model_copy(update={"hp": 8}), profile="middle-sea").name
    store.apply(name, "rest hour", rest("hour", ["brak1"], ScriptedDice([7])))
    state = reopened(store)
    assert state.roster["brak1"].character.hp == 15 and state.clock.now == HOUR


@pytest.mark.rule("H-HEAL-02")
def test_H_HEAL_02_a_full_day_under_hazards_twice(store: Store, characters: dict[str, Character]) -> None:
    """At half HP or more a full day heals 1d3 (2, then 3): 12 → 14 → 17 over two days."""
    name = stored_campaign(store, characters["brakka"].model_copy(update={"hp": 12}), profile="hazards").name
    store.apply(name, "rest full_day", rest("full_day", [], ScriptedDice([2, 3]), party=True, times=2))
    state = reopened(store)
    assert state.roster["brak1"].character.hp == 17 and state.clock.now == 2 * DAY


def test_REF_24_xp_award_shared_with_the_remainder_stated(store: Store, characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["agna"], characters["brakka"], characters["corra"], profile="furnace").name
    applied = store.apply(name, "xp award", session.award_xp(101, [], party=True, reason="the goblin cave"))
    assert (applied.events[0].data["share"], applied.events[0].data["remainder"]) == (33, 2)
    assert "2 XP left over" in what(applied.events[0])
    store.apply(name, "xp award", session.award_xp(10, ["Agna"], each=True))
    roster = reopened(store).roster
    assert [sum(a["amount"] for a in m.character.extensions["xp"]) for m in roster.values()] == [43, 33, 33]


def test_loot_share_coins_evenly_items_in_turn(store: Store, characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["agna"], characters["corra"], profile="furnace").name
    applied = store.apply(name, "loot share", gear.share_loot(["ring", "cup", "gem"], 101, []))
    assert (applied.events[0].data["each"], applied.events[0].data["remainder"]) == (50, 1)
    roster = reopened(store).roster
    assert [gear.coins_of(m.character) for m in roster.values()] == [50, 50]
    assert roster["agna1"].character.items[-2:] == ["ring", "gem"] and roster["corr1"].character.items[-1] == "cup"


@pytest.mark.rule("F-LOAD-01")
def test_F_LOAD_01_give_take_and_coins(store: Store, characters: dict[str, Character]) -> None:
    """Agna (STR 8: Load 9) carries one item; three more and 1,500 coins (2 loads) make 6."""
    name = stored_campaign(store, characters["agna"], profile="furnace").name
    store.apply(name, "give", gear.give("Agna", ["rope", "torch", "torch"]))
    applied = store.apply(name, "purse", gear.purse("Agna", 1500))
    assert "load 5 of 9" in what(applied.events[0])      # candles, rope, 2 torches (1 bundle), 1500 coins (2)
    store.apply(name, "take", gear.take("Agna", ["TORCH"]))
    with pytest.raises(CampaignError, match="carries 1,500 coins: 2,000 cannot be taken"):
        store.apply(name, "purse", gear.purse("Agna", -2000))
    agna = reopened(store).roster["agna1"].character
    assert agna.items == ["bundle of tallow candles", "rope", "torch"] and gear.coins_of(agna) == 1500
    assert gear.carried_load(agna) == 5


def test_coin_weight_middle_sea_weighs_the_coins() -> None:
    """M-COIN-01 (option coin_weight middle-sea): 1,500 coins weigh 15 lb, not 2 loads."""
    rules = load_ruleset("furnace")
    agna = gear.with_gear(Character(name="Agna", scores=dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10),
                                    hp_max=4, hp=4), coins=1500)
    assert gear.load_of(agna, rules) == {"load": 2, "limit": 10, "over": 0}
    weighed = gear.load_of(agna, load_ruleset("furnace", {"coin_weight": "middle-sea"}))["weighed"]
    assert weighed == {"coins": 1500, "gems": 0, "pounds": 15, "gpe": 150, "load": 1.5}   # 15 lb = 150 gpe = 1.5 load


def test_REF_22_repair_a_notched_weapon_paid_from_the_purse(store: Store, characters: dict[str, Character]) -> None:
    brakka = characters["brakka"]
    notched = brakka.model_copy(update={"weapons": [brakka.weapons[0].model_copy(update={"notches": 2,
                                                                                         "cracked": True})]})
    name = stored_campaign(store, gear.with_gear(notched, coins=20), profile="furnace").name
    with pytest.raises(CampaignError, match="costs 30"):
        store.apply(name, "repair", gear.repair("Brakka", "arming sword", days=2, cost=30))
    applied = store.apply(name, "repair", gear.repair("Brakka", "Arming Sword", days=2, cost=15))
    repaired = applied.events[0].fact
    assert repaired is not None and dict(repaired.data) == {"item": "arming sword", "days": 2, "cost": 15,
                                                            "cracked": True, "notches": 2}
    fixed = reopened(store).roster["brak1"].character
    assert (fixed.weapons[0].notches, fixed.weapons[0].cracked, gear.coins_of(fixed)) == (0, False, 5)
    with pytest.raises(CampaignError, match="needs no repair"):
        store.apply(name, "repair", gear.repair("Brakka", "arming sword", days=1, cost=0))


def test_entered_faces_left_over_change_nothing(store: Store, characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["brakka"].model_copy(update={"hp": 20}), profile="furnace").name
    version = store.version(name)
    faces = EnteredFaces([2, 6])
    with pytest.raises(EnteredFaceError, match="needed 1 face"):
        store.apply(name, "rest short", session.with_faces(rest("short", ["Brakka"], faces), faces))
    assert store.version(name) == version and reopened(store).roster["brak1"].character.hp == 20


def _changed(member_id: str, **update: object) -> Callable[[CampaignState], tuple[CampaignState, list[Event]]]:
    """A stand-in for a command that changes a character (a level gained, an injury): the recap reads the log."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.roster[member_id]
        return put(state, member, member.character.model_copy(update=update)), []

    return run


def test_recap_after_a_session(store: Store, tough: Callable[[str, int], Character],
                               characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["agna"], tough("brakka", 30), profile="hazards").name
    store.apply(name, "xp", session.award_xp(50, ["Agna"]))       # before the session: not in its recap
    first = session.start_session(store, name, "the barrow")
    assert first.events[0].data["session"] == 1 and first.state.session == 1
    store.apply(name, "damage", damage("Brakka", 4))
    store.apply(name, "damage", damage("Agna", 5))              # hazards: dead at -3
    store.apply(name, "xp", session.award_xp(200, ["Brakka"], reason="the wight"))
    store.apply(name, "advance", timekeeping.on_clock(timekeeping.advancing(3, "hours", ScriptedDice([]))))
    store.apply(name, "level up", _changed("brak1", level=4, injuries=["Horrible scar"]))
    report = recap(store, name)
    assert (report.session, report.title, report.seconds, report.commands) == (1, "the barrow", 3 * HOUR, 5)
    by_name = {m.name: m for m in report.members}
    assert by_name["Agna"].died is not None and by_name["Agna"].xp == 0
    assert (by_name["Brakka"].hp, by_name["Brakka"].xp, by_name["Brakka"].died) == ((30, 26), 200, None)
    assert (by_name["Brakka"].level, by_name["Brakka"].injuries) == ((3, 4), ("Horrible scar",))
    assert "Brakka went from level 3 to level 4" in recap_text(report)
    assert "Agna died" in recap_text(report) and "3 hours passed" in recap_text(report)
    second = session.start_session(store, name)
    assert second.events[0].data["session"] == 2 and recap(store, name).members == ()
    assert recap(store, name, 1) == report
    with pytest.raises(CampaignError, match="no session 3"):
        recap(store, name, 3)


def test_two_living_characters_of_one_name_stop_the_clock(store: Store, characters: dict[str, Character]) -> None:
    name = stored_campaign(store, characters["agna"], characters["agna"], profile="hazards").name
    with pytest.raises(CampaignError, match="two living characters are named 'Agna'"):
        store.apply(name, "advance", timekeeping.on_clock(timekeeping.advancing(1, "turn", ScriptedDice([]))))
