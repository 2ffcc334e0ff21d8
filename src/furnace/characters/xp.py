"""Experience (F-BASE-08): the documents leave the XP system to the referee (DCC's by default, not
included), so Furnace keeps a ledger of awards and levels a character when the referee says so (REF-24)."""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character, CharacterError
from furnace.events import Event

KEY = "xp"


def ledger(character: Character) -> list[dict[str, Any]]:
    return list(character.extensions.get(KEY, []))


def total(character: Character) -> int:
    return sum(int(a["amount"]) for a in ledger(character))


def award(character: Character, amount: int, reason: str) -> tuple[Character, Event]:
    """Record an award (or a correction, negative); the total never goes below 0."""
    if total(character) + amount < 0:
        raise CharacterError(f"{character.name} has {total(character)} XP; {amount} would go below 0")
    entry = {"amount": amount, "reason": reason}
    after = character.model_copy(update={"extensions": {**character.extensions, KEY: [*ledger(character), entry]}})
    return after, Event.said("xp", character.name, f"{amount:+d} XP for {reason} (total {total(after)})",
                        before=total(character), after=total(after))
