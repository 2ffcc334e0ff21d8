"""The Hazards (H-TAB-01..07) and Middle Sea (M-TAB-01..07) tables: every number is the rules' own."""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.rules.effects import parse_effect
from furnace.rules.tables import TableSet

tables = TableSet.packaged()

DURATION_HOURS = {"hour": 1, "day": 24, "week": 24 * 7}


def kinds(row) -> list[str]:
    return [e.kind for e in row.effect_list()]


def conditions(row) -> set[str]:
    return {e.name for e in row.effect_list() if e.kind == "condition"}


def helmet(row) -> list:
    """The helmet variant stored in a row's data, validated as effects."""
    return [parse_effect(e) for e in row.data["with_helmet"]]


# -- Hazards ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("race", "start", "minus_2", "minus_4", "interval"),
    [
        ("Dwarf", 200, 250, 300, 5),
        ("Elf", 700, 800, 900, 10),
        ("Halfling", 70, 80, 100, 1),
        ("Human", 40, 50, 60, 1),
        ("Half-orc", 40, 50, 60, 1),
    ],
)
def test_H_TAB_01_aging_rows(race: str, start: int, minus_2: int, minus_4: int, interval: int) -> None:
    """H-TAB-01, H-AGE-01: start age, -2 age, -4 age and interval per race (Half-orc = Human, CF-43)."""
    table = tables.get("aging")
    assert table.id == "H-TAB-01"
    row = table.lookup(race)
    assert row.data["start"] == start
    assert row.data["minus_2"] == minus_2
    assert row.data["minus_4"] == minus_4
    assert row.data["interval_years"] == interval


def test_H_TAB_01_aging_save_and_failure() -> None:
    """H-TAB-01, H-AGE-01/02: CON SAVE (vs. paralysis); a failure: a random ability -1, for good."""
    table = tables.get("aging")
    assert "assumption" in table.lookup("half-orc").data
    assert "assumption" not in table.lookup("human").data
    save = table.lookup("Human").effect_list()[0]
    assert save.kind == "save" and save.ability == "CON" and save.category == "paralysis"
    loss = save.on_fail[0]
    assert loss.kind == "ability_loss" and loss.ability == "random" and loss.dice == "1" and loss.permanent


@pytest.mark.parametrize(("source", "turns", "radius"),
                         [("torch", 6, 30), ("lantern", 24, 30), ("candle", 12, 10)])
def test_H_TAB_02_light(source: str, turns: int, radius: int) -> None:
    """H-TAB-02, H-LIGHT-02: torch 6, lantern 24 (per flask), candle 12 exploration turns; 30'/30'/10'."""
    table = tables.get("light")
    assert table.id == "H-TAB-02"
    row = table.lookup(source)
    assert row.data["duration"] == {"amount": turns, "unit": "exploration_turn"}
    assert row.data["radius_ft"] == radius


@pytest.mark.parametrize(("language", "modifier"),
                         [("local", 0), ("not-local", -1), ("exotic", -2), ("ancient", -3)])
def test_H_TAB_03_language_modifiers(language: str, modifier: int) -> None:
    """H-TAB-03, H-LANG-03: 1 in 6 + INT, -1 not local, -2 exotic, -3 ancient; magical never."""
    table = tables.get("languages")
    assert table.id == "H-TAB-03"
    assert table.lookup(language).data["modifier"] == modifier
    assert table.lookup("magical").data["allowed"] is False


def test_H_TAB_04_green_river_fever() -> None:
    """H-TAB-04, H-DIS-04/06: incubation 1 week, a save every 4 hours for 3 days = 18 saves (AMB-73)."""
    table = tables.get("disease")
    assert table.id == "H-TAB-04"
    row = table.lookup("green-river-fever")
    data = row.data
    assert data["incubation"] == {"amount": 1, "unit": "week"}
    assert data["interval"] == {"amount": 4, "unit": "hour"}
    assert data["infection"] == {"amount": 3, "unit": "day"}
    infection_h = data["infection"]["amount"] * DURATION_HOURS[data["infection"]["unit"]]
    interval_h = data["interval"]["amount"] * DURATION_HOURS[data["interval"]["unit"]]
    assert infection_h // interval_h == 18 == data["expected_saves"]
    assert data["penalty_not_resting"] == -2
    save = row.effect_list()[0]
    assert save.category == "poison" and save.ability == "CON"
    assert save.on_fail[0].ability == "INT"


