"""The Furnace tables F-TAB-21..42 (equipment, items, reaction, crits, fumbles, injuries, options).

Every number asserted here is the rules' own (RULES.md F.18), with the readings RULES.md chose.
"""

from __future__ import annotations

import math

import pytest

from furnace.dice import ScriptedDice
from furnace.rules.tables import TableSet

tables = TableSet.packaged()

IDS = [
    "F-TAB-21", "F-TAB-22", "F-TAB-23", "F-TAB-24", "F-TAB-25", "F-TAB-26", "F-TAB-27", "F-TAB-28",
    "F-TAB-29", "F-TAB-30", "F-TAB-31", "F-TAB-32", "F-TAB-33", "F-TAB-34", "F-TAB-35", "F-TAB-36",
    "F-TAB-37a", "F-TAB-37b", "F-TAB-38", "F-TAB-39", "F-TAB-40", "F-TAB-41", "F-TAB-42",
]
NAMES = {
    "F-TAB-21": "armor", "F-TAB-22": "weapons", "F-TAB-23": "two-handed-str", "F-TAB-24": "weapon-tags",
    "F-TAB-25": "item-tiers", "F-TAB-26": "item-dice", "F-TAB-27": "item-shield-of-shielding",
    "F-TAB-28": "item-mjolnir", "F-TAB-29": "reaction", "F-TAB-30": "crit-die", "F-TAB-31": "crit-fighter",
    "F-TAB-32": "crit-cleric", "F-TAB-33": "crit-rogue", "F-TAB-34": "crit-wizard", "F-TAB-35": "fumble-die",
    "F-TAB-36": "fumble", "F-TAB-37a": "injuries-death", "F-TAB-37b": "injuries",
    "F-TAB-38": "lingering-injuries", "F-TAB-39": "fighting-styles", "F-TAB-40": "starting-equipment",
    "F-TAB-41": "effort", "F-TAB-42": "combat-actions",
}
CRIT_TABLES = ["crit-fighter", "crit-cleric", "crit-rogue", "crit-wizard"]


def kinds(row) -> list[str]:
    return [e.kind for e in row.effect_list()]


def effects_of(row, kind: str) -> list:
    return [e for e in row.effect_list() if e.kind == kind]


def damage_dice(row) -> list[str]:
    """The row's extra damage dice, including those a weapon effect deals when the weapon is there."""
    direct = [e.dice for e in effects_of(row, "damage")]
    via_weapon = [d.dice for e in effects_of(row, "weapon") for d in e.then if d.kind == "damage"]
    return direct + via_weapon


def the_save(row):
    (save,) = effects_of(row, "save")
    return save


def spans(table) -> list[tuple[int | None, int | None]]:
    return [(r.min, r.max) for r in table.rows]


# -- all of them -----------------------------------------------------------------------------------
@pytest.mark.parametrize("table_id", IDS)
def test_F_TAB_21_to_42_load_with_their_names(table_id: str) -> None:
    """F-TAB-21..42: each table loads under its id and short name, with notes and rule ids."""
    table = tables.get(table_id)
    assert table.id == table_id
    assert tables.get(NAMES[table_id]) is table
    assert table.rules and table.notes


@pytest.mark.parametrize("name", [*CRIT_TABLES, "fumble", "injuries-death", "injuries", "lingering-injuries"])
def test_F_TAB_31_to_38_every_row_has_effects(name: str) -> None:
    """F-TAB-31..38: no crit, fumble or injury row is left without effects."""
    for row in tables.get(name).rows:
        assert row.effect_list(), f"{name} row {row.span} has no effects"


