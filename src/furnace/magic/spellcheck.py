"""The SPELLCHECK: d20 + INT (arcane) or WIS (divine) + PROF, read on the success-level table.

F-SPELL-02…10: the total gives the Success Level (F-TAB-11) and its Spell Dice (1/2/4/7/11, SL6 a
WONDER); the spell works only if the total also reaches the ROOM DC moved by EASY/HARD (AMB-17; the
SL is read from the raw total); a natural 20 adds 2 × PROF to the total (triple PROF) and 2 Spell Dice
(F-SPELL-08; no automatic success, AMB-18); a natural 1 is a mishap (F-SPELL-10), or for a Cleric
disapproval (D-10, CF-16); Luck Dice move the SL by at most one (F-SPELL-09).

Options: `mishap_trigger` (AMB-16: a natural 1 only, or also a modified total of 1 or less) and
`spellcheck_sl_from` (AMB-17: the SL from the raw total, or from the total shifted by EASY/HARD). The caster's
state (short of sleep, drunk …, `furnace.play.registry.state_modifiers`) reaches the roll as `state` modifiers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.play import luck
from furnace.play.checks import DC, STEP, Modifier, make_dc
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
    # what a fact of it keeps (`furnace.render.story.magic` tells it): its numbers and words by name, and the rule
    # ids its steps carry out (F-SPELL-08 for a natural 20 …)
    values: Mapping[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = field(default=())
    luck_rolls: tuple[RollResult, ...] = field(default=())   # the Luck Dice spent on it (F-SPELL-09)

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
               ability: str = "INT", label: str = "", state: Sequence[Modifier] = ()) -> Spellcheck:
    """Roll a SPELLCHECK. `luck_dice` Luck Dice are spent on it (the SL moves at most one step); `state` are
    what the caster's state adds to it (short of sleep −N, H-SLEEP-01 …)."""
    rules = rules or load_ruleset()
    roll = _roll(rng, mod, prof, ability, label, state)
    natural = roll.natural or 0
    steps = [f"{roll.expression} → {dice.render(roll.tree)} = {roll.total}"]
    steps += [f"{m.explain()} to the SPELLCHECK" for m in state if m.value]
    values: dict[str, Any] = {"ability": ability, "natural": natural, "rolled": roll.total}
    ids: list[str] = []
    if any(m.value for m in state):
        values["state"] = [[m.value, m.source] for m in state if m.value]
    total = roll.total
    crit = natural == 20
    if crit:
        total += 2 * prof
        steps.append(f"natural 20: triple PROF, total {roll.total} + {2 * prof} = {total} (F-SPELL-08)")
        values |= {"crit": True, "crit_bonus": 2 * prof}
        ids.append("F-SPELL-08")
    dc = make_dc(room_dc, easy, hard, rules)
    shift = _sl_shift(total, dc, steps, rules)
    if shift:
        values |= {"sl_from": total + shift, "shift": shift}
        ids.append("AMB-17")
    sl, spell_dice = success_level(total + shift, rules)
    luck_rolls: tuple[RollResult, ...] = ()
    if luck_dice:
        before, sl_before = total, sl
        total, sl, spell_dice, luck_rolls = _luck(rng, rules, total, sl, natural, luck_dice, steps, shift)
        values |= {"luck_dice": luck_dice, "luck_before": before, "luck_after": total, "sl_before": sl_before,
                   "sl_after": sl}
        ids.append("F-SPELL-09")
    needed = max(MIN_SUCCESS, dc.value)
    mishap = _mishap(natural, roll.total, steps, rules)
    if mishap and natural != 1:
        values["low_total"] = True
        ids.append("AMB-16")
    auto = crit and bool(rules["spell_nat20_autosuccess"])   # AMB-18: off by default
    success = not mishap and sl > 0 and (total >= needed or auto)
    if crit and success and spell_dice is not None:
        spell_dice += CRIT_EXTRA_DICE
    steps.append(_verdict(total, sl, spell_dice, needed, dc, mishap and natural == 1, success))
    values |= {"total": total, "sl": sl if success else 0, "band": sl, "success": success, "mishap": mishap,
               "needed": needed, **_dc_values(dc, easy, hard)}
    if success:
        values |= {"spell_dice": spell_dice} if spell_dice is not None else {"wonder": True}
    if mishap and natural == 1:
        ids.append("F-SPELL-10")
    elif sl > 0 and not success:
        ids.append("F-SPELL-04")
    if values.get("dc_repeats"):
        ids.append("AMB-04")
    return Spellcheck(roll, total, dc, sl if success else 0, spell_dice if success else 0, success, natural,
                      crit, mishap, tuple(steps), values, tuple(ids), luck_rolls)


