"""Every fight option flipped, with scripted dice and the rule's numbers (ARCHITECTURE: an option nothing reads is
a bug). One test per option, named after it and the RULES.md ids it reads; each asserts what the value changes —
HP, AC, an ATK bonus, a zone, a table row, a die — under the default and under each other value.

Dice are scripted (`ScriptedDice` raises when asked for one die too many; `remaining == 0` proves no fewer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.events import Event
from furnace.houserules.middle_sea import fight as middle_sea_fight
from furnace.houserules.middle_sea.healing import rest_hour
from furnace.play import registry
from furnace.play.apply import apply_all
from furnace.play.attacks import ARMOR_HIT
from furnace.play.combatant import Combatant, armor_type
from furnace.play.crit import crit_level, crit_table
from furnace.play.encounter import Action, act, attack, run_round, start_turn
from furnace.play.fightfile import build, load_fight
from furnace.play.injuries import roll_injury, stabilise
from furnace.play.marks import marks
from furnace.play.state import Encounter, Step
from furnace.play.wear import wear
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character, encounter, from_spec, monster, pc, step

RULES = load_ruleset()
SCORES = {"STR": 12, "DEX": 12, "CON": 12, "INT": 12, "WIS": 12, "CHA": 12}
PC: dict[str, Any] = dict(weapon="arming sword", scores=SCORES)   # a level-1 Fighter, 10 HP, arming sword 1d8
DYING: dict[str, Any] = dict(status="dying", hp=-1, dying_turns=3)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def held_names(c: Combatant) -> set[str]:
    return {h.name for h in c.held}


# -- crits ---------------------------------------------------------------------------------------------------------
@pytest.fixture
def armor_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Middle Sea chapter's armor save as the CRIT_MODELS entry ARMOR_HIT (registered here if the chapter does
    not register it itself)."""
    if registry.CRIT_MODELS.find(ARMOR_HIT) is None:
        def hit(s: Step, actor: str, target: str) -> None:
            middle_sea_fight._armor_hit(s, target, "missile" if s.c(actor).ranged else "melee")
        monkeypatch.setitem(registry.CRIT_MODELS._entries, ARMOR_HIT, hit)


def test_CF_33_furnace_crits_damage_armor(armor_hit: None) -> None:
    """CF-33, M-ARM-01…03: a level-1 Fighter's natural 20 on a foe in chain mail (AC 15): maximum 1d8 = 8, crit die
    d6 face 2 → '+1d8 DAM' (face 3): HP 50 → 39. Off: AC stays 15 (3 dice). On: the chain mail saves vs crushing
    blow, d20 face 2 fails, and it loses a point of protection: AC 15 → 14 (4 dice)."""
    foe = monster(ac=15, armor_type="heavy", armor_key="chain-mail")
    s, dice = step(pc(PC), foe, faces=[20, 2, 3])
    attack(s, "a", "b")
    assert (s.c("b").hp, s.c("b").ac, dice.remaining) == (39, 15, 0) and "armor_save" not in kinds(s.events)
    s, dice = step(pc(PC), foe, faces=[20, 2, 3, 2], rules=RULES.with_options({"furnace_crits_damage_armor": True}))
    attack(s, "a", "b")
    assert (s.c("b").hp, s.c("b").ac, dice.remaining) == (39, 14, 0) and "armor_save" in kinds(s.events)


def test_AMB_23_crit_damage_max_dice_only() -> None:
    """AMB-23: a crit with 1d8+3: maximum 11 with the modifiers (default), 8 without (max_dice_only); the crit row
    (d6 face 2, '+1d8', face 3) adds 3 either way: HP 50 → 36 or 39."""
    s, dice = step(pc(PC, damage="1d8+3"), monster(), faces=[20, 2, 3])
    attack(s, "a", "b")
    assert s.c("b").hp == 36 and dice.remaining == 0
    s, dice = step(pc(PC, damage="1d8+3"), monster(), faces=[20, 2, 3],
                   rules=load_ruleset(overrides={"crit_damage": "max_dice_only"}))
    attack(s, "a", "b")
    assert s.c("b").hp == 39 and dice.remaining == 0