# -- F-TAB-21 armor --------------------------------------------------------------------------------
def test_F_TAB_21_armor_values() -> None:
    """F-TAB-21, F-EQ-01/02: light armor adds DEX, heavy does not; Plate 16; shield +2; stealth HARD."""
    armor = tables.get("armor")
    plate = armor.lookup("plate-mail").data
    assert (plate["type"], plate["ac_base"], plate["adds_dex"], plate["stealth"]) == ("heavy", 16, False, "HARD")
    shield = armor.lookup("shield").data
    assert (shield["type"], shield["ac_bonus"]) == ("shield", 2)
    expected = {
        "boiled-leather": ("light", 11, True, None), "lamellar-shirt": ("light", 12, True, "HARD"),
        "sleeved-gambeson": ("light", 12, True, None), "brigandine": ("heavy", 13, False, None),
        "chain-hauberk": ("heavy", 13, False, None), "breastplate": ("heavy", 14, False, "HARD"),
        "scale-mail": ("heavy", 14, False, "HARD"), "branded-mail": ("heavy", 15, False, "HARD"),
        "chain-mail": ("heavy", 15, False, "HARD"), "plate-mail": ("heavy", 16, False, "HARD"),
    }
    for key, (kind, ac, dex, stealth) in expected.items():
        d = armor.lookup(key).data
        assert (d["type"], d["ac_base"], d["adds_dex"], d["stealth"]) == (kind, ac, dex, stealth), key
        assert d["protection"] == ac - 10  # AMB-35


def test_F_TAB_21_unarmored_reading() -> None:
    """F-TAB-21, AMB-37: unarmored AC is 10 + DEX (a derived row)."""
    d = tables.get("armor").lookup("unarmored").data
    assert (d["ac_base"], d["adds_dex"], d["derived"]) == (10, True, True)


# -- F-TAB-22 weapons ------------------------------------------------------------------------------
def test_F_TAB_22_weapon_damage() -> None:
    """F-TAB-22, F-EQ-04: damage by category and handling."""
    weapons = tables.get("weapons")
    expected = {
        "simple-fist": "1", "simple-one-handed": "1d6", "simple-two-handed": "1d8", "simple-ranged": "1d6",
        "martial-one-handed": "1d8", "martial-two-handed": "1d10", "martial-ranged": "1d8",
    }
    assert {r.key: r.data["damage"] for r in weapons.rows} == expected
    assert weapons.lookup("martial-two-handed").data["hands"] == 2
    assert weapons.lookup("simple-one-handed").data["category"] == "simple"


# -- F-TAB-23 two-handed STR -----------------------------------------------------------------------
def test_F_TAB_23_two_handed_str_is_ceil_three_halves() -> None:
    """F-TAB-23, F-EQ-05: +2, +3, +5, +6 for STR 1..4 = ceil(3*STR/2)."""
    table = tables.get("two-handed-str")
    assert [table.lookup(s).data["bonus"] for s in (1, 2, 3, 4)] == [2, 3, 5, 6]
    for row in table.rows:
        assert row.data["bonus"] == math.ceil(3 * int(row.key) / 2)


# -- F-TAB-24 weapon tags --------------------------------------------------------------------------
def test_F_TAB_24_weapon_tags() -> None:
    """F-TAB-24, F-EQ-06: Heavy d12 two hands, tiny dagger 1d4 with DEX, Thrown/Low-range NEAR."""
    tags = tables.get("weapon-tags")
    assert tags.keys() == ["thrown", "low-range", "heavy", "recoil", "tiny"]
    assert (tags.lookup("heavy").data["damage"], tags.lookup("heavy").data["hands"]) == ("1d12", 2)
    assert (tags.lookup("tiny").data["damage"], tags.lookup("tiny").data["atk_ability"]) == ("1d4", "DEX")
    assert tags.lookup("recoil").data["damage_ability"] == "STR"
    assert tags.lookup("low-range").data["max_range"] == "NEAR"


# -- F-TAB-25..28 magic items ----------------------------------------------------------------------
def test_F_TAB_25_item_tiers() -> None:
    """F-TAB-25, F-MAGIC-01, CF-18: four tiers, 0/1/3/5 dice."""
    tiers = tables.get("item-tiers")
    assert {r.key: r.data["dice"] for r in tiers.rows} == {"common": 0, "uncommon": 1, "rare": 3, "epic": 5}


def test_F_TAB_26_item_dice() -> None:
    """F-TAB-26, F-MAGIC-02: effect/duration/charge d4, ranged d6, melee d8."""
    dice = tables.get("item-dice")
    assert {r.key: r.die for r in dice.rows} == {"effect": "d4", "ranged-damage": "d6", "melee-damage": "d8"}


