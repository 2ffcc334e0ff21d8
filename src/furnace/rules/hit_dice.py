"""Hit Dice as a monster's entry writes them — 7, 0.5, "1/2", "1-1" — and their value, read alike by the bestiary
(`furnace.rules.bestiary`), a fight file and the engine's monsters (`furnace.play.combatant.monster_hd`). Apart
from the bestiary so that a fight reads Hit Dice without loading the bestiary's models.
"""

from __future__ import annotations

import math
import re
from typing import Any

from furnace.errors import FurnaceError

MAX_HD = 30              # as a fight file allows
_HD_NUMBER = re.compile(r"^\d{1,6}(?:\.\d{1,3})?$")
_HD_FRACTION = re.compile(r"^(\d{1,2})/(\d{1,2})$")
HD_LESS = re.compile(r"^(\d{1,2})-(\d{1,2})$")


def hd_parts(text: str) -> tuple[str, float]:
    """The written Hit Dice, normalized, and their value; ValueError for anything else."""
    if m := _HD_FRACTION.match(text):
        top, bottom = int(m.group(1)), int(m.group(2))
        if top == 0 or bottom == 0:
            raise ValueError(f"Hit Dice {text!r}: a fraction like 1/2 has a non-zero top and bottom")
        return f"{top}/{bottom}", top / bottom
    if m := HD_LESS.match(text):
        whole, less = int(m.group(1)), int(m.group(2))
        if whole == 0 or less == 0:
            raise ValueError(f"Hit Dice {text!r}: 'N-M' is N dice less M points, both at least 1 (like 1-1)")
        return f"{whole}-{less}", whole - 0.1        # under `whole` full dice (as play.combatant.monster_hd)
    if _HD_NUMBER.match(text):
        value = float(text)
        return (str(int(value)) if value.is_integer() else text), value
    raise ValueError(f"Hit Dice are a number (3, 0.5), a fraction (1/2) or dice less points (1-1), not {text!r}")


def hd_value(hd: Any) -> float:
    """Hit Dice as a number: 7 → 7.0, "1/2" → 0.5, "1-1" → 0.9 (under one full die, so a mook: M-MOOK-02).
    The same reading as `furnace.play.combatant.monster_hd` on every form this module accepts; refuses
    negative, zero and anything past MAX_HD with a FurnaceError."""
    try:
        return normal_hd(hd)[1]
    except ValueError as exc:
        raise FurnaceError(str(exc)) from None


def normal_hd(hd: Any) -> tuple[str, float]:
    if isinstance(hd, bool) or not isinstance(hd, int | float | str):
        raise ValueError(f"Hit Dice are a number or text like 1/2 or 1-1, not {type(hd).__name__}")
    if isinstance(hd, float) and not math.isfinite(hd):
        raise ValueError(f"Hit Dice are a number from above 0 to {MAX_HD}, not {hd}")
    text = str(hd).strip() if isinstance(hd, str) else (str(int(hd)) if float(hd).is_integer() else repr(hd))
    if text.startswith("-"):
        raise ValueError(f"Hit Dice are above 0, not {text}")
    normal, value = hd_parts(text)
    if not 0 < value <= MAX_HD:
        raise ValueError(f"Hit Dice are above 0 and at most {MAX_HD}, not {normal}")
    return normal, value
