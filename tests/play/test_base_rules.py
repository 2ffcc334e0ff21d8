"""F-BASE-05 zones, F-BASE-06 one action per turn, F-BASE-08 experience, F-EQ-07 prices, F-LOAD-01 bundles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.characters.character import Character, Weapon
from furnace.characters.equipment import load_used, over_load, price
from furnace.characters.xp import award, ledger, total
from furnace.dice import ScriptedDice
from furnace.errors import FurnaceError
from furnace.play.encounter import Action, take_turn
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, monster, pc

RULES = load_ruleset()
TEN = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
F: dict[str, Any] = dict(name="F", side="party", level=0, prof=0, char_class=None)   # a PC: 10 HP, AC 12, ATK +3, 1d8
G: dict[str, Any] = dict(name="G", side="goblins", level=0, hp=6, hp_max=6, ac=10, attack_bonus=0, saves={})  # a goblin


def test_F_BASE_05_a_melee_attacker_goes_near_and_attacks_in_one_turn() -> None:
    """F-BASE-05: NEAR is 'reach an enemy and attack it in the same turn': the move and the ATK are one action."""
    enc = encounter(pc("f", F, zone="NEAR"), monster("g", G, zone="NEAR"), room_dc=10, round=0)
    after, events = take_turn(enc, "f", Action("move_attack", "g"), ScriptedDice([15, 5]), RULES)
    assert after.get("f").zone == "CLOSE" and [e.kind for e in events][:2] == ["move", "hit"]


def test_F_BASE_05_a_ranged_weapon_attacks_from_ranged() -> None:
    """F-BASE-05: RANGED means a foe can only be reached, or attacked with a ranged weapon."""
    enc = encounter(pc("f", F, zone="RANGED", ranged=True), monster("g", G, zone="NEAR"), room_dc=10,
                    round=0)
    after, events = take_turn(enc, "f", Action("attack", "g"), ScriptedDice([15, 5]), RULES)
    assert after.get("f").zone == "RANGED" and events[0].kind == "hit"


def test_F_BASE_06_one_action_per_turn_in_a_round() -> None:
    """F-BASE-06: in a round each creature takes one action: one ATK each (no extra without a crit row)."""
    from furnace.play.encounter import run_round

    enc = encounter(pc("f", F, zone="CLOSE"), monster("g", G, zone="CLOSE"), room_dc=10, round=0)
    _, events = run_round(enc, ScriptedDice([6, 1, 2, 3, 2, 3]), RULES)   # initiative, then a miss each
    attacks = [e.who for e in events if e.kind in ("hit", "miss")]
    assert sorted(attacks) == ["F", "G"]


def test_F_BASE_08_xp_ledger() -> None:
    """F-BASE-08: the XP system is the referee's (DCC's is not in the documents): a ledger of awards."""
    c = Character(name="A", scores=TEN, hp_max=3, hp=3)
    c, event = award(c, 50, "the goblin cellar")
    c, _ = award(c, 25, "a clever plan")
    assert total(c) == 75 and [a["reason"] for a in ledger(c)] == ["the goblin cellar", "a clever plan"]
    assert event.data["after"] == 50                 # the ledger's total after the award
    with pytest.raises(FurnaceError):
        award(c, -100, "a mistake")


def test_F_EQ_07_prices_come_from_a_referee_table(tmp_path: Path) -> None:
    """F-EQ-07: no price list in the rules; a referee's 'prices' table supplies them."""
    with pytest.raises(FurnaceError, match="F-EQ-07"):
        price("rope", RULES)
    path = tmp_path / "prices.yaml"
    row = {"key": "rope", "text": "1 sp", "data": {"price": "1 sp"}}
    path.write_text(yaml.safe_dump({"id": "house:prices", "name": "prices", "title": "Prices", "source": "house",
                                    "kind": "keyed", "rows": [row]}))
    assert price("Rope", load_ruleset(table_files=[path])) == "1 sp"


def test_F_LOAD_01_bundles_count_as_one_load() -> None:
    """F-LOAD-01: load = 10 + STR; items count one each, 1000 coins and 5 torches one load."""
    c = Character(name="A", scores={**TEN, "STR": 16}, hp_max=3, hp=3, items=["rope", "rations", "torches"],
                  weapons=[Weapon(name="spear")], armor="boiled-leather")
    assert c.load == 12
    assert load_used(c, coins=1500, torches=6) == 2 + 1 + 1 + 2 + 2
    assert over_load(c) == 0                       # 4 loads of 12
    assert over_load(c, coins=10_000) == 2         # 4 + 10 bundles of coins = 14 of 12