@pytest.mark.parametrize(("damage", "most"), [("1d8+1d6", 14), ("-1+1d8", 8), ("(1d8+2)", 8), ("2d6ro1+3", 12),
                                              ("1d8+1d6+2", 14), ("3+1d4-1", 4)])
def test_AMB_23_max_dice_only_reads_the_dice_of_any_damage_expression(damage: str, most: int) -> None:
    """AMB-23, max_dice_only: the maximum of the dice is read from the parsed damage expression (every dice group at
    its highest), not from the text before the first '+': 1d8+1d6 deals 14 (was 8), -1+1d8 and (1d8+2) deal 8 (were
    refused). The crit row (d6 face 2, '+1d8', face 3) adds 3: HP 50 → 50 − most − 3."""
    s, dice = step(pc(PC, damage=damage), monster(), faces=[20, 2, 3],
                   rules=load_ruleset(overrides={"crit_damage": "max_dice_only"}))
    attack(s, "a", "b")
    assert s.c("b").hp == 50 - most - 3 and dice.remaining == 0


def test_AMB_23_crit_extra_attack_chains() -> None:
    """AMB-23, F-TAB-31 row 6 'One more ATK': the extra ATK's natural 20 crits again by default (max 8, crit die face
    2: +1d8 face 3 → HP 50 − 8 − 8 − 3 = 31, two crit rolls); with crit_extra_attack_chains false it only hits,
    its 1d8 rolled (face 5): HP 50 − 8 − 5 = 37, one crit roll."""
    s, dice = step(pc(PC), monster(), faces=[20, 6, 20, 2, 3])
    act(s, "a", Action("attack", "b"))
    assert s.c("b").hp == 31 and kinds(s.events).count("crit") == 2 and dice.remaining == 0
    s, dice = step(pc(PC), monster(), faces=[20, 6, 20, 5],
                   rules=RULES.with_options({"crit_extra_attack_chains": False}))
    act(s, "a", Action("attack", "b"))
    assert s.c("b").hp == 37 and kinds(s.events).count("crit") == 1 and dice.remaining == 0


def test_AMB_26_monster_crit_level() -> None:
    """AMB-26: a 7-HD monster's crit die is read at level 7 (d20+4 on a class table) by default, at level 0 (d4)
    under monster_crit_level level_0."""
    ogre = monster(level=7)
    crits = {"monster_crits": True, "monster_crit_table": "F-TAB-31"}
    assert crit_level(ogre, RULES.with_options(crits)) == 7
    level_0 = RULES.with_options({**crits, "monster_crit_level": "level_0"})
    assert crit_level(ogre, level_0) == 0
    s, dice = step(pc(PC, hp=30, hp_max=30), ogre, faces=[20, 3, 4], rules=level_0)   # d4 face 3: +1d8 (4), CANT_MOVE
    attack(s, "b", "a")
    crit = next(e for e in s.events if e.kind == "crit")
    assert crit.rolls[0].expression == "d4" and crit.data["row"] == "3"
    assert s.c("a").hp == 30 - 6 - 4 and dice.remaining == 0


def test_AMB_24_crit_tables_of_magic_users_and_level_0() -> None:
    """AMB-24: Magic-users and level-0 characters roll F-TAB-34 by default; each option names another table, here
    the Cleric's (F-TAB-32), for its own characters only."""
    mage, peasant = pc(PC, char_class="Magic-user", level=5), pc(PC, char_class=None, level=0)
    assert crit_table(mage, RULES) == crit_table(peasant, RULES) == "F-TAB-34"
    mages = RULES.with_options({"magic_user_crit_table": "F-TAB-32"})
    assert (crit_table(mage, mages), crit_table(peasant, mages)) == ("F-TAB-32", "F-TAB-34")
    funnel = RULES.with_options({"level0_crit_table": "F-TAB-32"})
    assert (crit_table(mage, funnel), crit_table(peasant, funnel)) == ("F-TAB-34", "F-TAB-32")


