"""M-MOOK-02 under the middle-sea profile: a Fighter attacks once per level against creatures under 1 HD
(option mook_extra_attacks; EXT-21), and only against them."""

from __future__ import annotations

from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.errors import FurnaceError
from furnace.play.combatant import monster_hd
from furnace.play.encounter import Action, take_turn
from furnace.play.state import Encounter
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import monster, pc
from tests.helpers.story import said

SEA = load_ruleset("middle-sea")
FEN: dict[str, Any] = dict(name="Fen", side="party", hp=20, hp_max=20, ac=14)   # a Fighter of 20 HP, AC 14, ATK +3
GOBLIN: dict[str, Any] = dict(side="goblins", hp=3, hp_max=3, attack_bonus=1, saves={})   # 3 HP, ATK +1


def attacks(events: list[Any]) -> list[str]:
    return [said(e) for e in events if e.kind in ("hit", "miss")]


def test_M_MOOK_02_a_level_3_fighter_attacks_three_times_against_goblins_under_1_HD() -> None:
    """Three goblins of HD 1-1 and 3 HP: ATK 15, 15, 15 (d20 12 + 3 vs AC 12) each kill one with 1d8 = 5."""
    goblins = (monster(g, GOBLIN, name=g, hd=0.9) for g in ("g1", "g2", "g3"))
    enc = Encounter(room_dc=12, combatants=(pc("f", FEN, level=3), *goblins))
    dice = ScriptedDice([12, 5, 12, 5, 12, 5])
    after, events = take_turn(enc, "f", Action("attack", "g1"), dice, SEA)
    assert dice.remaining == 0 and len(attacks(events)) == 3
    assert [after.get(g).status for g in ("g1", "g2", "g3")] == ["out", "out", "out"]


def test_M_MOOK_02_one_attack_against_a_creature_of_1_HD_or_more() -> None:
    enc = Encounter(room_dc=12, combatants=(pc("f", FEN, level=3),
                                            monster("g1", GOBLIN, name="g1", hd=1.0, hp=20, hp_max=20)))
    dice = ScriptedDice([12, 5])
    after, events = take_turn(enc, "f", Action("attack", "g1"), dice, SEA)
    assert dice.remaining == 0 and len(attacks(events)) == 1 and after.get("g1").hp == 15


def test_M_MOOK_02_the_option_flipped_off_gives_one_attack() -> None:
    enc = Encounter(room_dc=12, combatants=(pc("f", FEN, level=3),
                                            monster("g1", GOBLIN, name="g1", hd=0.5, hp=20, hp_max=20)))
    off = SEA.with_options({"mook_extra_attacks": False})
    on_dice, off_dice = ScriptedDice([12, 5] * 3), ScriptedDice([12, 5])
    on, _ = take_turn(enc, "f", Action("attack", "g1"), on_dice, SEA)
    off_after, _ = take_turn(enc, "f", Action("attack", "g1"), off_dice, off)
    assert on.get("g1").hp == 20 - 15 and off_after.get("g1").hp == 20 - 5


def test_M_MOOK_02_not_for_other_classes() -> None:
    enc = Encounter(room_dc=12, combatants=(pc("f", FEN, level=3, char_class="Rogue"),
                                            monster("g1", GOBLIN, name="g1", hd=0.5, hp=20, hp_max=20)))
    dice = ScriptedDice([12, 5])
    after, _ = take_turn(enc, "f", Action("attack", "g1"), dice, SEA)
    assert dice.remaining == 0 and after.get("g1").hp == 15


@pytest.mark.parametrize(("written", "hd"), [(7, 7.0), ("1/2", 0.5), ("1-1", 0.9), (0.5, 0.5), ("2", 2.0)])
def test_M_MOOK_02_hit_dice_as_written(written: Any, hd: float) -> None:
    assert monster_hd(written) == pytest.approx(hd)


def test_monster_hit_dice_that_are_not_a_number_are_refused() -> None:
    with pytest.raises(FurnaceError, match="Hit Dice"):
        monster_hd("lots")