def test_F_TAB_27_shield_of_shielding_budget() -> None:
    """F-TAB-27, F-MAGIC-03: Uncommon shield, +1d4 AC costs 1, the rest free; total 1 = budget."""
    item = tables.get("item-shield-of-shielding")
    head = item.lookup("item").data
    parts = [r for r in item.rows if r.key != "item"]
    assert [(r.key, r.data["cost"]) for r in parts] == [("ac", 1), ("duration", 0), ("uses", 0)]
    assert sum(r.data["cost"] for r in parts) == head["total_cost"] == head["budget"] == 1
    assert tables.get("item-tiers").lookup(head["tier"]).data["dice"] == 1


def test_F_TAB_28_mjolnir_budget() -> None:
    """F-TAB-28, F-MAGIC-03: Epic warhammer, 2 + 1 + 1 + 1 + 0 = 5 dice; CHILL for 1d4 rounds."""
    item = tables.get("item-mjolnir")
    head = item.lookup("item").data
    parts = [r for r in item.rows if r.key != "item"]
    assert [r.data["cost"] for r in parts] == [2, 1, 1, 1, 0]
    assert sum(r.data["cost"] for r in parts) == head["total_cost"] == head["budget"] == 5
    assert tables.get("item-tiers").lookup(head["tier"]).data["dice"] == 5
    (chill,) = effects_of(item.lookup("chill"), "condition")
    assert (chill.name, chill.duration.amount, chill.duration.unit) == ("CHILLED", "1d4", "round")
    assert damage_dice(item.lookup("damage")) == ["2d8"]


# -- F-TAB-29 reaction -----------------------------------------------------------------------------
def test_F_TAB_29_reaction_bands() -> None:
    """F-TAB-29, F-NPC-01: 2d6 + CHA; <=2 hostile ... >=12 helpful."""
    reaction = tables.get("reaction")
    assert (reaction.roll, reaction.variables) == ("2d6+CHA", ["CHA"])
    assert reaction.lookup(2).data["attitude"] == "hostile"
    assert reaction.lookup(-1).data["attitude"] == "hostile"
    assert reaction.lookup(5).data["attitude"] == "unfriendly"
    assert reaction.lookup(8).data["attitude"] == "neutral"
    assert reaction.lookup(11).data["attitude"] == "indifferent"
    assert reaction.lookup(12).data["attitude"] == "helpful"
    assert reaction.lookup(15).data["attitude"] == "helpful"


def test_F_TAB_29_reaction_roll_with_cha() -> None:
    """F-TAB-29: 6 + 5 + CHA 1 = 12, helpful."""
    result = tables.roll("reaction", ScriptedDice([6, 5]), variables={"CHA": 1})
    assert result.roll.total == 12
    assert result.row.data["attitude"] == "helpful"


# -- F-TAB-30 crit die -----------------------------------------------------------------------------
def test_F_TAB_30_crit_die_by_level() -> None:
    """F-TAB-30, F-CRIT-02: level 0 d4 ... level 10 d20+10."""
    crit_die = tables.get("crit-die")
    expected = ["d4", "d6", "d8", "d10", "d12", "d20", "d20+2", "d20+4", "d20+6", "d20+8", "d20+10"]
    assert [crit_die.lookup(level).die for level in range(11)] == expected
    assert crit_die.lookup(0).die == "d4"
    assert crit_die.lookup(10).die == "d20+10"


# -- F-TAB-31 fighter crits ------------------------------------------------------------------------
def test_F_TAB_31_fighter_crit_level_7() -> None:
    """F-TAB-31, F-CRIT-02: level 7 rolls d20+4; 17 + 4 = 21: CON SAVE DC 15+PC_LVL or paralysis."""
    result = tables.roll("crit-fighter", ScriptedDice([17]), key=7)
    assert result.roll.expression == "d20+4"
    assert result.roll.total == 21
    assert (result.row.min, result.row.max) == (21, 21)
    assert damage_dice(result.row) == ["2d12"]
    save = the_save(result.row)
    assert (save.ability, save.dc) == ("CON", "15+PC_LVL")
    assert [(e.kind, e.name) for e in save.on_fail] == [("condition", "PARALYSED")]