def _dc_values(dc: DC, easy: Sequence[str] | str, hard: Sequence[str] | str) -> dict[str, Any]:
    """The DC as a fact keeps it: its value, the ROOM DC and the EASY and HARD that moved it (each source once,
    AMB-04: the repeats dropped; whether easy_hard_stacking capped the net)."""
    out: dict[str, Any] = {"dc": dc.value, "room_dc": dc.room_dc}
    if dc.easy:
        out["easy"] = list(dc.easy)
    if dc.hard:
        out["hard"] = list(dc.hard)
    repeats = [*_repeats(easy), *_repeats(hard)]
    if repeats:
        out["dc_repeats"] = repeats
    if dc.value != dc.room_dc + STEP * (len(dc.hard) - len(dc.easy)):
        out["dc_capped"] = True
    return out


def _repeats(sources: Sequence[str] | str) -> list[str]:
    """The sources named more than once (AMB-04 counts each once)."""
    named = [s.strip() for s in ((sources,) if isinstance(sources, str) else sources) if isinstance(s, str)]
    counts: dict[str, int] = {}
    for s in named:
        counts[s.casefold()] = counts.get(s.casefold(), 0) + 1
    return list(dict.fromkeys(s for s in named if counts[s.casefold()] > 1))


def _roll(rng: DiceSource, mod: int, prof: int, ability: str, label: str, state: Sequence[Modifier]) -> RollResult:
    """d20 + the casting ability + PROF, and the caster's state as STATE when it adds anything."""
    variables: dict[str, int | str] = {ability: mod, "PROF": prof}
    expression = f"d20+{ability}+PROF"
    if any(m.value for m in state):
        variables["STATE"] = sum(m.value for m in state)
        expression += "+STATE"
    return dice.roll(expression, rng, variables, label or f"SPELLCHECK d20 + {ability} + PROF")


def _sl_shift(total: int, dc: DC, steps: list[str], rules: Ruleset) -> int:
    """AMB-17, option spellcheck_sl_from: what is added to the total the SL is read from: nothing (the raw
    total), or under `adjusted_total` the EASY/HARD steps (each EASY +3, each HARD −3)."""
    shift = dc.room_dc - dc.value
    if rules["spellcheck_sl_from"] != "adjusted_total" or not shift:
        return 0
    steps.append(f"the SL is read from {total} {'+' if shift > 0 else '−'} {abs(shift)} = {total + shift} "
                 "(EASY/HARD shift it, spellcheck_sl_from: adjusted_total, AMB-17)")
    return shift


def _mishap(natural: int, total: int, steps: list[str], rules: Ruleset) -> bool:
    """AMB-16, option mishap_trigger: a natural 1; under `total_1` a modified total of 1 or less too."""
    if natural == 1:
        return True
    if rules["mishap_trigger"] == "total_1" and total <= 1:
        steps.append(f"a total of {total}: a mishap (mishap_trigger: total_1, AMB-16)")
        return True
    return False


def _luck(rng: DiceSource, rules: Ruleset, total: int, sl: int, natural: int, n: int,
          steps: list[str], shift: int = 0) -> tuple[int, int, int | None, tuple[RollResult, ...]]:
    _, spent = luck.spend(luck.LuckState(n), rng, total, rules, n, natural=natural, label="Luck Die")
    new_sl, _ = success_level(spent.total + shift, rules)
    clamped = luck.clamp_success_level(sl, new_sl, natural=natural, rules=rules)
    steps.append(f"{n} Luck Die: total {total} → {spent.total}, SL {sl} → {clamped} (at most one step, F-SPELL-09)")
    return spent.total, clamped, dice_for_sl(clamped, rules), spent.rolls


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
