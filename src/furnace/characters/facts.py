"""Facts about one character out of a fight (a rest, a hazard, a level gained): the character is their actor,
named by her name, a PC of her player."""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character
from furnace.dice import RollResult
from furnace.events import Event, Part


def fact(kind: str, character: Character, rolls: tuple[RollResult, ...] = (), rules: tuple[str, ...] = (),
         **data: Any) -> Event:
    """A fact of `kind` whose actor is this character (her name stands for her id: out of a fight the roster
    knows her by it)."""
    cast = {character.name: Part(character.name, "pc", character.player or "")}
    return Event(kind, character.name, (), rolls, data, rules, cast)