def test_F_TAB_31_fighter_rows() -> None:
    """F-TAB-31, F-CRIT-01, AMB-23: single rows 1..27 and 28+, with the source's extra dice."""
    fighter = tables.get("crit-fighter")
    assert spans(fighter) == [(n, n) for n in range(1, 28)] + [(28, None)]
    extra = {
        1: ["1d10", "1d4"], 2: ["1d8"], 3: ["1d8"], 4: ["1d8"], 5: ["1d8"], 6: [], 7: ["1d10"],
        8: ["1d10"], 9: ["1d10"], 10: ["2d10"], 11: ["1d12"], 12: ["1d12"], 13: ["1d12"], 14: ["1d12"],
        15: ["2d12"], 16: ["2d8"], 17: ["2d8"], 18: ["2d10"], 19: ["2d10"], 20: [], 21: ["2d12"], 22: [],
        23: ["3d8"], 24: ["3d10"], 25: ["3d10"], 26: ["3d12"], 27: ["3d12"], 28: [],
    }
    for total, dice in extra.items():
        assert damage_dice(fighter.lookup(total)) == dice, total
    assert effects_of(fighter.lookup(1), "damage")[1].target == "random_ally_close_to_target"
    assert effects_of(fighter.lookup(30), "extra_attack")[0].repeat == "until_miss"


def test_F_TAB_31_fighter_special_rows() -> None:
    """F-TAB-31, AMB-23: sunder or 1d12, slay-or-2d12, half current HP, DCs as printed (24 is 10+PC_LVL)."""
    fighter = tables.get("crit-fighter")
    (sunder,) = effects_of(fighter.lookup(8), "weapon")
    assert sunder.action == "sunder" and [e.dice for e in sunder.otherwise] == ["1d12"]
    (slay,) = effects_of(fighter.lookup(20), "slay")
    assert slay.when == "target_hp_below_attacker_hp" and [e.dice for e in slay.otherwise] == ["2d12"]
    (half,) = effects_of(fighter.lookup(22), "hp_fraction_loss")
    assert (half.fraction, half.of) == ("1/2", "current")
    assert [the_save(fighter.lookup(n)).dc for n in (13, 16, 21, 23, 24)] == [
        "10+PC_LVL", "10+PC_LVL", "15+PC_LVL", "15+PC_LVL", "10+PC_LVL"]
    (timer,) = the_save(fighter.lookup(23)).on_fail
    assert (timer.kind, timer.timer.amount, timer.timer.unit) == ("death", "1d4", "round")
    (stun,) = the_save(fighter.lookup(13)).on_fail
    assert (stun.name, stun.duration.amount, stun.duration.unit) == ("STUNNED", "1d4", "round")
    (cant_move,) = effects_of(fighter.lookup(3), "condition")
    assert (cant_move.name, cant_move.duration.unit) == ("CANT_MOVE", "next_turn")
    (para,) = effects_of(fighter.lookup(26), "condition")
    assert (para.name, para.duration.unit) == ("PARALYSED", "permanent")
    (again,) = effects_of(fighter.lookup(19), "extra_attack")
    assert (again.target, again.only_if) == ("another_near", "target_dies")


# -- F-TAB-32..34 other crit tables ----------------------------------------------------------------
def test_F_TAB_32_cleric_crit_rows() -> None:
    """F-TAB-32, F-CRIT-01: the Cleric's ranges and extra dice."""
    cleric = tables.get("crit-cleric")
    assert spans(cleric) == [(1, 1), (2, 3), (4, 5), (6, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 15),
                             (16, 17), (18, 19), (20, 20), (21, 22), (23, 24), (25, 25), (26, 27), (28, None)]
    assert [damage_dice(cleric.lookup(n)) for n in (1, 3, 15, 20, 27, 30)] == [
        ["1d8", "1d4"], ["1d6"], ["2d8"], ["1d10"], ["2d8"], ["2d8"]]
    assert (the_save(cleric.lookup(20)).dc, the_save(cleric.lookup(20)).ability) == ("10+PC_LVL", "CON")
    assert kinds(cleric.lookup(6)) == ["extra_attack"]


def test_F_TAB_32_cleric_crit_level_3_roll() -> None:
    """F-TAB-32, F-CRIT-02: level 3 rolls a d10; a 10 lands on 9-10 (knocks the weapon away)."""
    result = tables.roll("crit-cleric", ScriptedDice([10]), key=3)
    assert result.roll.expression == "d10" and result.roll.total == 10
    assert [e.action for e in effects_of(result.row, "weapon")] == ["knock_away"]


