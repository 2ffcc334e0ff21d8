"""Hazards languages (`furnace.hazards.languages`): literacy, racial tongues, one attempt per language ever.

RULES.md H-LANG-01 (native tongue, literate at INT 7+), H-LANG-02 (racial tongues), H-LANG-03 (1 + INT − penalty in
6, one attempt, never a magical language), H-TAB-03, AMB-78 (known on 1d6 ≤ chance; examples).
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.dice import ScriptedDice
from furnace.hazards import chance_in_6, know_language, literate, starting_languages
from furnace.hazards.common import state
from furnace.play.checks import OptionOffError
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character

HAZARDS = load_ruleset("hazards")
DI: dict[str, Any] = dict(name="Di", hp_max=4, languages=["Common"])   # 4 HP, speaks Common


@pytest.mark.parametrize(("int_mod", "kind", "chance"), [
    (2, "exotic", 1), (3, "local", 4), (0, "not-local", 0), (1, "ancient", -1), (0, "local", 1), (2, "magical", None)])
def test_H_LANG_03_AMB_78_chance_in_6(int_mod: int, kind: str, chance: int | None) -> None:
    """H-LANG-03, AMB-78, H-TAB-03: 1 + INT + the row's modifier: INT +2 exotic → 1 in 6; INT +3 local → 4 in 6;
    a magical language: no chance."""
    assert chance_in_6(int_mod, kind, HAZARDS) == chance


def test_H_LANG_03_known_on_a_roll_at_or_under_the_chance() -> None:
    """H-LANG-03, AMB-78: INT 16 (+2), not-local → 2 in 6: a 2 knows it (added to the languages)."""
    after, events = know_language(character(DI, INT=16), "Tilean", "not-local", ScriptedDice([2]), HAZARDS)
    assert "Tilean" in after.languages and events[0].data["known"] and events[0].rolls[0].total == 2


def test_H_LANG_03_one_attempt_per_language_ever() -> None:
    """H-LANG-03: a failed attempt (3 > 2) is remembered in extensions["hazards"]["language_attempts"]; the second
    attempt rolls nothing and returns the stored result."""
    first, _ = know_language(character(DI, INT=16), "Tilean", "not-local", ScriptedDice([3]), HAZARDS)
    assert state(first)["language_attempts"]["tilean"]["known"] is False
    again, events = know_language(first, "TILEAN", "local", ScriptedDice([]), HAZARDS)
    assert again == first and events[0].data["rolled"] is False and events[0].data["known"] is False
    assert "Tilean" not in again.languages


def test_H_LANG_03_magical_languages_never() -> None:
    """H-LANG-03: a magical language cannot be known this way: no roll, and no attempt is used up."""
    after, events = know_language(character(DI, INT=20), "Enochian", "magical", ScriptedDice([]), HAZARDS)
    assert after == character(DI, INT=20) and events[0].data["known"] is False and not events[0].rolls


def test_AMB_78_a_chance_of_0_or_less_needs_no_roll() -> None:
    """AMB-78: INT 3 (−3), local → −2 in 6: no roll, not known, the attempt is spent."""
    after, events = know_language(character(DI, INT=3), "Reikspiel", "local", ScriptedDice([]), HAZARDS)
    assert not events[0].rolls and "reikspiel" in state(after)["language_attempts"]


def test_H_LANG_03_a_language_already_spoken_needs_no_roll() -> None:
    """H-LANG-01/03: a character already speaking a language rolls nothing for it."""
    after, events = know_language(character(DI, INT=16), "common", "local", ScriptedDice([]), HAZARDS)
    assert events[0].data["known"] and after == character(DI, INT=16)


def test_H_LANG_01_literate_at_INT_7() -> None:
    """H-LANG-01: literate with an Intelligence score of 7 or more."""
    assert literate(character(DI, INT=7)) and not literate(character(DI, INT=6))


def test_H_LANG_02_racial_tongues() -> None:
    """H-LANG-02: Elves and Dwarves speak their clan tongue and the local tongue, Halflings the local tongue."""
    assert starting_languages(character(DI, INT=16, race="Elf", languages=[])).languages == ["Common", "Elvish"]
    dwarf = character(DI, INT=16, race="Dwarf", languages=[])
    assert starting_languages(dwarf, clan="Khazalid").languages == ["Common", "Khazalid"]
    halfling = starting_languages(character(DI, INT=16, race="Halfling", languages=[]), local="Reikspiel")
    assert halfling.languages == ["Reikspiel"] and state(halfling)["literate"] is True


def test_H_LANG_03_off_when_the_option_is_off() -> None:
    """H-LANG-03: under the furnace profile (hazards_languages false) the roll is refused."""
    with pytest.raises(OptionOffError):
        know_language(character(DI, INT=16), "Tilean", "local", ScriptedDice([1]), load_ruleset())
