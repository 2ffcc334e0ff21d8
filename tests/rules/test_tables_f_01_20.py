"""Furnace tables F-TAB-01 … F-TAB-20 as packaged data: the rules' own numbers, checked row by row."""

from __future__ import annotations

from typing import TypeVar

import pytest

from furnace.dice import ScriptedDice
from furnace.rules.effects import (
    Area,
    Condition,
    Damage,
    Effect,
    Heal,
    Modifier,
    RefereePrompt,
    Save,
    SpellEffect,
    Summon,
)
from furnace.rules.tables import Row, Table, TableSet

tables = TableSet.packaged()
E = TypeVar("E", bound=Effect)

IDS = ["F-TAB-01", "F-TAB-02", "F-TAB-03", "F-TAB-04", "F-TAB-05a", "F-TAB-05b", "F-TAB-06", "F-TAB-07",
       "F-TAB-08", "F-TAB-09", "F-TAB-10", "F-TAB-11", "F-TAB-12", "F-TAB-13", "F-TAB-14", "F-TAB-15",
       "F-TAB-16", "F-TAB-17", "F-TAB-18", "F-TAB-19", "F-TAB-20"]
NAMES = ["glossary", "ability-modifiers", "races", "classes", "advancement", "advancement-appendix",
         "lay-on-hands", "archetype-barbarian", "archetype-bloodshaman", "archetype-arcane-trickster",
         "archetype-wizard", "spellcheck", "spell-dice", "spell-fireball", "spell-chill-touch",
         "spell-animate-dead", "spell-ember-swarm", "spell-flame-shield", "mishap", "mishap-fireball",
         "mishap-polymorph"]


def kinds(row: Row) -> list[str]:
    return [e.kind for e in row.effects]


def only(row: Row, cls: type[E]) -> E:
    found = [e for e in row.effects if isinstance(e, cls)]
    assert len(found) == 1, (row.span, found)
    return found[0]


@pytest.mark.parametrize(("table_id", "name"), list(zip(IDS, NAMES, strict=True)))
def test_F_TAB_01_to_20_ids_names_and_effects(table_id: str, name: str) -> None:
    """F-TAB-01 … F-TAB-20: each id loads under its short name, lists its rules and gives every row effects."""
    table = tables.get(name)
    assert table.id == table_id
    assert tables.get(table_id) is table
    assert table.rules, table_id
    for row in table.rows:
        assert row.effects, (table_id, row.span)
        assert row.text.strip()


def test_F_TAB_01_glossary() -> None:
    """F-TAB-01 (F-BASE-02..05): the abbreviations, EASY -3 and HARD +3 to the DC."""
    t = tables.get("glossary")
    assert t.kind == "keyed"
    assert len(t.rows) == 21
    assert t.lookup("EASY").data["dc_delta"] == -3
    assert t.lookup("HARD").data["dc_delta"] == 3
    assert t.lookup("room dc").key == "ROOM DC"
    for ability in ("STR", "DEX", "CON", "INT", "WIS", "CHA"):
        assert t.lookup(ability).data["is_modifier"] is True
    assert {t.lookup(z).data["zone"] for z in ("CLOSE", "NEAR", "RANGED", "FAR")} == {"CLOSE", "NEAR", "RANGED", "FAR"}


def test_F_TAB_02_ability_modifiers() -> None:
    """F-TAB-02, F-ABIL-02 (CF-03/AMB-08): 13 → +1, 9-12 → 0, 20 → +4; covers 1-20."""
    t = tables.get("ability-modifiers")
    expected = {1: -3, 3: -3, 4: -2, 5: -2, 6: -1, 8: -1, 9: 0, 12: 0, 13: 1, 15: 1, 16: 2, 17: 2,
                18: 3, 19: 3, 20: 4}
    for score, mod in expected.items():
        assert t.lookup(score).data["mod"] == mod, score
    assert t.covers == (1, 20)
    assert t.roll is None
    assert any("CF-03" in n for n in t.notes)