def test_F_TAB_33_rogue_crit_rows() -> None:
    """F-TAB-33, F-CRIT-01: DC 10+PC_LVL up to row 22, 12+PC_LVL from 23; death riders."""
    rogue = tables.get("crit-rogue")
    assert spans(rogue)[0] == (1, 2) and spans(rogue)[-1] == (28, None)
    assert [the_save(rogue.lookup(n)).dc for n in (15, 16, 20, 21, 23, 25, 27, 28)] == [
        "10+PC_LVL", "10+PC_LVL", "10+PC_LVL", "10+PC_LVL", "12+PC_LVL", "12+PC_LVL", "12+PC_LVL", "12+PC_LVL"]
    assert [damage_dice(rogue.lookup(n)) for n in (1, 6, 12, 23, 28)] == [["1d6"], ["2d6"], ["2d8"], ["3d6"], ["3d6"]]
    (speech,) = effects_of(rogue.lookup(7), "condition")
    assert speech.name == "CANT_SPEAK"
    (stun,) = effects_of(rogue.lookup(8), "condition")
    assert (stun.name, stun.duration.amount, stun.duration.unit) == ("STUNNED", "1", "round")
    assert [e.kind for e in the_save(rogue.lookup(27)).on_fail] == ["death"]
    assert the_save(rogue.lookup(27)).on_fail[0].timer is None


def test_F_TAB_34_wizard_crit_rows() -> None:
    """F-TAB-34, AMB-24: 0-levels and all Magic-users; row 20 is a flat DC 15 CON SAVE."""
    wizard = tables.get("crit-wizard")
    assert tables.get("crit-0-level") is wizard and tables.get("crit-magic-user") is wizard
    assert spans(wizard)[-1] == (27, None)
    save = the_save(wizard.lookup(20))
    assert (save.ability, save.dc) == ("CON", "15")
    assert [(e.name, e.duration.unit) for e in save.on_fail] == [("INCAPACITATED", "next_turn")]
    (last,) = effects_of(wizard.lookup(4), "condition")
    assert (last.name, last.duration.unit) == ("LAST_TO_ACT", "next_turn")
    assert [damage_dice(wizard.lookup(n)) for n in (1, 5, 17, 24, 30)] == [["1d4"], ["1d6"], ["1d8"], ["2d6"], ["2d6"]]


def test_F_TAB_34_level_0_crit_uses_d4() -> None:
    """F-TAB-34, F-TAB-30: a level-0 character rolls d4; a 4 lands on row 4-5."""
    result = tables.roll("crit-0-level", ScriptedDice([4]), key=0)
    assert result.roll.expression == "d4" and (result.row.min, result.row.max) == (4, 5)


@pytest.mark.parametrize("name", CRIT_TABLES)
def test_F_TAB_31_to_34_crit_tables_cover_1_to_30(name: str) -> None:
    """F-TAB-31..34, AMB-26: rolled with F-TAB-30 by level over 1..30; the last row is open."""
    table = tables.get(name)
    assert (table.die_table, table.die_key, table.covers) == ("F-TAB-30", "level", (1, 30))
    assert table.rows[0].min == 1 and table.rows[-1].max is None
    top = tables.roll(name, ScriptedDice([20]), key=10)
    assert top.roll.total == 30 and top.row is table.rows[-1]


# -- F-TAB-35/36 fumbles ---------------------------------------------------------------------------
def test_F_TAB_35_fumble_die_by_armor() -> None:
    """F-TAB-35, F-FUMB-02: none d4, light d8, heavy d12."""
    fumble_die = tables.get("fumble-die")
    assert {r.key: r.die for r in fumble_die.rows} == {"none": "d4", "light": "d8", "heavy": "d12"}


def test_F_TAB_36_fumble_heavy_armor_12() -> None:
    """F-TAB-36, F-FUMB-01: heavy armor rolls d12; a 12 is hitting yourself."""
    result = tables.roll("fumble", ScriptedDice([12]), key="heavy")
    assert result.roll.expression == "d12"
    assert result.roll.total == 12
    assert (result.row.min, result.row.max) == (12, 12)
    assert [(e.kind, e.target) for e in result.row.effect_list()] == [("attack", "self")]


