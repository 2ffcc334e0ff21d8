"""Luck Dice earned outside fights and carried across them (F-LUCK-01, F-LUCK-02, AMB-02): a failed SAVE the
clock rolls (a disease's) builds the player's streak like a failed roll in a fight; a streak reached in a fight
carries out of it onto the character and goes on after; under luck_owner player her other characters share it."""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character
from furnace.dice import ScriptedDice
from furnace.hazards import infect, packaged_disease
from furnace.play import luck
from furnace.play.aftermath import settle
from furnace.play.apply import apply_all
from furnace.play.clock import Campaign, advance
from furnace.play.combatant import from_character
from furnace.play.state import Encounter, Step
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import campaign, character
from tests.helpers.story import said

HAZARDS = load_ruleset("hazards")
SCORES = {"STR": 10, "DEX": 10, "CON": 10, "INT": 12, "WIS": 10, "CHA": 10}
GRF = packaged_disease("Green River Fever", HAZARDS)   # CON SAVE vs 12, −2 not resting (H-DIS-05)
FIRST_TWO_SAVES = 7 * 24 + 4                           # hours: the end of incubation, then one interval
KIM: dict[str, Any] = dict(name="Ada", scores=SCORES, hp_max=6, player="Kim")   # Kim's Ada, 6 HP


def two_saves(faces: list[int], *others: Character, rules: Ruleset = HAZARDS) -> Campaign:
    ada = character(KIM)
    camp = campaign(ada, *others)
    camp, _ = infect(camp, "Ada", GRF, rules)
    dice = ScriptedDice(faces)
    camp, _ = advance(camp, FIRST_TWO_SAVES, "hour", dice, rules)
    assert dice.remaining == 0
    return camp


def test_F_LUCK_01_AMB_02_two_failed_disease_saves_on_the_clock_earn_a_luck_die() -> None:
    """d20 2 and 3, each − 2 (not resting) < 12: two failed SAVEs in a row, the first Luck Die; streak 2."""
    ada = two_saves([2, 3]).characters["Ada"]
    assert (ada.luck_dice, luck.held_by(ada).streak) == (1, 2)


def test_F_LUCK_01_a_save_that_holds_ends_the_streak() -> None:
    """d20 2 fails, d20 19 − 2 = 17 holds: no die, the streak is back to 0."""
    ada = two_saves([2, 19]).characters["Ada"]
    assert (ada.luck_dice, luck.held_by(ada).streak, ada.extensions.get("luck")) == (0, 0, None)


def test_F_LUCK_01_the_players_other_character_shares_the_die_on_the_clock() -> None:
    """luck_owner player (default): Bo, Kim's other character, holds the same die; under luck_owner character
    he keeps his own (none)."""
    shared = two_saves([2, 3], character(KIM, name="Bo")).characters["Bo"]
    own = two_saves([2, 3], character(KIM, name="Bo"),
                    rules=HAZARDS.with_options({"luck_owner": "character"})).characters["Bo"]
    assert (shared.luck_dice, own.luck_dice) == (1, 0)


def test_F_LUCK_01_a_streak_begun_in_a_fight_carries_out_and_earns_the_die_on_the_clock() -> None:
    """One failed CON SAVE in the fight (d20 3 vs 12): streak 1, settled onto Ada; the first disease save after
    it (d20 2 − 2) is the second failure in a row: a Luck Die."""
    rules = HAZARDS
    ada = character(KIM)
    step = Step(Encounter(room_dc=12, combatants=(from_character(ada, "party", rules, id="p"),)),
                ScriptedDice([3]), rules)
    apply_all(step, [parse_effect({"kind": "save", "ability": "CON", "dc": "12", "target": "self"})],
              actor="p", target="p")
    after, events = settle(ada, step.enc.get("p"), rules)
    assert (after.luck_dice, luck.held_by(after).streak) == (0, 1)
    assert any("failed rolls in a row: 0 → 1" in said(e) for e in events)
    camp, _ = infect(Campaign(characters={"Ada": after}), "Ada", GRF, rules)
    camp, _ = advance(camp, 7 * 24, "hour", ScriptedDice([2]), rules)
    assert camp.characters["Ada"].luck_dice == 1


def test_F_LUCK_01_the_streak_comes_back_into_the_next_fight() -> None:
    """A character on a streak of 1 fights with it: her first failed ATK-or-SAVE there earns the die."""
    c = from_character(luck.kept(character(KIM), luck.LuckState(0, 1)), "party", HAZARDS)
    assert (c.luck_dice, c.luck_streak) == (0, 1)
