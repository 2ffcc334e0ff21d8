"""Numbers on the command line: a whole number within what the store can hold (a 64-bit integer, the BIGINT of
SQLite and PostgreSQL), a decimal only when finite (NaN and infinity refused); checked by click, before any
work, like every other bad option."""

from __future__ import annotations

import math
from typing import Any

import click

BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


def whole(low: int | None = None, high: int | None = None) -> click.IntRange:
    """Whole numbers from `low` to `high` (each side, when not given, as far as the store can hold)."""
    return click.IntRange(BIGINT_MIN if low is None else low, BIGINT_MAX if high is None else high)


WHOLE = whole()


class Finite(click.FloatRange):
    """A decimal within a range; NaN (which compares as inside any range) and infinity are refused."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number (NaN and infinity are not)", param, ctx)
        return number
