"""The Fighter's fighting styles that give her a choice in the fight (F-FTR-04, F-TAB-39, AMB-45), each asked of her
player where the rule gives it (`furnace.play.choosing`):

- (d) 2H weapon master, "you can roll 1s one time": her two-handed damage dice carry `ro1` (option
  two_handed_style_ones reroll_once, `furnace.characters.equipment`); she sees the weapon's dice fall, and when one
  shows 1 she may roll each such die again, once, the new face standing. Declined, the 1s stand. Under count_as_2 a
  1 counts as 2 with no choice to make.
- (e) Protection, "once a fight a NEAR ally is HARD to hit": as a foe attacks an ally of hers within one zone of
  her, she may make that one ATK HARD (held by the ally as `next_atk_against` HARD, spent by the ATK it meets);
  once used, it is gone until the next fight; declined, she keeps it for a later ATK.

The dice are drawn in the order the roll `ro1` draws them (the weapon's dice, then the rerolls, then any other dice
of the blow), so a standing answer that rerolls gives the same fight as before she was asked.
"""

from __future__ import annotations

import random
import re

from furnace import dice
from furnace.events import declare
from furnace.play import choosing
from furnace.play import conditions as cond
from furnace.play.combatant import ZONES, Combatant
from furnace.play.kept import Kept
from furnace.play.state import Step

# told as a power used (the kind `furnace.play.attacks` records Chosen one and Rally by), with the 1s and their rerolls
POWER = declare("power", targets=1, power="public", mode="public", faces="actor", again="actor",
                example={"power": "rally", "mode": "EASY", "faces": [1], "again": [6]})
REROLLED = re.compile(r"(\d*)d(\d+)ro(\d+)")     # a damage group of the 2H weapon master's (`ro1`)
PROTECTS = "protects"     # the key of a Fighter's Protection among her powers (F-TAB-39 data.protects)
FLOAT_SOURCES = (random.Random, random.SystemRandom)


class _Drawn:
    """A dice source that hands out the faces already drawn (from 1), then the step's own dice, drawn as the roller
    draws them from a generator (so a seed gives the dice it gave before)."""

    def __init__(self, faces: list[int], then: dice.DiceSource) -> None:
        self.faces = list(faces)
        self.then = then

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        if self.faces:
            return low + self.faces.pop(0) - 1
        if type(self.then) in FLOAT_SOURCES:
            return low + int(self.then.random() * (high - low))  # type: ignore[attr-defined]
        return self.then.randrange(low, high)


# the dice groups of a weapon's damage whose low faces she may roll again (`REROLLED`), read once a text (a
# fight's few weapons): the last 1024
_REROLLED: Kept[str, tuple[tuple[str, str, str], ...]] = Kept(lambda damage: tuple(REROLLED.findall(damage)), 1024)


def damage_roll(step: Step, a: Combatant, text: str) -> dice.RollResult:
    """The blow's damage roll `text`; a 2H weapon master (her weapon's groups with `ro`) is asked, once she has seen
    a 1 among the weapon's dice, whether to roll each 1 again (F-FTR-04 (d), AMB-45)."""
    groups = _REROLLED[a.damage] if a.kind == "pc" else ()
    if not groups:
        return step.roll(text, "DAM")
    seen = [(int(sides), int(low), list(dice.roll(f"{n or 1}d{sides}", step.rng).faces)) for n, sides, low in groups]
    ones = [f for _, low, faces in seen for f in faces if f == low]
    again = bool(ones) and choosing.rerolls_ones(step, a, [f for *_, faces in seen for f in faces], len(ones))
    drawn: list[int] = []
    rerolled: list[int] = []
    for sides, low, faces in seen:
        drawn += faces
        if again:
            new = [dice.roll(f"1d{sides}", step.rng).total for f in faces if f == low]
            drawn += new
            rerolled += new
    if again:
        step.fact(POWER, a.id, (), (), ("F-FTR-04", "AMB-45"), power="two_handed", faces=ones, again=rerolled)
    kept = REROLLED.sub(r"\1d\2", text) if ones and not again else text     # declined: the 1s stand
    return dice.parse(kept).roll(_Drawn(drawn, step.rng), label="DAM")


def protect(step: Step, actor: str, target: str) -> None:
    """F-FTR-04 (e), AMB-45: a foe attacks `target`; a Fighter of hers with Protection left, her ally within one zone,
    may make this ATK HARD (asked, `choosing.protects`), once a fight."""
    a, t = step.c(actor), step.c(target)
    if t.side == a.side:
        return
    for guard in step.allies_holding(t, PROTECTS):
        power = _protection(guard)
        if power is None or abs(ZONES.index(guard.zone) - ZONES.index(t.zone)) > 1:
            continue
        name, mode = power
        if not choosing.protects(step, guard, t, a, mode):
            continue
        step.update(guard.id, powers={k: v for k, v in guard.powers.items() if k != name})
        step.update(target, held=(*t.held, cond.Held(name=cond.modifier_name("next_atk_against", mode),
                                                      source=f"{guard.name}'s Protection", ending="encounter")))
        step.fact(POWER, guard.id, (target,), (), ("F-FTR-04", "AMB-45"), power="protection", mode=mode)
        return


def _protection(c: Combatant) -> tuple[str, str] | None:
    """The Protection she still holds this fight (F-TAB-39 data.protects: the mode it gives the ATK)."""
    if c.kind != "pc" or not c.powers:
        return None
    return next(((name, str(data[PROTECTS])) for name, data in c.powers.items() if PROTECTS in data), None)


__all__ = ["POWER", "damage_roll", "protect"]
