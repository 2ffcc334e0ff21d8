"""The SPELLCHECK: d20 + INT (arcane) or WIS (divine) + PROF, read on the success-level table.

F-SPELL-02…10: the total gives the Success Level (F-TAB-11) and its Spell Dice (1/2/4/7/11, SL6 a
WONDER); the spell works only if the total also reaches the ROOM DC moved by EASY/HARD (AMB-17; the
SL is read from the raw total); a natural 20 adds 2 × PROF to the total (triple PROF) and 2 Spell Dice
(F-SPELL-08; no automatic success, AMB-18); a natural 1 is a mishap (F-SPELL-10), or for a Cleric
disapproval (D-10, CF-16); Luck Dice move the SL by at most one (F-SPELL-09).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.play import luck
from furnace.play.checks import DC, make_dc
from furnace.rules.ruleset import Ruleset, load_ruleset

MIN_SUCCESS = 12
CRIT_EXTRA_DICE = 2


@dataclass(frozen=True)
class Spellcheck:
    """A SPELLCHECK and what it bought: the SL, the Spell Dice, success, mishap, each step explained."""

    roll: RollResult
    total: int
    dc: DC
    sl: int                 # 0 = Failure; 6 = WONDER
    spell_dice: int | None  # None for a WONDER
    success: bool
    natural: int
    crit: bool
    mishap: bool
    steps: tuple[str, ...] = field(default=())

    def explain(self) -> str:
        return "; ".join(self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {"roll": self.roll.to_dict(), "total": self.total, "dc": self.dc.to_dict(), "sl": self.sl,
                "spell_dice": self.spell_dice, "success": self.success, "natural": self.natural,
                "crit": self.crit, "mishap": self.mishap, "steps": list(self.steps),
                "explanation": self.explain()}


def success_level(total: int, rules: Ruleset) -> tuple[int, int | None]:
    """(SL, Spell Dice) for a total on F-TAB-11: 11 or less Failure (0, 0); 36+ WONDER (6, None)."""
    row = rules.tables.get("spellcheck").lookup(total)
    sl = row.data.get("sl")
    return (0, 0) if sl is None else (int(sl), row.data.get("total_dice"))


def spellcheck(rng: DiceSource, mod: int, prof: int, room_dc: int, rules: Ruleset | None = None, *,
               easy: Sequence[str] = (), hard: Sequence[str] = (), luck_dice: int = 0,
               ability: str = "INT", label: str = "") -> Spellcheck:
    """Roll a SPELLCHECK. `luck_dice` Luck Dice are spent on it (the SL moves at most one step)."""
    rules = rules or load_ruleset()
    roll = dice.roll(f"d20+{ability}+PROF", rng, {ability: mod, "PROF": prof},
                     label or f"SPELLCHECK d20 + {ability} + PROF")
    natural = roll.natural or 0
    steps = [f"{roll.expression} → {dice.render(roll.tree)} = {roll.total}"]
    total = roll.total
    crit = natural == 20
    if crit:
        total += 2 * prof
        steps.append(f"natural 20: triple PROF, total {roll.total} + {2 * prof} = {total} (F-SPELL-08)")
    sl, spell_dice = success_level(total, rules)
    if luck_dice:
        total, sl, spell_dice = _luck(rng, rules, total, sl, natural, luck_dice, steps)
    dc = make_dc(room_dc, easy, hard, rules)
    needed = max(MIN_SUCCESS, dc.value)
    mishap = natural == 1
    auto = crit and bool(rules["spell_nat20_autosuccess"])   # AMB-18: off by default
    success = not mishap and sl > 0 and (total >= needed or auto)
    if crit and success and spell_dice is not None:
        spell_dice += CRIT_EXTRA_DICE
    steps.append(_verdict(total, sl, spell_dice, needed, dc, mishap, success))
    return Spellcheck(roll, total, dc, sl if success else 0, spell_dice if success else 0, success, natural,
                      crit, mishap, tuple(steps))


def _luck(rng: DiceSource, rules: Ruleset, total: int, sl: int, natural: int, n: int,
          steps: list[str]) -> tuple[int, int, int | None]:
    _, spent = luck.spend(luck.LuckState(n), rng, total, rules, n, natural=natural, label="Luck Die on SPELLCHECK")
    new_sl, _ = success_level(spent.total, rules)
    clamped = luck.clamp_success_level(sl, new_sl, natural=natural, rules=rules)
    steps.append(f"{n} Luck Die: total {total} → {spent.total}, SL {sl} → {clamped} (at most one step, F-SPELL-09)")
    return spent.total, clamped, dice_for_sl(clamped, rules)


def dice_for_sl(sl: int, rules: Ruleset) -> int | None:
    """The Spell Dice an SL buys (F-SPELL-06): 1/2/4/7/11; SL6 a WONDER (None); Failure 0."""
    for row in rules.tables.get("spellcheck").rows:
        if row.data.get("sl") == sl:
            value = row.data.get("total_dice")
            return None if value is None else int(value)
    return 0


def _verdict(total: int, sl: int, spell_dice: int | None, needed: int, dc: DC, mishap: bool, success: bool) -> str:
    if mishap:
        return "natural 1: a mishap (F-SPELL-10)"
    if sl == 0:
        return f"total {total}: Failure (11 or less)"
    if not success:
        return f"total {total} is SL{sl} but misses {dc.explain()}: the spell fails (F-SPELL-04)"
    bought = "a WONDER (the referee decides)" if spell_dice is None else f"{spell_dice} Spell Dice"
    return f"total {total} ≥ {needed}: SL{sl}, {bought}"