@pytest.mark.parametrize(("feet", "dice"), [(10, "1d6"), (100, "10d6"), (200, "20d6"), (250, "20d6")])
def test_H_TAB_05_falling(feet: int, dice: str) -> None:
    """H-TAB-05, H-FALL-01: 1d6 per 10', at most 20d6 (250' -> 20d6)."""
    table = tables.get("falling")
    assert table.id == "H-TAB-05"
    row = table.lookup(feet)
    assert row.data["dice"] == dice
    assert row.effect_list()[0].dice == dice
    assert f"{min(feet // 10, 20)}d6" == dice


def test_H_TAB_06_deprivation() -> None:
    """H-TAB-06, H-STARV-02..05, H-SLEEP-01: hunger -1 CON, thirst halves CON, 3rd failure kills, sleep -1."""
    table = tables.get("deprivation")
    assert table.id == "H-TAB-06"
    food = table.lookup("no-food").effect_list()[0]
    assert food.category == "poison" and food.on_fail[0].ability == "CON" and food.on_fail[0].dice == "1"
    water = table.lookup("no-water").effect_list()[0]
    assert water.on_fail[0].mode == "halve"
    assert table.lookup("third-failure").data["failed_saves"] == 3
    assert kinds(table.lookup("third-failure")) == ["death"]
    sleep = table.lookup("no-sleep")
    assert sleep.data["minimum_sleep_hours"] == 4
    assert sleep.effect_list()[0].value == -1
    assert table.lookup("recovery").data["points_per_week"] == 2


def test_H_TAB_07_natural_healing() -> None:
    """H-TAB-07, H-HEAL-01..07: night 1, full day 1d3, below half 1, bed 1, wake in 1d6 hours, hostile 0."""
    table = tables.get("natural-healing")
    assert table.id == "H-TAB-07"
    heals = {key: table.lookup(key).data["heal"] for key in
             ("night", "full-day", "full-day-below-half", "bed", "ability", "hostile")}
    assert heals == {"night": "1", "full-day": "1d3", "full-day-below-half": "1", "bed": "1",
                     "ability": "1", "hostile": "0"}
    assert table.lookup("full-day").effect_list()[0].dice == "1d3"
    zero = table.lookup("zero-hp")
    assert zero.data["wake_after"] == {"amount": "1d6", "unit": "hour"}
    assert zero.data["crawl_ft"] == 10
    assert kinds(table.lookup("hostile")) == ["nothing"]


# -- Middle Sea ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "band"),
    [(4, (4, 6)), (6, (4, 6)), (7, (7, 9)), (9, (7, 9)), (10, (10, 11)), (11, (10, 11)), (12, (12, 14)),
     (14, (12, 14)), (15, (15, 16)), (16, (15, 16)), (17, (17, 18)), (18, (17, 18)), (19, (19, 20)),
     (20, (19, 20)), (21, (21, None)), (30, (21, None))],
)
def test_M_TAB_01_grievous_bands(total: int, band: tuple[int, int | None]) -> None:
    """M-TAB-01, M-GRIEV-01: 3d6 + excess lands on 4-6, 7-9, 10-11, 12-14, 15-16, 17-18, 19-20, 21+."""
    table = tables.get("grievous")
    assert table.id == "M-TAB-01" and table.name == "grievous-injury"
    row = table.lookup(total)
    assert (row.min, row.max) == band


def test_M_TAB_01_grievous_roll_instant_death() -> None:
    """M-TAB-01, M-GRIEV-09: 6+6+6 with 3 excess = 21 -> instant death."""
    result = tables.roll("grievous-injury", ScriptedDice([6, 6, 6]), variables={"EXCESS": 3})
    assert result.roll.total == 21
    assert kinds(result.row) == ["death"]
    assert result.row.effect_list()[0].timer is None


