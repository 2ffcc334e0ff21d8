"""Languages and literacy (H-LANG-01..03, H-TAB-03, AMB-78, REF-36).

A character speaks her native tongue, and reads and writes if her INT score is 7 or more (H-LANG-01).
Elves and Dwarves also speak their clan tongue, Halflings the local human tongue (H-LANG-02; a Half-orc the
local tongue and an orc clan tongue, REF-36). A language met in play is known on 1d6 ≤ 1 + INT modifier +
the row's modifier (local 0, not-local −1, exotic −2, ancient −3): a chance of 0 or less needs no roll and
fails, 6 or more needs no roll and succeeds (AMB-78). One attempt per language, ever: the result is kept in
extensions["hazards"]["language_attempts"] and a second attempt returns it without rolling. A magical
language can never be known this way (no roll, and no attempt is used up).
"""

from __future__ import annotations

from typing import Any

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.hazards.common import require, ruleset, state, with_state
from furnace.rules.ruleset import Ruleset

LITERACY = 7
CLAN = {"elf": "Elvish", "dwarf": "Dwarvish", "half-orc": "Orcish"}
# a language met in play: outcome speaks (already), magical, remembered (the one attempt made), certain (a
# chance of 0 or less, or 6 or more: no roll) or rolled; `group` how the referee classes it (local, exotic …)
LANGUAGE = declare("language", language="public", outcome="public", known="public", rolled="public",
                   chance="actor", group="public", roll="actor",
                   example={"language": "Tilean", "outcome": "rolled", "known": False, "rolled": True, "chance": 2,
                            "group": "not-local", "roll": 3})
# the tongues a character starts with (H-LANG-01/02): `languages` she speaks, `literate` (INT `int_score` ≥ 7)
TONGUES = declare("tongues", languages="public", literate="public", int_score="actor",
                  example={"languages": ["Common", "Dwarvish"], "literate": False, "int_score": 6})


def literate(character: Character) -> bool:
    """H-LANG-01: literate with an Intelligence score of 7 or more."""
    return character.scores["INT"] >= LITERACY


def starting_languages(character: Character, local: str = "Common", clan: str | None = None) -> Character:
    """H-LANG-01/02: the native tongue, plus the clan tongue for Elves, Dwarves (and Half-orcs, REF-36)."""
    race = character.race.lower()
    spoken = [local] + ([clan or CLAN[race]] if race in CLAN else [])
    languages = list(dict.fromkeys([*character.languages, *spoken]))
    return with_state(character.model_copy(update={"languages": languages}), literate=literate(character))


def native_tongues(character: Character, rules: Ruleset | None = None, local: str = "Common",
                   ) -> tuple[Character, list[Event]]:
    """H-LANG-01/02 for a character the chapter meets for the first time: her starting tongues and literacy,
    with their fact; nothing when she already has them (her Hazards state says literate or not)."""
    require(ruleset(rules), "hazards_languages", "H-LANG-01", "languages and literacy")
    if "literate" in state(character):
        return character, []
    after = starting_languages(character, local)
    return after, [fact(TONGUES, character, (), ("H-LANG-01", "H-LANG-02") + (("REF-36",) if character.race.lower()
                                                                                == "half-orc" else ()),
                        languages=list(after.languages), literate=literate(after), int_score=after.scores["INT"])]


def chance_in_6(int_mod: int, kind: str, rules: Ruleset | None = None) -> int | None:
    """AMB-78: 1 + INT + the row's modifier; None for a language that cannot be learnt this way."""
    row = ruleset(rules).tables.get("languages").lookup(kind)
    if not row.data.get("allowed", True) or row.data.get("modifier") is None:
        return None
    return 1 + int_mod + int(row.data["modifier"])


def know_language(character: Character, language: str, kind: str, rng: DiceSource, rules: Ruleset | None = None,
                  ) -> tuple[Character, list[Event]]:
    """H-LANG-03: does the character know a language met in play? One attempt per language, ever."""
    rules = ruleset(rules)
    require(rules, "hazards_languages", "H-LANG-03", "the language roll")
    attempts = state(character).get("language_attempts", {})
    known = {lang.lower() for lang in character.languages}
    if language.lower() in known:
        return character, [fact(LANGUAGE, character, (), ("H-LANG-01",), language=language, outcome="speaks",
                                known=True, rolled=False)]
    if language.lower() in attempts:
        return character, [_attempted(character, language, "remembered", (), attempts[language.lower()])]
    chance = chance_in_6(character.mod("INT", rules), kind, rules)
    if chance is None:
        return character, [fact(LANGUAGE, character, (), ("H-LANG-03",), language=language, outcome="magical",
                                known=False, rolled=False, group=kind)]
    return _attempt(character, language, kind, chance, rng)


def _attempt(character: Character, language: str, kind: str, chance: int, rng: DiceSource,
             ) -> tuple[Character, list[Event]]:
    rolls: tuple[dice.RollResult, ...] = ()
    if chance <= 0 or chance >= 6:
        success = chance >= 6
    else:
        roll = dice.roll("1d6", rng, label="language")
        rolls, success = (roll,), roll.total <= chance
    attempt = {"known": success, "chance": chance, "kind": kind, "roll": rolls[0].total if rolls else None}
    attempts = {**state(character).get("language_attempts", {}), language.lower(): attempt}
    after = with_state(character, language_attempts=attempts)
    if success:
        after = after.model_copy(update={"languages": [*after.languages, language]})
    return after, [_attempted(character, language, "rolled" if rolls else "certain", rolls, attempt)]


def _attempted(character: Character, language: str, outcome: str, rolls: tuple[dice.RollResult, ...],
               attempt: dict[str, Any]) -> Event:
    """The fact of an attempt (made now, or remembered): known or not, the chance, the roll."""
    cite = ("H-LANG-03", "AMB-78") if outcome == "certain" else ("H-LANG-03",)
    return fact(LANGUAGE, character, rolls, cite, language=language, outcome=outcome, rolled=bool(rolls),
                known=bool(attempt.get("known")), chance=attempt.get("chance"), group=attempt.get("kind"),
                roll=attempt.get("roll"))


def language_kinds(rules: Ruleset | None = None) -> list[str]:
    table = ruleset(rules).tables.get("languages")
    return [str(r.key) for r in table.rows]