def test_F_TAB_36_fumble_rows() -> None:
    """F-TAB-36: 12 single rows; DEX SAVE DC 10; seized joints 1d4 rounds; attack a random ally."""
    fumble = tables.get("fumble")
    assert (fumble.die_table, fumble.die_key, fumble.covers) == ("F-TAB-35", "armor", (1, 12))
    assert spans(fumble) == [(n, n) for n in range(1, 13)]
    assert kinds(fumble.lookup(1)) == ["nothing"]
    save = the_save(fumble.lookup(2))
    assert (save.ability, save.dc, save.on_fail[0].name) == ("DEX", "10", "PRONE")
    assert [effects_of(fumble.lookup(n), "weapon")[0].action for n in (3, 4, 6, 7, 8)] == [
        "loose", "damage", "entangled", "drop", "destroy"]
    assert effects_of(fumble.lookup(9), "modifier")[0].applies_to == "next_atk_against"
    assert effects_of(fumble.lookup(10), "armor")[0].action == "seize"
    (stuck,) = effects_of(fumble.lookup(10), "condition")
    assert (stuck.name, stuck.duration.amount, stuck.duration.unit) == ("CANT_MOVE", "1d4", "round")
    assert effects_of(fumble.lookup(11), "attack")[0].target == "random_ally"


def test_F_TAB_36_no_armor_reaches_only_rows_1_to_4() -> None:
    """F-TAB-36, F-TAB-35: with no armor the d4 tops out at row 4."""
    result = tables.roll("fumble", ScriptedDice([4]), key="none")
    assert result.roll.expression == "d4" and result.row.min == 4


# -- F-TAB-37a/b injuries --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["injuries-death", "injuries"])
def test_F_TAB_37a_37b_injury_rows(name: str) -> None:
    """F-TAB-37a, F-TAB-37b, F-INJ-01: death, 1d6 ability losses, lingering injury, heal 1 HD."""
    table = tables.get(name)
    assert table.roll == "d20"
    assert spans(table) == [(n, n) for n in range(1, 8)] + [(8, 13), (14, 19), (20, 20)]
    assert kinds(table.lookup(1)) == ["death"]
    for total, ability in zip(range(2, 8), ["STR", "DEX", "CON", "INT", "WIS", "CHA"], strict=True):
        (loss,) = effects_of(table.lookup(total), "ability_loss")
        assert (loss.ability, loss.dice, loss.permanent) == (ability, "1d6", True)
    assert effects_of(table.lookup(10), "injury")[0].table == "F-TAB-38"
    (heal,) = effects_of(table.lookup(20), "heal")
    assert (heal.dice, heal.unit) == ("1", "hit_die")


def test_F_TAB_37a_vs_37b_rows_14_to_19_differ() -> None:
    """F-TAB-37a, F-TAB-37b, CF-02, D-7: DISADVANTAGE vs HARD on all CHECKs until rest."""
    a = effects_of(tables.get("injuries-a").lookup(16), "modifier")[0]
    b = effects_of(tables.get("injuries-b").lookup(16), "modifier")[0]
    assert (a.applies_to, a.mode, a.duration.unit) == ("checks", "DISADVANTAGE", "until_rest")
    assert (b.applies_to, b.mode, b.duration.unit) == ("checks", "HARD", "until_rest")
    assert tables.get("injuries").id == "F-TAB-37b"  # the default (CF-02)


# -- F-TAB-38 lingering injuries -------------------------------------------------------------------
def test_F_TAB_38_lingering_rows() -> None:
    """F-TAB-38, F-INJ-02: the 11 rows over d20."""
    lingering = tables.get("lingering-injuries")
    assert lingering.roll == "d20"
    assert spans(lingering) == [(1, 1), (2, 2), (3, 3), (4, 5), (6, 7), (8, 11), (12, 13), (14, 14), (15, 15),
                                (16, 16), (17, 20)]
    assert kinds(lingering.lookup(18)) == ["nothing"]


def test_F_TAB_38_lingering_16_damaged_armor() -> None:
    """F-TAB-38 row 16, AMB-35: armor damaged, ac_delta -2."""
    (armor,) = effects_of(tables.get("lingering-injuries").lookup(16), "armor")
    assert (armor.action, armor.ac_delta, armor.piece) == ("damage", -2, "armor")