def test_AMB_24_magic_user_crit_table_in_play() -> None:
    """AMB-24: a level-5 Magic-user's natural 20 rolls its crit die (d20) on the table in force: face 3 is F-TAB-34
    row 2–3 by default, F-TAB-32 row 3 under magic_user_crit_table F-TAB-32."""
    mage = pc(PC, char_class="Magic-user", level=5, damage="1d4")
    s, _ = step(mage, monster(), faces=[20, 3, 1, 1, 1, 1])
    attack(s, "a", "b")
    assert next(e for e in s.events if e.kind == "crit").data["table"] == "F-TAB-34"
    s, _ = step(mage, monster(), faces=[20, 3, 1, 1, 1, 1],
                rules=RULES.with_options({"magic_user_crit_table": "F-TAB-32"}))
    attack(s, "a", "b")
    assert next(e for e in s.events if e.kind == "crit").data["table"] == "F-TAB-32"


# -- fumbles ----------------------------------------------------------------------------------------------------------
def test_CF_34_fumble_damage_notches() -> None:
    """CF-34, F-TAB-36 row 4 ('the weapon takes damage', d4 face 4 without armor): by default the referee says what
    it means (ATK +3, DAM 1d8); with fumble_damage_notches a notch: ATK +2, DAM 1d8-1 (M-WPN-02)."""
    s, dice = step(pc(PC), monster(), faces=[1, 4])
    attack(s, "a", "b")
    assert (s.c("a").attack_bonus, s.c("a").damage, wear(s.c("a")).weapon_notches) == (3, "1d8", 0)
    assert "referee" in kinds(s.events) and dice.remaining == 0
    s, dice = step(pc(PC), monster(), faces=[1, 4], rules=RULES.with_options({"fumble_damage_notches": True}))
    attack(s, "a", "b")
    assert (s.c("a").attack_bonus, s.c("a").damage, wear(s.c("a")).weapon_notches) == (2, "1d8-1", 1)
    assert dice.remaining == 0


def test_AMB_27_shield_only_fumble_armor() -> None:
    """AMB-27, F-TAB-35: a character with a shield and no armor fumbles on the no-armor d4 by default, on the light
    armor d8 under shield_only_fumble_armor light (face 6: row 6, the weapon tangled)."""
    shieldbearer = Character(name="Sela", char_class="Fighter", level=1, scores=SCORES, hp_max=10, hp=10, shield=True)
    light = RULES.with_options({"shield_only_fumble_armor": "light"})
    assert armor_type(shieldbearer, RULES) == "none" and armor_type(shieldbearer, light) == "light"
    for rules, faces, die, row in ((RULES, [1, 3], "d4", "3"), (light, [1, 6], "d8", "6")):
        s, dice = step(pc(PC, armor_type=armor_type(shieldbearer, rules)), monster(), faces=faces, rules=rules)
        attack(s, "a", "b")
        rolled = next(e for e in s.events if e.data.get("table") == "F-TAB-36")
        assert (rolled.rolls[0].expression, rolled.data["row"], dice.remaining) == (die, row, 0)


# -- monsters and defense ---------------------------------------------------------------------------------------------
def test_D_2_monster_attack_bonus_and_monster_save_bonus() -> None:
    """D-2, AMB-07, AMB-25: at ROOM DC 15 an orc attacks and saves at +5 by default; `zero` makes either +0; a
    monster's own bonus stands under both."""
    orc = {"name": "Orc", "hp": 5}

    default = from_spec(orc, "orc", side="m", room_dc=15, rules=RULES)
    assert (default.attack_bonus, default.saves["CON"]) == (5, 5)
    zero_atk = from_spec(orc, "orc", side="m", room_dc=15, rules=RULES.with_options({"monster_attack_bonus": "zero"}))
    assert (zero_atk.attack_bonus, zero_atk.saves["CON"]) == (0, 5)
    zero_save = from_spec(orc, "orc", side="m", room_dc=15, rules=RULES.with_options({"monster_save_bonus": "zero"}))
    assert (zero_save.attack_bonus, zero_save.saves["CON"]) == (5, 0)
    own = from_spec({**orc, "attack_bonus": 3, "save_bonus": 1}, "orc", side="m", room_dc=15,
                    rules=RULES.with_options({"monster_attack_bonus": "zero"}))
    assert (own.attack_bonus, own.saves["CON"]) == (3, 1)


