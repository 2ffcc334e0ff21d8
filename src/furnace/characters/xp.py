"""Experience (F-BASE-08): the documents leave the XP system to the referee (DCC's by default, not
included), so Furnace keeps a ledger of awards and levels a character when the referee says so (REF-24)."""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character, CharacterError
from furnace.characters.facts import fact
from furnace.events import Event, declare

KEY = "xp"
# an award of XP: to one character (`amount`, her ledger's total `before` and `after`), or shared out by the referee
# (`award`: "shared" among those named, `share` each and the `remainder`) or after a fight (`award`: "fight", the
# monsters `beaten`, their `total` XP and the `survivors`)
XP = declare("xp", targets=2, award="public", amount="public", reason="public", before="actor", after="actor",
             share="public", remainder="public", each="public", total="public", beaten="referee",
             survivors="public", fight="referee", from_fight="public",
             example={"award": "shared", "amount": 101, "reason": "the goblin cave", "share": 33, "remainder": 2,
                      "each": False, "fight": "a fight with goblin x2"})


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
    return after, fact(XP, character, (), ("REF-24",), award="one", amount=amount, reason=reason,
                       before=total(character), after=total(after))
