"""Lay on Hands cures (F-CLR-06), extra Hit Dice (F-CLR-08) and the item builder (F-MAGIC-01…04)."""

from __future__ import annotations

import pytest

from furnace.characters.character import CharacterError
from furnace.dice import ScriptedDice
from furnace.errors import DataFileError
from furnace.magic.casting import extra_hit_dice, lay_on_hands_cure
from furnace.magic.items import build_item, propose_item
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import cleric, fighter

RULES = load_ruleset()
TEN = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 14, "CHA": 10}
ILSE: dict[str, object] = dict(name="Ilse", archetype="Bloodshaman", race="Half-orc", scores=TEN, hp_max=20)   # WIS 14
BO: dict[str, object] = dict(name="Bo", level=3, scores={**TEN, "CON": 14}, hp_max=20, hp=12, hit_dice=1,
                             saves=["STR", "CON"], injuries=["Broken bone: R. Leg"], conditions=["POISONED"])


def test_F_CLR_06_curing_a_condition_needs_the_referee() -> None:
    """F-CLR-06, CF-47: the referee approves; then a SPELLCHECK that works cures it and heals no HP."""
    _, same, events = lay_on_hands_cure(cleric(ILSE), fighter(BO), "broken bone", ScriptedDice([]), 12, RULES)
    assert same.injuries == ["Broken bone: R. Leg"] and events[0].kind == "cure_asked"
    assert events[0].audience == "referee" and events[0].data["condition"] == "broken bone"
    _, cured, events = lay_on_hands_cure(cleric(ILSE), fighter(BO), "broken bone", ScriptedDice([12]), 12, RULES,
                                         approved=True)   # 12 + WIS 1 + PROF 2 = 15 ≥ 12
    assert cured.injuries == [] and cured.hp == 12 and cured.conditions == ["POISONED"]
    _, failed, _ = lay_on_hands_cure(cleric(ILSE), fighter(BO), "poisoned", ScriptedDice([3]), 12, RULES, approved=True)
    assert failed.conditions == ["POISONED"]


def test_F_CLR_08_extra_hit_die_on_a_con_save_when_the_option_is_on() -> None:
    """F-CLR-08 (optional): off by default; on, a CON SAVE vs ROOM DC regains one Hit Die (pool at most 3)."""
    with pytest.raises(CharacterError, match="loh_extra_hd_recovery"):
        extra_hit_dice(fighter(BO), ScriptedDice([20]), 12, RULES)
    rules = RULES.with_options({"loh_extra_hd_recovery": True})
    after, _ = extra_hit_dice(fighter(BO), ScriptedDice([8]), 12, rules)     # 8 + CON 1 + PROF 2 = 11: fails
    assert after.hit_dice == 1
    after, _ = extra_hit_dice(fighter(BO), ScriptedDice([9]), 12, rules)     # 12: holds
    assert after.hit_dice == 2
    full, _ = extra_hit_dice(fighter(BO, hit_dice=3), ScriptedDice([9]), 12, rules)
    assert full.hit_dice == 3


@pytest.mark.parametrize(("tier", "dice"), [("common", 0), ("uncommon", 1), ("rare", 3), ("epic", 5)])
def test_F_MAGIC_01_item_builder_spends_exactly_the_tier(tier: str, dice: int) -> None:
    """F-MAGIC-01/02: the builder's entries spend exactly the tier's Magic Item Dice (0/1/3/5), d8 for melee."""
    item = build_item(propose_item("Frost Brand", "longsword", tier, "melee", RULES), RULES)
    assert item.budget == dice and sum(int(r.data.get("cost") or 0) for r in item.entries) == dice
    if dice:
        assert "d8" in item.entries[0].text


def test_F_MAGIC_04_a_cursed_item_and_an_edited_overspend() -> None:
    """F-MAGIC-04: a curse entry for the referee; an edit that overspends the tier is refused with the count."""
    data = propose_item("Gloom Ring", "ring", "uncommon", "effect", RULES, cursed=True)
    assert build_item(data, RULES).cursed
    data["rows"][1]["data"]["cost"] = 2
    with pytest.raises(DataFileError, match="overspends: its entries cost 2 dice"):
        build_item(data, RULES)