def test_AMB_07_player_facing_defense() -> None:
    """AMB-07: by default the monster rolls d20+2 (face 12: 14) against AC 15 and misses. Under
    player_facing_defense the PC rolls d20 + (15 − 10) against ROOM DC 12: face 6 gives 11, she fails and takes
    1d6 (face 3): HP 10 → 7; face 9 gives 14 and she is not hit."""
    s, dice = step(monster(), pc(PC, ac=15), faces=[12])
    attack(s, "b", "a")
    assert s.c("a").hp == 10 and "miss" in kinds(s.events) and dice.remaining == 0
    facing = RULES.with_options({"player_facing_defense": True})
    s, dice = step(monster(), pc(PC, ac=15), faces=[6, 3], rules=facing)
    attack(s, "b", "a")
    assert s.c("a").hp == 7 and dice.remaining == 0
    assert s.events[0].rolls[0].expression == "d20+5" and s.events[0].rolls[0].total == 11
    s, dice = step(monster(), pc(PC, ac=15), faces=[9], rules=facing)
    attack(s, "b", "a")
    assert s.c("a").hp == 10 and dice.remaining == 0


# -- initiative -------------------------------------------------------------------------------------------------------
def _fight_file(tmp_path: Path, initiative: str | None) -> Path:
    (tmp_path / "ash.json").write_text(character(name="Ash", scores=SCORES, hp_max=4).to_json(), "utf-8")
    line = f"initiative: {initiative}\n" if initiative else ""
    path = tmp_path / "fight.yaml"
    path.write_text(f"room_dc: 12\n{line}party: [{{file: ash.json}}]\nmonsters: [{{name: Rat, hp: 2}}]\n", "utf-8")
    return path


def test_CF_53_initiative_model_is_the_default_of_a_fight_file(tmp_path: Path) -> None:
    """CF-53: a fight file that sets no initiative takes the option initiative_model (group by default,
    simultaneous when set); a file that names one keeps it under either."""
    simultaneous = RULES.with_options({"initiative_model": "simultaneous"})
    bare = load_fight(_fight_file(tmp_path, None))
    assert build(bare, tmp_path, ScriptedDice([]), RULES).initiative == "group"
    assert build(bare, tmp_path, ScriptedDice([]), simultaneous).initiative == "simultaneous"
    named = load_fight(_fight_file(tmp_path, "group"))
    assert build(named, tmp_path, ScriptedDice([]), simultaneous).initiative == "group"


def test_AMB_48_reroll_initiative_each_turn() -> None:
    """AMB-48: round 1 rolls a d6 per side (5, 2: a first); by default round 2 keeps the order and rolls no d6 (both
    miss: 2 dice); with reroll_initiative_each_turn it rolls again (3, 4: b first), then both miss (4 dice)."""
    start = Encounter(room_dc=12, combatants=(pc(PC), monster()))
    enc, _ = run_round(start, ScriptedDice([5, 2, 2, 2]), RULES)
    dice = ScriptedDice([2, 2])
    after, _ = run_round(enc, dice, RULES)
    assert after.phases == (("a",), ("b",)) and dice.remaining == 0
    rules = RULES.with_options({"reroll_initiative_each_turn": True})
    enc, _ = run_round(start, ScriptedDice([5, 2, 2, 2]), rules)
    dice = ScriptedDice([3, 4, 2, 2])
    after, _ = run_round(enc, dice, rules)
    assert after.phases == (("b",), ("a",)) and dice.remaining == 0


