"""Actions the tests of several files take on what the factories made (tests/helpers/factories.py): each runs the
engine once with scripted dice and hands back what it gives, and the dice."""

from __future__ import annotations

from collections.abc import Iterable

from furnace.dice import ScriptedDice
from furnace.events import Event
from furnace.play.encounter import Action, take_turn
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset, load_ruleset


def cast_in(enc: Encounter, spell: str, target: str, faces: Iterable[int], rules: Ruleset | None = None,
            who: str = "m") -> tuple[Encounter, list[Event], ScriptedDice]:
    """`who` ("m") casts `spell` at `target` on her turn (`take_turn`) under `rules` (the furnace profile), the dice
    showing `faces`."""
    dice = ScriptedDice(faces)
    after, events = take_turn(enc, who, Action("cast", target, detail=spell), dice,
                              load_ruleset() if rules is None else rules)
    return after, events, dice