def test_M_TAB_01_grievous_rows() -> None:
    """M-TAB-01, M-GRIEV-02..08: second wind, knocked down, helmets, bone, fatal wound, severed limb."""
    table = tables.get("grievous-injury")
    assert table.roll == "3d6+EXCESS" and table.variables == ["EXCESS"] and table.covers == (4, None)
    second_wind = table.lookup(5).effect_list()[0]
    assert second_wind.kind == "heal" and second_wind.dice == "1HD+floor(LVL/2)"
    assert conditions(table.lookup(8)) == {"KNOCKED_DOWN"}
    stunned = table.lookup(10)
    assert conditions(stunned) == {"STUNNED"}
    assert [e.name for e in helmet(stunned)] == ["KNOCKED_DOWN"]
    out = table.lookup(13)
    assert out.effect_list()[0].duration.amount == "2d6" and conditions(out) == {"UNCONSCIOUS"}
    assert [e.name for e in helmet(out)] == ["STUNNED"]
    bone = table.lookup(15)
    assert bone.effect_list()[0].table == "broken-bone" and bone.data["heal_weeks"] == "2d4+9"
    fatal = table.lookup(17)
    death = next(e for e in fatal.effect_list() if e.kind == "death")
    assert (death.timer.amount, death.timer.unit) == ("1d6", "exploration_turn")
    assert "UNCONSCIOUS" in conditions(fatal)
    limb = table.lookup(20)
    assert limb.effect_list()[0].table == "severed-limb"
    assert {"INCAPACITATED", "BLEEDING"} <= conditions(limb)
    bleed = next(e for e in limb.effect_list() if e.kind == "death")
    assert (bleed.timer.amount, bleed.timer.unit) == ("2d6", "round")


@pytest.mark.parametrize(
    ("face", "location"),
    [(1, "R. Leg"), (2, "R. Leg"), (3, "L. Leg"), (4, "L. Leg"), (5, "Rib"), (6, "Rib"), (7, "Rib"),
     (8, "R. Arm"), (9, "L. Arm"), (10, "Skull")],
)
def test_M_TAB_02_broken_bone(face: int, location: str) -> None:
    """M-TAB-02, M-BONE-01: d10 1-2 R. Leg, 3-4 L. Leg, 5-7 Rib, 8 R. Arm, 9 L. Arm, 10 Skull."""
    table = tables.get("broken-bone")
    assert table.id == "M-TAB-02" and table.roll == "d10"
    assert tables.roll("broken-bone", ScriptedDice([face])).row.data["location"] == location


def test_M_TAB_02_broken_bone_effects() -> None:
    """M-TAB-02, M-BONE-01: legs knocked down, crawl 3" (1"); rib -3 to hit and damage; skull: save."""
    table = tables.get("broken-bone")
    leg = table.lookup(1)
    assert "KNOCKED_DOWN" in conditions(leg)
    assert (leg.data["crawl_inches"], leg.data["crawl_inches_both_legs"]) == (3, 1)
    rib = table.lookup(6).effect_list()[0].effects[0]
    assert (rib.applies_to, rib.mode, rib.value) == ("to_hit_and_damage", "BONUS", -3)
    skull = table.lookup(10)
    assert "death" in kinds(skull)
    save = helmet(skull)[0]
    assert save.category == "death" and save.ability == "CON"
    assert save.on_success[0].kind == "nothing"


@pytest.mark.parametrize(
    ("face", "location"),
    [(1, "R. Foot"), (2, "R. Leg"), (3, "L. Foot"), (4, "L. Leg"), (5, "R. Hand"), (6, "R. Hand"),
     (7, "R. Arm"), (8, "L. Hand"), (9, "L. Hand"), (10, "L. Arm"), (11, "Head"), (12, "Head")],
)
def test_M_TAB_03_severed_limb(face: int, location: str) -> None:
    """M-TAB-03, M-SEVER-01: d12 1 R. Foot, 2 R. Leg, 3 L. Foot, 4 L. Leg, 5-6 R. Hand, 7 R. Arm, 8-9 L. Hand,
    10 L. Arm, 11-12 Head."""
    table = tables.get("severed-limb")
    assert table.id == "M-TAB-03" and table.roll == "d12"
    assert tables.roll("severed-limb", ScriptedDice([face])).row.data["location"] == location


def test_M_TAB_03_head_helmet_save() -> None:
    """M-TAB-03, M-SEVER-01: head = instant death; with a helmet a save vs. death makes it stunned 1 round."""
    head = tables.get("severed-limb").lookup(12)
    assert kinds(head) == ["death"]
    save = helmet(head)[0]
    assert save.category == "death"
    stunned = save.on_success[0]
    assert stunned.name == "STUNNED" and (stunned.duration.amount, stunned.duration.unit) == ("1", "round")