def test_AMB_49_simultaneous_attack_ties() -> None:
    """AMB-49, F-INIT-02: A kills B with ATK total 15 (d20+5 face 10, 1d6 face 6 on 3 HP); B's total is 15 too
    (d20+0 face 15). By default an equal total still lands (1d6 face 3: A 10 → 7); under cancel it is lost (A 10)."""
    duel = encounter(pc(PC, attack_bonus=5, damage="1d6"), monster(hp=3, hp_max=3, attack_bonus=0), round=0,
                     initiative="simultaneous")
    enc, events = run_round(duel, ScriptedDice([10, 6, 15, 3]), RULES)
    assert enc.get("a").hp == 7 and "lost" not in kinds(events)
    dice = ScriptedDice([10, 6, 15, 3])
    enc, events = run_round(duel, dice, RULES.with_options({"simultaneous_attack_ties": "cancel"}))
    assert enc.get("a").hp == 10 and "lost" in kinds(events) and dice.remaining == 0


# -- moving ----------------------------------------------------------------------------------------------------------
def test_AMB_60_opportunity_attacks_and_free_disengage() -> None:
    """AMB-60, REF-16: going RANGED from CLOSE costs nothing by default (no die); under opportunity_attacks the foe
    CLOSE strikes first (d20+2 face 15 hits AC 12, 1d6 face 4: HP 10 → 6); free_disengage lets her go freely."""
    s, dice = step(pc(PC), monster(), faces=[])
    act(s, "a", Action("go_ranged"))
    assert (s.c("a").zone, s.c("a").hp) == ("RANGED", 10)
    s, dice = step(pc(PC), monster(), faces=[15, 4], rules=RULES.with_options({"opportunity_attacks": True}))
    act(s, "a", Action("go_ranged"))
    assert (s.c("a").zone, s.c("a").hp, dice.remaining) == ("RANGED", 6, 0)
    s, dice = step(pc(PC), monster(), faces=[],
                   rules=RULES.with_options({"opportunity_attacks": True, "free_disengage": True}))
    act(s, "a", Action("go_ranged"))
    assert (s.c("a").zone, s.c("a").hp) == ("RANGED", 10)


def test_AMB_01_cleave_overflow() -> None:
    """AMB-01, F-FTR-03: 1d6+6 (face 6) = 12 kills a 5-HP foe. excess: 7 carries to C (20 → 13), no roll.
    new_attack: a new ATK at C instead — face 15 (18) hits for 1d6+6 face 3 = 9 (C 20 → 11); face 5 (8) misses."""
    foes = (monster("b", hp=5, hp_max=5), monster("c", hp=20, hp_max=20))
    s, dice = step(pc(PC, damage="1d6+6", features=("Cleave",)), *foes, faces=[15, 6])
    attack(s, "a", "b")
    assert s.c("c").hp == 13 and dice.remaining == 0
    new_attack = RULES.with_options({"cleave_overflow": "new_attack"})
    s, dice = step(pc(PC, damage="1d6+6", features=("Cleave",)), *foes, faces=[15, 6, 15, 3], rules=new_attack)
    attack(s, "a", "b")
    assert s.c("c").hp == 11 and dice.remaining == 0
    s, dice = step(pc(PC, damage="1d6+6", features=("Cleave",)), *foes, faces=[15, 6, 5], rules=new_attack)
    attack(s, "a", "b")
    assert s.c("c").hp == 20 and dice.remaining == 0