def test_F_TAB_03_races() -> None:
    """F-TAB-03, F-RACE-01..06: +1/-1 score adjustments and the racial EASY checks."""
    t = tables.get("races")
    assert t.keys() == ["Human", "Dwarf", "Elf", "Halfling", "Half-orc"]
    assert t.lookup("Human").data["adjust"] == {}
    assert t.lookup("Dwarf").data["adjust"] == {"CON": 1, "CHA": -1}
    assert t.lookup("Elf").data["adjust"] == {"INT": 1, "CON": -1}
    assert t.lookup("Halfling").data["adjust"] == {"DEX": 1, "STR": -1}
    assert t.lookup("half-orc").data["adjust"] == {"STR": 1, "INT": -1}
    for race, checks in {"Dwarf": ["History", "Investigation"], "Elf": ["Perception"],
                         "Halfling": ["CHA"], "Half-orc": ["Survival"]}.items():
        row = t.lookup(race)
        assert row.data["easy_checks"] == checks
        mod = only(row, Modifier)
        assert (mod.mode, mod.target) == ("EASY", "self")
    for row in t.rows[1:]:
        assert sum(row.data["adjust"].values()) == 0


def test_F_TAB_04_classes() -> None:
    """F-TAB-04, F-CLS-01: HD, saves, proficiencies; Magic-user d6, shield, simple (CF-04/06); Rogue 3+INT (CF-08)."""
    t = tables.get("classes")
    assert t.keys() == ["Fighter", "Cleric", "Rogue", "Magic-user"]
    f, c, r, m = (row.data for row in t.rows)
    assert (f["hit_die"], c["hit_die"], r["hit_die"], m["hit_die"]) == ("d10", "d8", "d8", "d6")
    assert (f["save_ability"], c["save_ability"], r["save_ability"], m["save_ability"]) == ("STR", "WIS", "DEX", "INT")
    assert m["armor"] == ["shield"] and m["weapons"] == ["simple"]
    assert r["armor"] == ["light", "shield"] and r["weapons"] == ["simple", "martial"]
    assert f["armor"] == ["light", "heavy", "shield"] and c["weapons"] == ["simple"]
    skills = (f["skills_at_1"], c["skills_at_1"], r["skills_at_1"], m["skills_at_1"])
    assert skills == ("1+INT", "1+INT", "3+INT", "1+INT")
    assert (f["fixed_hp_1"], c["fixed_hp_1"], r["fixed_hp_1"], m["fixed_hp_1"]) == (4, 3, 3, 2)
    assert (f["hp_after_5"], c["hp_after_5"], r["hp_after_5"], m["hp_after_5"]) == (3, 2, 2, 1)
    assert (f["hp_floor_cap"], m["hp_floor_cap"]) == (5, 3)
    assert m["hp_1"] == "1d6"
    assert f["features"] == ["Cleave", "Fighting Style"]
    notes = " ".join(t.notes)
    for ref in ("CF-04", "CF-06", "CF-07", "CF-08"):
        assert ref in notes


@pytest.mark.parametrize("name", ["advancement", "advancement-appendix"])
def test_F_TAB_05a_05b_prof_and_hit_dice(name: str) -> None:
    """F-TAB-05a and F-TAB-05b, F-ADV-01, F-HP-04: PROF and Hit Dice by level (identical in both versions)."""
    t = tables.get(name)
    prof = [0, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4]
    for level in range(11):
        assert t.lookup(level).data["prof"] == prof[level]
    assert t.lookup(0).data["hit_dice"] == "1d4"
    assert t.lookup(5).data["hit_dice"] == "5HD"
    for level in range(6, 11):
        row = t.lookup(level).data
        assert row["hit_dice"] == f"5HD+{level - 5}$"
        assert row["hd_pool"] == 5
        assert row["dollar"] == {"Fighter": 3, "Cleric": 2, "Rogue": 2, "Magic-user": 1}
    assert t.lookup(10).data["flat_hp"] == {"Fighter": 15, "Cleric": 10, "Rogue": 10, "Magic-user": 5}
    assert [lv for lv in range(11) if "ability_score_plus_1" in t.lookup(lv).data["features"]] == [4, 6, 8, 10]
    assert t.lookup(1).data["features"] == ["choose_skills", "choose_archetype"]


def test_F_TAB_05a_vs_05b_archetype_feature_levels() -> None:
    """F-TAB-05a (main, default) gives archetype features at 2, 5, 7; F-TAB-05b (appendix) at 3, 7 (CF-01)."""
    main, appendix = tables.get("advancement"), tables.get("advancement-appendix")
    assert tables.get("advancement-main") is main
    assert main.id == "F-TAB-05a" and appendix.id == "F-TAB-05b"

    def levels(t: Table) -> list[int]:
        return [lv for lv in range(11) if "archetype_feature" in t.lookup(lv).data["features"]]

    assert levels(main) == [2, 5, 7]
    assert levels(appendix) == [3, 7]
    assert any("CF-01" in n for n in main.notes) and any("CF-01" in n for n in appendix.notes)


