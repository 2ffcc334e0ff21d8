"""The profiles end to end: one fight file under furnace, hazards and middle-sea follows each profile's
death, crit and fumble model (CF-30, CF-31, CF-33, CF-34), and a referee's profile mixes them rule by rule."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

from furnace.dice import ScriptedDice
from furnace.play.encounter import attack, run_fight
from furnace.play.state import Step
from furnace.render.story import View, tell_referee
from furnace.render.story import log as log_text
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, example_fight, monster, pc

ALDO: dict[str, Any] = dict(name="Aldo", side="party", level=5, prof=3, hp=30, hp_max=30, ac=15, attack_bonus=5,
                           damage="1d8+2", weapon="arming sword", dex_score=12)   # a level-5 Fighter, AC 15
TAM: dict[str, Any] = dict(name="Tam", side="foes", level=0, hp=40, hp_max=40, saves={})   # 40 HP, AC 12, ATK +2


def fight_log(profile: str, seed: int = 1) -> str:
    rules = load_ruleset(profile)
    rng = random.Random(seed)
    enc = example_fight("funnel-vs-goblins", rng, rules)
    _, events = run_fight(enc, rng, rules)
    return log_text(events, View(explain=True))


def test_F_DEATH_02_H_DMG_03_M_GRIEV_01_one_fight_three_death_models() -> None:
    """CF-30/CF-31: the same fight file and seed: Furnace dies at −(3 + LVL + CON), Hazards at −3 (unconscious
    at 0), Middle Sea stops HP at 0 and rolls the grievous injury table."""
    furnace, hazards, middle_sea = fight_log("furnace"), fight_log("hazards"), fight_log("middle-sea")
    assert "at or below −(3 + LVL" in furnace and "dying timer: 1d4" in furnace
    assert "dead at −3 (H-DMG-03)" in hazards and "wakes after d6 hours (H-DMG-02)" in hazards
    assert "grievous injury" in middle_sea and "3d6+EXCESS" in middle_sea
    assert "−(3 + LVL" not in hazards + middle_sea and "grievous" not in furnace + hazards


def test_M_MOOK_01_middle_sea_monsters_are_out_of_the_fight_at_0() -> None:
    """M-MOOK-01, CF-50: under middle-sea most NPCs are out of the fight at 0 HP, not killed."""
    assert "is out of the fight" in fight_log("middle-sea")
    assert "is out of the fight" not in fight_log("furnace")


def test_M_CRIT_01_CF_33_middle_sea_crit_on_the_unarmored_is_maximum_damage_only() -> None:
    """M-CRIT-01: a natural 20 against an unarmored target: maximum weapon damage (1d8+2 → 10), no crit table."""
    rules = load_ruleset("middle-sea")
    step = Step(encounter(pc("a", ALDO), monster("t", TAM), round=0), ScriptedDice([20]), rules)
    attack(step, "a", "t")
    assert step.c("t").hp == 30
    assert not any(e.kind == "crit" and e.data["name"] == "crit-fighter" for e in step.events)


def test_F_CRIT_01_CF_33_furnace_crit_rolls_the_class_table() -> None:
    """F-CRIT-01: under furnace the same natural 20 deals the maximum and rolls crit-fighter with d20 (level 5)."""
    step = Step(encounter(pc("a", ALDO), monster("t", TAM), round=0), ScriptedDice([20, 2, 3]),
                load_ruleset())   # crit die 2 → +1d8: 3
    attack(step, "a", "t")
    assert any(e.kind == "crit" and e.data["name"] == "crit-fighter" for e in step.events)
    assert step.c("t").hp == 40 - 10 - 3


def test_M_ARM_01_M_ARM_03_D_1_middle_sea_crit_on_a_shield_damages_it() -> None:
    """M-ARM-01, D-1: a natural 20 against a target with a shield: the shield takes the blow; a failed item
    save vs crushing blow destroys it (AC −2)."""
    rules = load_ruleset("middle-sea")
    leather = monster("t", TAM, armor_type="light", armor_key="boiled-leather", shield=True, ac=14)
    step = Step(encounter(pc("a", ALDO), leather, round=0),
                ScriptedDice([20, 5, 1]), rules)   # natural 20, damage 5, the shield's save 1
    attack(step, "a", "t")
    t = step.c("t")
    assert t.shield is False and t.ac == 12 and t.hp == 40 - 7
    assert any(e.kind == "armor_save" and "shield is destroyed" in tell_referee(e) for e in step.events)


def test_M_WPN_01_M_WPN_02_CF_34_middle_sea_fumble_damages_the_weapon() -> None:
    """M-WPN-01/02: a natural 1 with a sharp weapon: an item save vs crushing blow or a notch (−1 to hit and
    damage); under furnace the same natural 1 rolls the fumble table instead."""
    rules = load_ruleset("middle-sea")
    step = Step(encounter(pc("a", ALDO, weapon_class="sharp"), monster("t", TAM), round=0), ScriptedDice([1, 2]),
                rules)   # natural 1, the save 2
    attack(step, "a", "t")
    a = step.c("a")
    assert a.attack_bonus == 4 and a.damage == "1d8+2-1"
    furnace = Step(encounter(pc("a", ALDO, armor_type="none"), monster("t", TAM), round=0), ScriptedDice([1, 1]),
                   load_ruleset())
    attack(furnace, "a", "t")
    assert any(e.kind == "fumble" and "F-TAB-36" in str(e.data.get("table")) for e in furnace.events)


def test_M_GRIEV_03_M_GRIEV_04_knocked_down_and_helmet() -> None:
    """M-GRIEV-03: 7–9 knocked down; M-GRIEV-04: 10–11 stunned 1 round, with a helmet knocked down instead."""
    rules = load_ruleset("middle-sea")
    target = {"kind": "pc", "hp": 3, "hp_max": 10}
    step = Step(encounter(pc("a", ALDO), monster("t", TAM, target), round=0), ScriptedDice([15, 4, 1, 2, 2]),
                rules)   # hit, 4+2 = 6 damage: excess 3; 3d6 = 5
    attack(step, "a", "t")
    assert any("grievous injury 8" in tell_referee(e) for e in step.events)
    assert any(h.name == "KNOCKED_DOWN" or h.name == "PRONE" for h in step.c("t").held)
    helmeted = Step(encounter(pc("a", ALDO), monster("t", TAM, target, helmet=True), round=0),
                    ScriptedDice([15, 4, 3, 3, 2]), rules)   # 3d6 = 8 + 3 = 11
    attack(helmeted, "a", "t")
    assert any("grievous injury 11" in tell_referee(e) and "helmet" in tell_referee(e) for e in helmeted.events)
    assert not any(h.name == "STUNNED" for h in helmeted.c("t").held)


def test_CF_30_a_referee_profile_mixes_rule_by_rule(tmp_path: Path) -> None:
    """A referee's profile extends furnace and takes only the Middle Sea death model: crits stay Furnace's."""
    path = tmp_path / "mixed.yaml"
    path.write_text(yaml.safe_dump({"name": "mixed", "extends": "furnace", "options": {"death_model": "middle-sea"}}))
    rules = load_ruleset(str(path))
    assert rules["death_model"] == "middle-sea" and rules["crit_model"] == "furnace"
    log = fight_log(str(path))
    assert "grievous injury" in log and "−(3 + LVL" not in log
