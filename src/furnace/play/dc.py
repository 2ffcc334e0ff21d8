"""The DC of a roll: ROOM DC moved by EASY and HARD (F-BASE-03, F-BASE-04, AMB-04), and the pieces it needs (a whole
number checked, the default ruleset). `furnace.play.checks` re-exports all of it; it lives here so that a reader of a
DC alone — `furnace odds attack` (`furnace.play.odds`) — does not build the checks' own classes.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from furnace.errors import FurnaceError

if TYPE_CHECKING:      # (annotations only; the default ruleset is loaded when asked: `furnace odds attack` loads none)
    from furnace.rules.ruleset import Ruleset

STEP = 3                       # EASY is -3 and HARD +3 to the DC (F-BASE-04)


class CheckError(FurnaceError):
    """A check asked for with values the rules cannot resolve (no source for a HARD, an unknown kind …)."""


@cache
def default_rules() -> Ruleset:
    """The `furnace` profile, loaded once: a caller that passes no ruleset gets every default."""
    from furnace.rules.ruleset import load_ruleset

    return load_ruleset()


def resolve_rules(rules: Ruleset | None) -> Ruleset:
    """The ruleset given, or the default `furnace` profile when none is."""
    return default_rules() if rules is None else rules


def whole(value: object, what: str) -> int:
    """`value` as a whole number, or a `CheckError` naming `what`."""
    # bool is an int to Python, but True is never a meant modifier or DC
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckError(f"{what} must be a whole number, not {value!r}")
    return value


class DC(NamedTuple):
    """The number to meet: ROOM DC moved by the EASY and HARD that counted, and why. (A NamedTuple: cheaper to make
    at import than a frozen dataclass, for `furnace odds attack`.)"""

    value: int
    room_dc: int
    easy: tuple[str, ...] = ()          # the sources that counted, after removing repeats
    hard: tuple[str, ...] = ()
    steps: int = 0                      # net steps of 3 applied: +1 is one HARD, -1 one EASY
    notes: tuple[str, ...] = ()         # repeats dropped, caps applied, conversions

    def explain(self) -> str:
        parts = [f"EASY −3 ({s})" for s in self.easy] + [f"HARD +3 ({s})" for s in self.hard]
        parts += list(self.notes)
        if not parts:
            return f"DC {self.value}"
        return f"DC {self.value} (ROOM DC {self.room_dc}; " + "; ".join(parts) + ")"

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "room_dc": self.room_dc, "easy": list(self.easy), "hard": list(self.hard),
                "steps": self.steps, "notes": list(self.notes), "explanation": self.explain()}


def plain_dc(value: int) -> DC:
    """A DC given as a bare number: no EASY or HARD to explain."""
    value = whole(value, "a DC")
    return DC(value, value)


def _distinct(sources: Iterable[str] | str, what: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sources counted once each (AMB-04), and the repeats that were dropped."""
    if isinstance(sources, str):  # one source given bare, not a string to split into letters
        sources = (sources,)
    kept: list[str] = []
    repeats: list[str] = []
    seen: set[str] = set()
    for source in sources:
        if not isinstance(source, str) or not source.strip():
            raise CheckError(f"every {what} needs a named source, so that one source counts once (AMB-04)")
        key = source.strip().casefold()
        (repeats if key in seen else kept).append(source.strip())
        seen.add(key)
    return tuple(kept), tuple(repeats)


def make_dc(room_dc: int, easy: Iterable[str] | str = (), hard: Iterable[str] | str = (),
            rules: Ruleset | None = None) -> DC:
    """ROOM DC with each EASY −3 and each HARD +3, combined per the option easy_hard_stacking."""
    room_dc = whole(room_dc, "ROOM DC")
    easy_kept, easy_repeats = _distinct(easy, "EASY")
    hard_kept, hard_repeats = _distinct(hard, "HARD")
    notes = [f"{s} counted once (AMB-04)" for s in dict.fromkeys(easy_repeats + hard_repeats)]
    steps = len(hard_kept) - len(easy_kept)
    if resolve_rules(rules)["easy_hard_stacking"] == "cancel_single" and abs(steps) > 1:
        notes.append(f"net capped at {'+' if steps > 0 else '−'}3 (easy_hard_stacking: cancel_single)")
        steps = 1 if steps > 0 else -1
    return DC(room_dc + STEP * steps, room_dc, easy_kept, hard_kept, steps, tuple(notes))