def test_F_TAB_06_lay_on_hands() -> None:
    """F-TAB-06, F-CLR-05: 12-15 → 1 HD, 16-20 → 2, 21-26 → 3, 27+ → 4; below 12 no healing."""
    t = tables.get("lay-on-hands")
    assert t.roll == "d20+MOD+PROF" and t.variables == ["MOD", "PROF"]
    expected = {-3: 0, 11: 0, 12: 1, 15: 1, 16: 2, 20: 2, 21: 3, 26: 3, 27: 4, 40: 4}
    for total, hd in expected.items():
        assert t.lookup(total).data["hd"] == hd, total
    heal = only(t.lookup(27), Heal)
    assert (heal.dice, heal.unit) == ("4", "hit_die")
    assert t.rows[0].min is None and t.rows[-1].max is None
    # d20 shows 14, WIS +2, PROF +2 → 18 → 2 HD
    rolled = tables.roll("lay-on-hands", ScriptedDice([14]), variables={"MOD": 2, "PROF": 2})
    assert rolled.roll.total == 18 and rolled.row.data["hd"] == 2


def test_F_TAB_07_archetype_barbarian() -> None:
    """F-TAB-07, F-ARCH-02: Intimidation/Survival; Rage, crit 19-20, d12, fearless, Intimidation EASY."""
    t = tables.get("archetype-barbarian")
    assert t.lookup("basic").data["skill_profs"] == ["Intimidation", "Survival"]
    features = [r for r in t.rows if r.data["part"] == "feature"]
    assert len(features) == 5
    rage = only(t.lookup("rage"), Condition)
    assert rage.name == "RAGING" and rage.duration is not None and rage.duration.unit == "encounter"
    assert t.lookup("melee-crit-19").data["crit_range"] == [19, 20]
    assert t.lookup("d12-hit-die").data["hit_die"] == "d12"
    assert only(t.lookup("intimidating"), Modifier).applies_to == "intimidation"


def test_F_TAB_08_archetype_bloodshaman() -> None:
    """F-TAB-08, F-ARCH-03: Half-orc only; Intimidation/Medicine; Bloodmagic 1d6 HP to DAM."""
    t = tables.get("archetype-bloodshaman")
    basic = t.lookup("basic").data
    assert basic["prerequisite"] == {"race": "Half-orc"}
    assert basic["skill_profs"] == ["Intimidation", "Medicine"]
    assert len([r for r in t.rows if r.data["part"] == "feature"]) == 5
    blood = only(t.lookup("bloodmagic"), Damage)
    assert (blood.dice, blood.target) == ("1d6", "self")
    assert only(t.lookup("rally"), Modifier).mode == "EASY"


def test_F_TAB_09_archetype_arcane_trickster() -> None:
    """F-TAB-09, F-ARCH-04: Arcana/Insight; HARD SPELLCHECK for scrolls; magic SAVEs EASY; INT for ATK."""
    t = tables.get("archetype-arcane-trickster")
    assert t.lookup("basic").data["skill_profs"] == ["Arcana", "Insight"]
    assert len([r for r in t.rows if r.data["part"] == "feature"]) == 5
    scroll = only(t.lookup("scroll-reader"), Modifier)
    assert (scroll.applies_to, scroll.mode) == ("spellcheck", "HARD")
    saves = only(t.lookup("magic-resistance"), Modifier)
    assert (saves.applies_to, saves.mode) == ("saves", "EASY")
    assert t.lookup("arcane-strike").data["atk_ability"] == "INT"
    assert t.lookup("trickster").data["cantrips"] == 1


def test_F_TAB_10_archetype_wizard() -> None:
    """F-TAB-10, F-ARCH-05: Arcana/History; scrolls EASY; Bookworm +2 spells; Arcana EASY."""
    t = tables.get("archetype-wizard")
    assert t.lookup("basic").data["skill_profs"] == ["Arcana", "History"]
    assert len([r for r in t.rows if r.data["part"] == "feature"]) == 5
    assert only(t.lookup("scroll-caster"), Modifier).mode == "EASY"
    assert t.lookup("bookworm").data["spells_known_bonus"] == 2
    assert only(t.lookup("enchant"), RefereePrompt)


