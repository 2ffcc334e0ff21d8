"""What the Middle Sea modules share: the error classes, the `middle-sea` ruleset as the default, the state the
chapter keeps on a character (`Character.extensions["middle_sea"]`; its keys are listed in the package
docstring) and the look-ups of a campaign's characters. No rule of its own: the modules that use it name theirs
(RULES.md PART M).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from furnace.characters.character import Character, CharacterError
from furnace.errors import FurnaceError, UnknownNameError
from furnace.events import Event
from furnace.play.clock import Campaign
from furnace.rules.ruleset import Ruleset, load_ruleset

MODULE = "middle_sea"


class MiddleSeaError(FurnaceError):
    """A request the Middle Sea rules do not allow, or a value they cannot use."""


class ExternalRuleError(MiddleSeaError):
    """A Middle Sea rule whose content is in a book that is not among the sources (RULES.md Section D)."""


def _rules(rules: Ruleset | None) -> Ruleset:
    return rules or load_ruleset("middle-sea")


def state_of(character: Character) -> dict[str, Any]:
    """A copy of the state this module keeps on the character."""
    return copy.deepcopy(dict(character.extensions.get(MODULE, {})))


def with_state(character: Character, state: Mapping[str, Any]) -> Character:
    return character.model_copy(update={"extensions": {**character.extensions, MODULE: dict(state)}})


def _alive(character: Character) -> None:
    if not character.alive:
        raise CharacterError(f"{character.name} is dead ({character.dead})")


def _member(campaign: Campaign, name: str) -> Character:
    if name not in campaign.characters:
        raise UnknownNameError("character", name, sorted(campaign.characters))
    return campaign.characters[name]


def _put(campaign: Campaign, character: Character) -> Campaign:
    return campaign.model_copy(update={"characters": {**campaign.characters, character.name: character}})


def for_referee(e: Event) -> Event:
    """The same fact for the referee alone (a question the rules leave to her)."""
    return Event(e.kind, e.actor, e.targets, e.rolls, e.data, e.rules, e.cast, "referee")


def _added(items: Sequence[str], item: str) -> list[str]:
    return list(items) if item in items else [*items, item]
