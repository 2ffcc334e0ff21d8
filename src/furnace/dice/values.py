"""What callers hand the dice library, checked at the door: variable bindings, DCs, labels, dice sources.

Every wrong type or out-of-range value becomes a `DiceValueError` (a `DiceError`, so a `FurnaceError`)
before any work starts; the roller, the bounds and the odds then read only checked values.

A variable is bound to a whole number (|n| ≤ 10**9, given as an int or as text such as "3" or "-2") or to a
die (text such as "d8", "D12" or "d%"). Anything else — "²", "3.5", "1e5", a 5,000-digit number, None, a
bool — is refused with a message naming the variable.
"""

import re
import reprlib
from collections.abc import Mapping
from typing import NamedTuple

from furnace.errors import DiceError

MAX_VALUE = 10**9          # a bound variable, a DC: far beyond any rule, small enough to stay cheap
MAX_SIDES = 10_000         # sides of a die, typed (d10000) or bound (HD=d10000)
MAX_DICE = 1_000           # dice in one roll, counted before any is rolled (a reroll is not a new die)
MAX_ROLLS = 10_000         # faces one roll draws, rerolls and explosions included (d20 allows 1,000 in all)

_NUMBER = re.compile(r"[+-]?[0-9]+")      # ASCII digits only: "²" and "٣" are not numbers here
_DIE = re.compile(r"[dD]([0-9]{1,6}|%)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class DiceValueError(DiceError):
    """A value handed to the dice library (a variable's binding, a DC, a label, a source) that is of the wrong
    type or out of range."""


class DieValue(NamedTuple):
    """A variable bound to a die, such as HD bound to "d8"."""

    sides: int


Binding = int | DieValue
Bindings = Mapping[str, Binding]
NO_BINDINGS: Bindings = {}


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40


def shown(value: object) -> str:
    """A short, safe picture of a caller's value for a message (never a 5,000-digit number in full)."""
    if isinstance(value, int) and not -(10**30) < value < 10**30:
        return f"a number of {value.bit_length()} bits"
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:37] + "…")
    return _SHORT.repr(value)


def binding(name: str, value: object, expression: str = "") -> Binding:
    """One variable's value, checked: a whole number within ±10**9 or a die of 1 to 10,000 sides."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -MAX_VALUE <= value <= MAX_VALUE:
            return int(value)
        raise DiceValueError(f"variable {name} is bound to a number beyond ±{MAX_VALUE:,}", expression,
                             expected=f"a whole number from {-MAX_VALUE:,} to {MAX_VALUE:,}")
    if isinstance(value, str):
        text = value.strip()
        if _NUMBER.fullmatch(text):
            if len(text.lstrip("+-").lstrip("0")) > len(str(MAX_VALUE)):  # never int() a 5,000-digit text
                raise DiceValueError(f"variable {name} is bound to a number beyond ±{MAX_VALUE:,}", expression,
                                     expected=f"a whole number from {-MAX_VALUE:,} to {MAX_VALUE:,}")
            return binding(name, int(text), expression)
        if m := _DIE.fullmatch(text):
            sides = 100 if m.group(1) == "%" else int(m.group(1))
            if 1 <= sides <= MAX_SIDES:
                return DieValue(sides)
            raise DiceValueError(f"variable {name} names a die of {sides} sides", expression,
                                 expected=f"a die of 1 to {MAX_SIDES:,} sides, e.g. d8")
        raise DiceValueError(f"variable {name} is bound to {shown(value)}, which is neither a whole number nor "
                             "a die", expression, expected=f"a whole number such as 2 or a die such as d8 for {name}")
    kind = "a bool" if isinstance(value, bool) else type(value).__name__
    raise DiceValueError(f"variable {name} is bound to {kind} {shown(value)}", expression,
                         expected=f"a whole number such as 2 or a die such as d8 for {name}")


def bindings(variables: object, expression: str = "") -> Bindings:
    """The caller's variables, checked and keyed by upper-case name (names ignore case)."""
    if variables is None:
        return NO_BINDINGS
    if not isinstance(variables, Mapping):
        raise DiceValueError(f"variables are a mapping of names to values, not {type(variables).__name__}",
                             expression)
    if not variables:
        return NO_BINDINGS
    out: dict[str, Binding] = {}
    for key, value in variables.items():
        name = _NAMES.get(key) if type(key) is str else None
        if name is None:
            name = _name(key, expression)
        if name in out:
            raise DiceValueError(f"variable {name} is bound twice (names ignore case)", expression)
        if type(value) is int and -MAX_VALUE <= value <= MAX_VALUE:
            out[name] = value
        else:
            out[name] = binding(name, value, expression)
    return out


_NAMES: dict[str, str] = {}   # names already checked, and their upper-case form (a roll binds the same few)


def _name(key: object, expression: str) -> str:
    if not isinstance(key, str) or not _NAME.fullmatch(key):
        raise DiceValueError(f"a variable's name is a word such as STR, not {shown(key)}", expression)
    name = key.upper()
    if len(_NAMES) < 4096 and type(key) is str:
        _NAMES[key] = name
    return name


def variable_name(key: object) -> str:
    """A variable's name checked (a word such as STR or ROOM_DC, ASCII letters, digits and _) and upper-cased."""
    return _name(key, "")


def check_dc(dc: object) -> int:
    if type(dc) is not int:
        raise DiceValueError(f"a DC is a whole number, not {type(dc).__name__} {shown(dc)}")
    if not -MAX_VALUE <= dc <= MAX_VALUE:
        raise DiceValueError(f"a DC lies within ±{MAX_VALUE:,}, not {shown(dc)}")
    return dc


def check_label(label: object) -> str:
    if not isinstance(label, str):
        raise DiceValueError(f"a label is text, not {type(label).__name__}")
    return label


def check_source(rng: object) -> None:
    """A dice source needs `randrange` (a `random.Random`, `secrets.SystemRandom`, `ScriptedDice`)."""
    if not callable(getattr(rng, "randrange", None)):
        raise DiceValueError(f"a dice source has randrange (random.Random, dice.seeded(n), dice.ScriptedDice), "
                             f"not {type(rng).__name__}")