def test_F_TAB_11_spellcheck() -> None:
    """F-TAB-11, F-SPELL-03/06: 11 fails, 12 → SL1 (1 die), 27 → SL4 (7 dice), 36 → SL6 WONDER."""
    t = tables.get("spellcheck")
    assert t.roll == "d20+MOD+PROF" and t.variables == ["MOD", "PROF"]
    assert t.lookup(11).data["sl"] is None and t.lookup(11).data["failure"] is True
    assert t.lookup(-2).data["sl"] is None
    bands = {12: (1, 1), 15: (1, 1), 16: (2, 2), 20: (2, 2), 21: (3, 4), 26: (3, 4), 27: (4, 7), 31: (4, 7),
             32: (5, 11), 35: (5, 11)}
    for total, (sl, dice_) in bands.items():
        row = t.lookup(total)
        assert (row.data["sl"], row.data["total_dice"]) == (sl, dice_), total
        assert only(row, SpellEffect).sl == str(sl)
    wonder = t.lookup(36)
    assert wonder.data["sl"] == 6 and wonder.data["wonder"] is True
    assert t.lookup(50).data["sl"] == 6
    assert only(wonder, RefereePrompt)
    assert any("AMB-16" in n for n in t.notes)
    # d20 shows 17, INT +3, PROF +2 → 22 → SL3
    rolled = tables.roll("spellcheck", ScriptedDice([17]), variables={"MOD": 3, "PROF": 2})
    assert rolled.roll.total == 22 and rolled.row.data["sl"] == 3


def test_F_TAB_12_spell_dice() -> None:
    """F-TAB-12, F-SPELL-05: effect or duration d4, ranged damage d6, melee damage d8."""
    t = tables.get("spell-dice")
    assert t.lookup("effect_or_duration").die == "d4"
    assert t.lookup("ranged_damage").die == "d6"
    assert t.lookup("melee_damage").die == "d8"
    assert any("CF-15" in n for n in t.notes)


BUDGET = {1: 1, 2: 2, 3: 4, 4: 7, 5: 11}


def check_costs(t: Table, levels: range) -> None:
    for sl in levels:
        data = t.lookup(sl).data
        assert data["total_cost"] == BUDGET[sl], (t.id, sl)
        assert sum(c["cost"] for c in data["components"]) == data["total_cost"], (t.id, sl)
    if 6 in [r.key for r in t.rows]:
        six = t.lookup(6)
        assert six.data["wonder"] is True and six.data["total_cost"] is None
        assert any(isinstance(e, RefereePrompt) for e in six.effects)


def test_F_TAB_13_spell_fireball() -> None:
    """F-TAB-13, F-SPELL-12: Fireball 1d6/1d6/3d6/5d6/7d6 fire, CLOSE then NEAR, PRONE 1d4 at SL5; 12d6 at SL6."""
    t = tables.get("spell-fireball")
    check_costs(t, range(1, 6))
    dice_ = {1: "1d6", 2: "1d6", 3: "3d6", 4: "5d6", 5: "7d6", 6: "12d6"}
    for sl, d in dice_.items():
        dmg = only(t.lookup(sl), Damage)
        assert (dmg.dice, dmg.type) == (d, "fire")
    assert "area" not in kinds(t.lookup(1))
    assert only(t.lookup(2), Area).zone == "CLOSE" and only(t.lookup(3), Area).zone == "CLOSE"
    assert only(t.lookup(4), Area).zone == "NEAR" and only(t.lookup(5), Area).zone == "NEAR"
    prone = only(t.lookup(5), Condition)
    assert prone.name == "PRONE" and prone.duration is not None and prone.duration.amount == "1d4"
    assert only(t.lookup(6), Condition).name == "FRIGHTENED"


