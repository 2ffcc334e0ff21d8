"""Held markers read where the rules say they matter: D-9 (armor without proficiency makes STR and DEX SAVEs
HARD, +3 to the DC) in a fight's SAVE, and M-WPN-06 off balance (no DEX or shield bonus to AC) in an ATK."""

from __future__ import annotations

from typing import Any

from furnace.dice import ScriptedDice
from furnace.play.apply import apply_all
from furnace.play.attacks import attack
from furnace.play.conditions import Held
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import pc, step
from tests.helpers.story import said

RULES = load_ruleset()
FIGHTER: dict[str, Any] = dict(prof=0, char_class=None, ac=14, attack_bonus=2, damage="1d6",
                              saves={"STR": 0, "DEX": 1, "CON": 0, "INT": 0, "WIS": 0, "CHA": 0})   # 10 HP, DEX SAVE +1


def test_D_9_a_dex_save_is_hard_in_nonproficient_armor() -> None:
    """A DEX SAVE vs DC 12 with d20 12 + 1 = 13: saved; with MOD:dex_saves:HARD the DC is 15: failed."""
    save = parse_effect({"kind": "save", "ability": "DEX", "dc": "12", "on_fail": [{"kind": "damage", "dice": "3"}]})
    for held, hp in (((), 10), ((Held(name="MOD:dex_saves:HARD", source="non-proficient armor (D-9)",
                                      ending="encounter"),), 7)):
        s, _ = step(pc("a", FIGHTER, side="x", held=held), pc("b", FIGHTER, side="y"), faces=[12], round=0)
        apply_all(s, [save], actor="b", target="a")
        assert s.c("a").hp == hp


def test_M_WPN_06_off_balance_takes_the_dex_and_shield_bonus_off_ac() -> None:
    """AC 16 off balance by −4 (DEX +2, shield +2) is 12: an ATK of d20 10 + 2 = 12 hits, and misses AC 16."""
    off = Held(name="MOD:ac:BONUS", value=-4, source="off balance (M-WPN-06)", ending="round", until_round=2)
    for held, hp in (((), 10), ((off,), 6)):
        s, _ = step(pc("a", FIGHTER, side="x"), pc("b", FIGHTER, side="y", ac=16, held=held),
                    faces=[10, 4] if held else [10], round=0)
        attack(s, "a", "b")
        assert s.c("b").hp == hp


def test_AMB_46_a_long_rest_gives_the_rages_back() -> None:
    from furnace.characters.character import Character
    from furnace.play.combatant import from_character
    from furnace.play.rest import long_rest

    scores = dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10)
    spent = Character(name="Brak", scores=scores, hp_max=10, hp=10, extensions={"fight": {"rages_used": 9}})
    rested, events = long_rest(spent, ScriptedDice([]), RULES)
    assert "rages_used" not in rested.extensions.get("fight", {})
    assert from_character(rested, "x", RULES).rages_left >= from_character(spent, "x", RULES).rages_left
    assert any("gives back 9 Rage" in said(e) for e in events)
