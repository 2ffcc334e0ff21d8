"""The look-ups a table answers, one rule for the table models (`furnace.rules.tables`) and the plain objects
(`furnace.rules.plain`): a row's span as shown, the row of a total or a key, the die chosen for a level or armor.
Each reads only the attributes both kinds of table have (`kind`, `rows`, `name`, `key_name`, `die_table` …).
"""

from __future__ import annotations

from typing import Any

from furnace.errors import DataFileError, FurnaceError, UnknownNameError


def row_span(row: Any) -> str:
    """A row's totals or key as shown: `3`, `4–6`, `20+`, `…0`, or its key."""
    if row.key is not None:
        return str(row.key)
    lo = "…" if row.min is None else str(row.min)
    hi = "+" if row.max is None else str(row.max)
    return lo if row.min == row.max else (f"{lo}{hi}" if hi == "+" else f"{lo}–{hi}")


def lookup_row(table: Any, value: int | str) -> Any:
    """The row of `table` for a total (range tables) or a key (keyed tables)."""
    if table.kind == "keyed":
        wanted = str(value).lower()
        for row in table.rows:
            if str(row.key).lower() == wanted:
                return row
        raise UnknownNameError(f"{table.key_name or 'key'} in {table.name}", str(value),
                               [str(r.key) for r in table.rows])
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FurnaceError(f"{table.name}: a range table is looked up by a whole number, not {_shown(value)}")
    try:
        total = int(value)
    except ValueError:
        raise FurnaceError(f"{table.name}: a range table is looked up by a whole number, not {_shown(value)}") \
            from None
    for row in table.rows:
        if (row.min is None or total >= row.min) and (row.max is None or total <= row.max):
            return row
    raise FurnaceError(f"{table.name}: no row for {total}")


def die_for(tables: Any, table: Any, key: int | str) -> tuple[str, str]:
    """The die `table` is rolled with for this key (level, armor), and the reason, for the log."""
    if table.die_table is None:
        raise FurnaceError(f"{table.name} is rolled with {table.roll}, not a die chosen by {table.die_key}")
    selector = tables.get(table.die_table)
    row = lookup_row(selector, key)
    if row.die is None:
        raise DataFileError(tables.source_of(selector.id), f"row {row.key} names no die", str(row.key))
    return row.die, f"{row.die} for {selector.key_name or table.die_key} {key}"


def _shown(value: object) -> str:
    from furnace.rules.effects import shown  # (a refusal's words: Pydantic may load then)

    return shown(value)