def test_F_TAB_14_spell_chill_touch() -> None:
    """F-TAB-14, F-SPELL-12: Chill Touch 1d8/1d8/2d8/3d8/6d8/10d8 cold; can't be healed; paralysis costs 2."""
    t = tables.get("spell-chill-touch")
    check_costs(t, range(1, 6))
    dice_ = {1: "1d8", 2: "1d8", 3: "2d8", 4: "3d8", 5: "6d8", 6: "10d8"}
    for sl, d in dice_.items():
        dmg = only(t.lookup(sl), Damage)
        assert (dmg.dice, dmg.type) == (d, "cold")
    assert t.lookup(2).data["components"][2] == {"text": "for 1 round", "cost": 0}

    def conds(sl: int) -> dict[str, tuple[str, str]]:
        return {e.name: (e.duration.amount, e.duration.unit) for e in t.lookup(sl).effects
                if isinstance(e, Condition) and e.duration is not None}

    assert conds(2) == {"CANT_BE_HEALED": ("1", "round")}
    assert conds(3) == {"CANT_BE_HEALED": ("1d4", "round")}
    assert conds(4) == {"CANT_BE_HEALED": ("1d4", "round"), "PARALYSED": ("1", "round")}
    assert conds(5) == {"CANT_BE_HEALED": ("1d4", "round"), "PARALYSED": ("1d4", "round")}
    assert conds(6) == {"CANT_BE_HEALED": ("1", "until_cured"), "PARALYSED": ("1", "until_cured")}
    paralysis = [c for c in t.lookup(4).data["components"] if c["text"] == "PARALYSED"]
    assert paralysis == [{"text": "PARALYSED", "cost": 2}]


def test_F_TAB_15_spell_animate_dead() -> None:
    """F-TAB-15, F-SPELL-12: SL1 still fails; 1 zombie 1d4, 1d4 zombies 2d4, NEAR dead zombies/revenants 2d4."""
    t = tables.get("spell-animate-dead")
    assert t.lookup(1).data["total_cost"] == 0 and kinds(t.lookup(1)) == ["nothing"]
    check_costs(t, range(2, 6))
    expected = {2: ("zombie", "1", "1d4"), 3: ("zombie", "1d4", "2d4"), 4: ("zombie", "NEAR_DEAD", "2d4"),
                5: ("revenant", "NEAR_DEAD", "2d4")}
    for sl, (creature, count, duration) in expected.items():
        s = only(t.lookup(sl), Summon)
        assert (s.creature, s.count) == (creature, count)
        assert s.duration is not None and (s.duration.amount, s.duration.unit) == (duration, "round")
    assert [c["cost"] for c in t.lookup(5).data["components"]] == [9, 2]
    six = only(t.lookup(6), Summon)
    assert six.creature == "revenant" and six.duration is not None and six.duration.unit == "permanent"


def test_F_TAB_16_spell_ember_swarm() -> None:
    """F-TAB-16, F-SPELL-12: Ember Swarm 1d4/1d4/2d4/2d4/4d4/8d4 fire every round; ATK HARD from SL4."""
    t = tables.get("spell-ember-swarm")
    check_costs(t, range(1, 6))
    expected = {1: ("1d4", "1"), 2: ("1d4", "1d4"), 3: ("2d4", "2d4"), 4: ("2d4", "2d4"), 5: ("4d4", "2d4")}
    for sl, (d, duration) in expected.items():
        dmg = only(t.lookup(sl), Damage)
        assert (dmg.dice, dmg.type, dmg.every) == (d, "fire", "round")
        assert dmg.duration is not None and dmg.duration.amount == duration
    assert [m.target for m in t.lookup(4).effects if isinstance(m, Modifier)] == ["target"]
    assert [m.target for m in t.lookup(5).effects if isinstance(m, Modifier)] == ["target", "all_close_to_target"]
    assert all(m.mode == "HARD" and m.applies_to == "atk" for m in t.lookup(5).effects if isinstance(m, Modifier))
    assert only(t.lookup(6), Damage).dice == "8d4"


def test_F_TAB_17_spell_flame_shield() -> None:
    """F-TAB-17, F-SPELL-06: Flame Shield at SL3 = 1d4 AC (1) + 1d4 rounds (1) + 2d8 fire to the attacker (2) = 4."""
    t = tables.get("spell-flame-shield")
    assert t.keys() == ["3"]
    row = t.lookup(3)
    assert [c["cost"] for c in row.data["components"]] == [1, 1, 2]
    assert row.data["total_cost"] == 4 == BUDGET[3]
    assert row.data["ac_bonus"] == "1d4"
    dmg = only(row, Damage)
    assert (dmg.dice, dmg.type, dmg.target) == ("2d8", "fire", "attacker")


def save_of(row: Row) -> Save:
    return only(row, Save)