# -- dying and injuries ------------------------------------------------------------------------------------------------
def test_AMB_28_stabilize_methods() -> None:
    """AMB-28: a Medicine CHECK (d20+0 face 15 vs ROOM DC 12) stabilises by default, then the injury roll (face
    17: every CHECK HARD until rest). Under healing_only and referee_only the CHECK cannot (no die, still dying);
    the referee's word stabilises under both; under healing_only magical healing (2 HP) gets her up."""
    s, dice = step(pc(PC), pc("d", PC, DYING), faces=[15, 17])
    stabilise(s, "a", "d")
    assert s.c("d").status == "stable" and dice.remaining == 0
    for rules in (RULES.with_options({"stabilize_methods": "healing_only"}),
                  RULES.with_options({"stabilize_methods": "referee_only"})):
        s, dice = step(pc(PC), pc("d", PC, DYING), faces=[], rules=rules)
        stabilise(s, "a", "d")
        assert s.c("d").status == "dying"
        s, dice = step(pc(PC), pc("d", PC, DYING), faces=[17], rules=rules)
        stabilise(s, "a", "d", referee=True)
        assert s.c("d").status == "stable" and dice.remaining == 0
    s, _ = step(pc(PC), pc("d", PC, DYING), faces=[], rules=RULES.with_options({"stabilize_methods": "healing_only"}))
    apply_all(s, [parse_effect({"kind": "heal", "dice": "2", "target": "target"})], actor="a", target="d")
    assert (s.c("d").status, s.c("d").hp) == ("up", 2)


def test_AMB_31_dying_nat20_injury_roll() -> None:
    """AMB-31: a dying character's natural 20 gets her up with 1 HP and no injury by default; with
    dying_nat20_injury_roll she also rolls the injury table (face 17: every CHECK HARD until rest)."""
    s, dice = step(pc("d", PC, DYING), monster(), faces=[20])
    start_turn(s, "d")
    assert (s.c("d").hp, s.c("d").injuries, dice.remaining) == (1, (), 0)
    s, dice = step(pc("d", PC, DYING), monster(), faces=[20, 17],
                   rules=RULES.with_options({"dying_nat20_injury_roll": True}))
    start_turn(s, "d")
    assert s.c("d").hp == 1 and s.c("d").injuries == ("Every CHECK is HARD until the next rest.",)
    assert "MOD:checks:HARD" in held_names(s.c("d")) and dice.remaining == 0


def test_CF_13_lingering_injury_table() -> None:
    """CF-13: injury row 8–13 (face 8) rolls the Lingering Injuries table in force: F-TAB-38 face 18 is a minor
    scar by default; under lingering_injury_table F-TAB-18 face 18 is that table's row 18–19."""
    s, dice = step(pc(PC), faces=[8, 18])
    roll_injury(s, "a")
    assert s.c("a").injuries[-1] == "Minor scar: no effect." and dice.remaining == 0
    s, dice = step(pc(PC), faces=[8, 18], rules=RULES.with_options({"lingering_injury_table": "F-TAB-18"}))
    roll_injury(s, "a")
    assert s.c("a").injuries[-1] == RULES.tables.get("F-TAB-18").lookup(18).text and dice.remaining == 0


def test_AMB_32_injury_ability_loss() -> None:
    """AMB-32, CF-48: injury row 2 (STR −1d6, face 3): STR 12 → 9 either way; permanent by default (nothing to get
    back), temporary under injury_ability_loss (3 points remembered for rest, H-HEAL-06)."""
    s, dice = step(pc(PC), faces=[2, 3])
    roll_injury(s, "a")
    assert (s.c("a").scores["STR"], marks(s.c("a")).temporary_loss) == (9, {})
    s, dice = step(pc(PC), faces=[2, 3], rules=RULES.with_options({"injury_ability_loss": "temporary"}))
    roll_injury(s, "a")
    assert (s.c("a").scores["STR"], marks(s.c("a")).temporary_loss) == (9, {"STR": 3})
    assert next(e for e in s.events if e.kind == "ability").data["loss"] == "temporary" and dice.remaining == 0