def test_F_TAB_38_lingering_lasting_marks() -> None:
    """F-TAB-38, AMB-34, D-8: eye, foot, torso, open wound and scar as lasting effects."""
    lingering = tables.get("lingering-injuries")
    (eye,) = effects_of(lingering.lookup(3), "lasting")
    assert {(m.applies_to, m.mode) for m in eye.effects} == {("perception_sight", "HARD"), ("ranged_atk", "HARD")}
    (foot,) = effects_of(lingering.lookup(4), "lasting")
    assert [e.name for e in foot.effects] == ["MOVE_NEAR_ONLY"]
    (torso,) = effects_of(lingering.lookup(9), "lasting")
    assert torso.duration.unit == "until_healed"
    assert (torso.effects[0].kind, torso.effects[0].ability) == ("save", "CON")
    (wound,) = effects_of(lingering.lookup(12), "lasting")
    assert (wound.effects[0].dice, wound.effects[0].every) == ("1", "round")
    (scar,) = effects_of(lingering.lookup(14), "lasting")
    assert {(m.applies_to, m.mode) for m in scar.effects} == {("persuasion", "HARD"), ("intimidation", "EASY")}
    save = the_save(lingering.lookup(2))
    assert (save.ability, save.on_fail[0].name, save.on_fail[0].duration.amount) == ("CON", "STUNNED", "1d4")


def test_F_TAB_38_rolled_from_injuries_8_to_13() -> None:
    """F-TAB-38, F-TAB-37b, CF-13: an injury 8-13 leads to the document's lingering table."""
    rolled = tables.roll("injuries", ScriptedDice([9]))
    (injury,) = effects_of(rolled.row, "injury")
    assert tables.get(injury.table).name == "lingering-injuries"


# -- F-TAB-39..42 ----------------------------------------------------------------------------------
def test_F_TAB_39_fighting_styles() -> None:
    """F-TAB-39, F-FTR-04: six styles a-f; +1 ranged ATK, +1 AC, +1 DAM."""
    styles = tables.get("fighting-styles")
    assert styles.keys() == ["a", "b", "c", "d", "e", "f"]
    bonus = {k: effects_of(styles.lookup(k), "modifier")[0] for k in "abc"}
    assert [(m.applies_to, m.mode, m.value) for m in bonus.values()] == [
        ("ranged_atk", "BONUS", 1), ("ac", "BONUS", 1), ("damage", "BONUS", 1)]
    assert effects_of(styles.lookup("e"), "modifier")[0].mode == "HARD"
    assert styles.lookup("e").data["uses"] == "once_per_encounter"


def test_F_TAB_40_starting_equipment() -> None:
    """F-TAB-40, F-FTR-05, F-CLR-09, F-ROG-05, F-MU-07: four kits with their picks."""
    kits = tables.get("starting-equipment")
    assert kits.keys() == ["fighter", "cleric", "rogue", "magic-user"]
    assert [len(r.data["choices"]) for r in kits.rows] == [4, 4, 6, 4]
    assert kits.lookup("fighter").data["choices"][2] == ["leather armor", "scalemail"]
    assert kits.lookup("fighter").data["armor_keys"]["leather armor"] == "boiled-leather"
    armor = tables.get("armor")
    for key in kits.lookup("cleric").data["armor_keys"].values():
        armor.lookup(key)


def test_F_TAB_41_effort_dice() -> None:
    """F-TAB-41, F-OPT-03: 1d8 + mod with PROF, 1d4 + mod without."""
    effort = tables.get("effort")
    assert effort.lookup("proficient").data["dice"] == "1d8"
    assert effort.lookup("unproficient").data["dice"] == "1d4"


def test_F_TAB_42_combat_actions() -> None:
    """F-TAB-42, F-CMBT-01/02: the action menu; DODGE makes ATKs against you HARD until your next turn."""
    actions = tables.get("combat-actions")
    assert actions.keys() == ["attack", "near-and-attack", "go-ranged", "dodge", "disengage", "other"]
    (dodge,) = effects_of(actions.lookup("dodge"), "modifier")
    assert (dodge.applies_to, dodge.mode, dodge.target, dodge.duration.unit) == (
        "atk_against", "HARD", "self", "next_turn")
    assert kinds(actions.lookup("other")) == ["referee_prompt"]