def test_F_TAB_18_mishap() -> None:
    """F-TAB-18, F-SPELL-10 (AMB-20, AMB-21, D-7): the d20 general mishap rows."""
    t = tables.get("mishap")
    assert t.roll == "d20"
    assert [(r.min, r.max) for r in t.rows] == [(1, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13),
                                                (14, 15), (16, 17), (18, 19), (20, 20)]
    saves = {2: ("DEX", "PRONE", "until_stands"), 4: ("STR", "WEAK", "round"), 6: ("WIS", "FRIGHTENED", "round"),
             8: ("INT", "CANT_CAST_THIS_SPELL", "until_rest"), 12: ("CON", "STUNNED", "round"),
             14: ("CHA", "CANT_CAST", "until_rest")}
    for total, (ability, condition, unit) in saves.items():
        s = save_of(t.lookup(total))
        assert (s.ability, s.dc, s.target) == (ability, "ROOM_DC", "self")
        (fail,) = s.on_fail
        assert fail.name == condition and fail.duration.unit == unit
    no_save = t.lookup(11)
    assert kinds(no_save) == ["condition"]
    assert only(no_save, Condition).name == "CANT_TARGET_SAME"
    first = only(t.lookup(1), SpellEffect)
    assert (first.spell, first.sl) == ("random_known", "1d6")
    assert only(t.lookup(20), SpellEffect).target == "self"
    assert only(t.lookup(16), SpellEffect).target == "random_target"
    assert kinds(t.lookup(18)) == ["referee_prompt"]

    # scripted d20 rolls land on the right rows
    assert tables.roll("mishap", ScriptedDice([1])).row.min == 1
    assert tables.roll("mishap", ScriptedDice([3])).row.span == "2–3"
    landed = tables.roll("mishap", ScriptedDice([13]))
    assert save_of(landed.row).ability == "CON"
    assert tables.roll("mishap", ScriptedDice([17])).row.span == "16–17"
    assert tables.roll("mishap", ScriptedDice([19])).row.span == "18–19"
    assert tables.roll("mishap", ScriptedDice([20])).row.span == "20"


def test_F_TAB_19_mishap_fireball() -> None:
    """F-TAB-19, F-SPELL-11: Fireball d6 mishaps: smoke, prone, 1d6 + FRIGHTENED, flash, redirected, centred."""
    t = tables.get("mishap-fireball")
    assert t.roll == "d6" and len(t.rows) == 6
    assert kinds(t.lookup(1)) == ["nothing"]
    assert save_of(t.lookup(2)).ability == "DEX"
    three = t.lookup(3)
    assert only(three, Damage).dice == "1d6" and only(three, Damage).target == "self"
    assert save_of(three).ability == "WIS" and save_of(three).on_fail[0].name == "FRIGHTENED"
    flash = save_of(t.lookup(4))
    assert (flash.ability, flash.target, flash.on_fail[0].name) == ("CON", "all_near", "BLINDED")
    assert only(t.lookup(5), SpellEffect).target == "random_target"
    assert only(t.lookup(6), SpellEffect).target == "self"
    assert all(only(t.lookup(n), SpellEffect).sl == "1d6" for n in (5, 6))

    rolled = tables.roll("mishap-fireball", ScriptedDice([3]))
    assert rolled.row.min == 3 and save_of(rolled.row).ability == "WIS"
    assert tables.roll("mishap-fireball", ScriptedDice([6])).row.min == 6


def test_F_TAB_20_mishap_polymorph() -> None:
    """F-TAB-20, F-SPELL-11: Polymorph d6 mishaps: scales, no casting, no objects, other target, summon, chicken."""
    t = tables.get("mishap-polymorph")
    assert t.roll == "d6" and len(t.rows) == 6
    assert kinds(t.lookup(1)) == ["nothing"]
    two = only(t.lookup(2), Condition)
    assert two.name == "CANT_CAST" and two.duration is not None and two.duration.unit == "next_turn"
    assert only(t.lookup(3), Condition).name == "CANT_USE_OBJECTS"
    four = only(t.lookup(4), SpellEffect)
    assert (four.target, four.sl) == ("random_creature", "1d6")
    assert only(t.lookup(5), SpellEffect).sl == "1d6" and only(t.lookup(5), Summon).count == "1"
    assert only(t.lookup(6), Condition).name == "POLYMORPHED"

    assert tables.roll("mishap-polymorph", ScriptedDice([4])).row.min == 4
    assert tables.roll("mishap-polymorph", ScriptedDice([6])).row.text.startswith("The caster becomes a chicken")