def test_M_TAB_04_weapon_damage() -> None:
    """M-TAB-04, M-WPN-02..06: notch / slip 2d6 ft / string snaps / crack / off-balance; DEX rolls need 20."""
    table = tables.get("weapon-damage")
    assert table.id == "M-TAB-04"
    assert set(table.keys()) == {"sharp", "blunt", "strung", "pole", "hurled-or-unarmed"}
    sharp = table.lookup("sharp").effect_list()[0]
    assert sharp.category == "crushing_blow" and sharp.on_fail[0].action == "notch"
    assert table.lookup("sharp").data["notch_penalty"] == -1
    blunt = table.lookup("blunt").effect_list()[0]
    assert blunt.dc == "20" and blunt.on_fail[0].action == "slip" and blunt.on_fail[1].distance == "2d6"
    strung = table.lookup("strung")
    assert strung.effect_list()[0].on_fail[0].action == "string_snaps"
    assert strung.data["wet_trigger_naturals"] == [1, 2]
    assert table.lookup("pole").effect_list()[0].on_fail[0].action == "crack"
    assert table.lookup("pole").data["material"] == "thick wood"
    hurled = table.lookup("hurled-or-unarmed")
    assert hurled.effect_list()[0].dc == "20"
    assert "OFF_BALANCE" in {e.name for e in hurled.effect_list()[0].on_fail}
    assert hurled.data["segments_lost"] == "1d4"


def test_M_TAB_05_armor_damage() -> None:
    """M-TAB-05, M-ARM-02/03: melee or hurled -> crushing blow, missile -> normal blow; a failure is -1 AC."""
    table = tables.get("armor-damage")
    assert table.id == "M-TAB-05"
    melee = table.lookup("melee-or-hurled").effect_list()[0]
    missile = table.lookup("missile").effect_list()[0]
    assert (melee.category, missile.category) == ("crushing_blow", "normal_blow")
    assert melee.on_fail[0].ac_delta == -1
    by_piece = table.lookup("melee-or-hurled").data["on_fail_by_piece"]
    assert parse_effect(by_piece["shield"][0]).action == "destroy"
    assert parse_effect(by_piece["helmet"][0]).action == "destroy"
    assert parse_effect(by_piece["armor"][0]).ac_delta == -1


def test_M_TAB_06_orisons() -> None:
    """M-TAB-06, M-ORIS-01..04: 1 a day without a class; 2 for a 1st-level slot; 1 free for five classes."""
    table = tables.get("orisons")
    assert table.id == "M-TAB-06"
    priest = table.lookup("non-classed-priest").data
    assert priest["per_day"] == 1 and set(priest["excluded"]) == {"Candle", "Find a Stray", "Ripen"}
    assert "Ceremony: Oath" in table.lookup("non-classed-polytheist-priest").data["excluded"]
    assert table.lookup("clerical-or-druidic-caster").data["orisons_per_first_level_slot"] == 2
    free = table.lookup("free-orison").data
    assert free["free_per_day"] == 1
    assert set(free["classes"]) == {"Cleric", "Paladin", "Druid", "Monk", "Illusionist"}


def test_M_TAB_07_coin_weight() -> None:
    """M-TAB-07, M-COIN-01: coins and gems 100 to the pound; a gp-equivalent is 1/10 pound."""
    table = tables.get("coin-weight")
    assert table.id == "M-TAB-07"
    assert table.lookup("coin").data["per_pound"] == 100
    assert table.lookup("gem").data["per_pound"] == 100
    assert table.lookup("gp-equivalent").data["weight_lb"] == 0.1
    assert 1000 / table.lookup("coin").data["per_pound"] == 10


def test_H_M_tables_name_their_rules() -> None:
    """H-TAB-01..07, M-TAB-01..07: each table lists the rule ids it serves and carries notes."""
    for table_id in [f"H-TAB-0{i}" for i in range(1, 8)] + [f"M-TAB-0{i}" for i in range(1, 8)]:
        table = tables.get(table_id)
        assert table.rules and table.notes, table_id
