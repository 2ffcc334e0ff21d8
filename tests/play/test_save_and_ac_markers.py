"""Held markers read where the rules say they matter: D-9 (armor without proficiency makes STR and DEX SAVEs
HARD, +3 to the DC) in a fight's SAVE, and M-WPN-06 off balance (no DEX or shield bonus to AC) in an ATK."""

from __future__ import annotations

from furnace.dice import ScriptedDice
from furnace.play.apply import apply_all
from furnace.play.attacks import attack
from furnace.play.combatant import Combatant
from furnace.play.conditions import Held
from furnace.play.state import Encounter, Step
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset()


def fighter(cid: str, side: str, **kw: object) -> Combatant:
    base: dict[str, object] = dict(id=cid, name=cid.upper(), side=side, kind="pc", level=1, hp=10, hp_max=10,
                                   ac=14, attack_bonus=2, damage="1d6", zone="CLOSE",
                                   saves={"STR": 0, "DEX": 1, "CON": 0, "INT": 0, "WIS": 0, "CHA": 0})
    return Combatant(**{**base, **kw})  # type: ignore[arg-type]


def test_D_9_a_dex_save_is_hard_in_nonproficient_armor() -> None:
    """A DEX SAVE vs DC 12 with d20 12 + 1 = 13: saved; with MOD:dex_saves:HARD the DC is 15: failed."""
    save = parse_effect({"kind": "save", "ability": "DEX", "dc": "12", "on_fail": [{"kind": "damage", "dice": "3"}]})
    for held, hp in (((), 10), ((Held(name="MOD:dex_saves:HARD", source="non-proficient armor (D-9)",
                                      ending="encounter"),), 7)):
        step = Step(Encounter(room_dc=12, combatants=(fighter("a", "x", held=held), fighter("b", "y"))),
                    ScriptedDice([12]), RULES)
        apply_all(step, [save], actor="b", target="a")
        assert step.c("a").hp == hp


def test_M_WPN_06_off_balance_takes_the_dex_and_shield_bonus_off_ac() -> None:
    """AC 16 off balance by −4 (DEX +2, shield +2) is 12: an ATK of d20 10 + 2 = 12 hits, and misses AC 16."""
    off = Held(name="MOD:ac:BONUS", value=-4, source="off balance (M-WPN-06)", ending="round", until_round=2)
    for held, hp in (((), 10), ((off,), 6)):
        step = Step(Encounter(room_dc=12, combatants=(fighter("a", "x"), fighter("b", "y", ac=16, held=held))),
                    ScriptedDice([10, 4] if held else [10]), RULES)
        attack(step, "a", "b")
        assert step.c("b").hp == hp


def test_AMB_46_a_long_rest_gives_the_rages_back() -> None:
    from furnace.characters.character import Character
    from furnace.play.combatant import from_character
    from furnace.play.rest import long_rest

    scores = dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10)
    spent = Character(name="Brak", scores=scores, hp_max=10, hp=10, extensions={"fight": {"rages_used": 9}})
    rested, events = long_rest(spent, ScriptedDice([]), RULES)
    assert "rages_used" not in rested.extensions.get("fight", {})
    assert from_character(rested, "x", RULES).rages_left >= from_character(spent, "x", RULES).rages_left
    assert any("gives back 9 Rage" in e.what for e in events)
