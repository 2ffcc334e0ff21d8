"""Characters and scripted grievous rolls for the Middle Sea tests (`tests/houserules/test_middle_sea_*.py`)."""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.houserules import middle_sea as ms
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset("middle-sea")
SCORES = {"STR": 14, "DEX": 12, "CON": 14, "INT": 10, "WIS": 10, "CHA": 10}   # CON +1


def hero(**kw: Any) -> Character:
    """A level-5 Fighter (d10, PROF 3) proficient in CON saves: a helmet save is d20 + 4."""
    spec: dict[str, Any] = dict(name="Hero", char_class="Fighter", level=5, scores=dict(SCORES), hp_max=40, hp=10,
                                saves=["STR", "CON"])
    return Character(**{**spec, **kw})


def roll_total(total: int, after: list[int], **kw: Any) -> tuple[ms.Grievous, ScriptedDice]:
    """3d6 = [1, 1, 1] + an excess of total - 3, then the faces `after`."""
    dice = ScriptedDice([1, 1, 1, *after])
    return ms.grievous(kw.pop("character", hero()), total - 3, dice, kw.pop("rules", RULES), **kw), dice


def fighter(**kw: Any) -> Character:
    """A level-5 Fighter: d10 hit die, 40 HP maximum, half is 20."""
    return Character(**{"name": "Hero", "char_class": "Fighter", "level": 5, "scores": dict(SCORES), "hp_max": 40,
                        "hp": 10, **kw})