# -- gear and Rage -------------------------------------------------------------------------------------------------
def test_AMB_36_shield_sunder_damage() -> None:
    """AMB-36, F-EQ-03: a blow of 7 would drop a 5-HP PC; she sunders her shield and takes ceil(7/2) = 4 (HP 1) by
    default, floor(7/2) = 3 (HP 2) under bearer_floor; the shield is gone and AC 14 → 12 either way."""
    for rules, hp in ((RULES, 1), (RULES.with_options({"shield_sunder_damage": "bearer_floor"}), 2)):
        s, dice = step(pc(PC, hp=5, hp_max=5, ac=14, shield=True), monster(damage="1d8"), faces=[15, 7], rules=rules)
        attack(s, "b", "a")
        assert (s.c("a").hp, s.c("a").shield, s.c("a").ac, dice.remaining) == (hp, False, 12, 0)


def test_AMB_46_rage_uses_per_long_rest() -> None:
    """AMB-46, F-ARCH-02: a Barbarian rages at her first ATK (AC 14 → 12, DAM 1d8+2: face 5 → 7, B 50 → 43) while
    she has a Rage left: one per long rest by default; none under rage_uses_per_long_rest 0 (AC 14, DAM 5: B 45);
    a character who spent hers (rages_left 0) does not rage; two per long rest leave her one after this one."""
    s, dice = step(pc(PC, ac=14, features=("rage",)), monster(), faces=[15, 5])
    act(s, "a", Action("attack", "b"))
    assert (s.c("a").ac, s.c("b").hp, s.c("a").rages_left, marks(s.c("a")).rages_spent) == (12, 43, 0, 1)
    s, dice = step(pc(PC, ac=14, features=("rage",)), monster(), faces=[15, 5],
                   rules=RULES.with_options({"rage_uses_per_long_rest": 0}))
    act(s, "a", Action("attack", "b"))
    assert (s.c("a").ac, s.c("b").hp, marks(s.c("a")).rages_spent) == (14, 45, 0) and "rage" not in kinds(s.events)
    s, dice = step(pc(PC, ac=14, features=("rage",), rages_left=0), monster(), faces=[15, 5])
    act(s, "a", Action("attack", "b"))
    assert (s.c("a").ac, s.c("b").hp) == (14, 45)
    s, dice = step(pc(PC, ac=14, features=("rage",)), monster(), faces=[15, 5],
                   rules=RULES.with_options({"rage_uses_per_long_rest": 2}))
    act(s, "a", Action("attack", "b"))
    assert (s.c("a").ac, s.c("a").rages_left, dice.remaining) == (12, 1, 0)


# -- luck and rest ---------------------------------------------------------------------------------------------------
def test_AMB_02_luck_spend_timing() -> None:
    """AMB-02, F-LUCK-03: ATK 9 + 3 = 12 misses AC 15 by 3. after_roll (default): seeing it, she spends her Luck
    Die (d6 face 4: 16 hits, 1d8 face 2: B 50 → 48). before_roll: a spend is declared before the roll, so none
    is made after it: the miss stands, B 50, the die kept."""
    s, dice = step(pc(PC, luck_dice=1), monster(ac=15), faces=[9, 4, 2])
    attack(s, "a", "b")
    assert (s.c("b").hp, s.enc.get("a").luck_dice, dice.remaining) == (48, 0, 0)
    s, dice = step(pc(PC, luck_dice=1), monster(ac=15), faces=[9],
                   rules=RULES.with_options({"luck_spend_timing": "before_roll"}))
    attack(s, "a", "b")
    assert (s.c("b").hp, s.enc.get("a").luck_dice, dice.remaining) == (50, 1, 0)


def test_D_7_until_rest_ends_at() -> None:
    """D-7, AMB-14: an hour's rest (Middle Sea, at or above half HP: no die) ends the 'until rest' lines under
    any_rest (default); under until_rest_ends_at long_rest they stay."""
    hurt = Character(name="Ivo", scores=SCORES, hp_max=8, hp=6, until_rest=["MOD:checks:HARD: checks HARD"])
    after, _ = rest_hour(hurt, ScriptedDice([]), RULES)
    assert after.until_rest == []
    after, _ = rest_hour(hurt, ScriptedDice([]), RULES.with_options({"until_rest_ends_at": "long_rest"}))
    assert after.until_rest == ["MOD:checks:HARD: checks HARD"]
